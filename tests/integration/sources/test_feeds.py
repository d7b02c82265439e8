"""RSS and Atom, `where` conditions, presets, encodings and Retry-After: one table each."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.errors import ConfigError
from hunter.settings.config import parse_config
from hunter.sources import encoding
from hunter.sources.conditions import all_hold, parse_conditions
from hunter.sources.fetch import retry_after_seconds
from hunter.sources.json import _MISSING, lookup
from hunter.sources.reader import parse, read_sources
from tests.support.board import Board

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Remote jobs</title>
<item><title>Acme: Senior Python Engineer</title>
  <link>https://jobs.test/remote-jobs/acme-senior-python-engineer</link>
  <guid isPermaLink="false">wwr-123</guid>
  <description>&lt;p&gt;Build &lt;b&gt;APIs&lt;/b&gt;&lt;/p&gt;</description>
  <pubDate>Mon, 30 Nov 2026 08:00:00 +0000</pubDate></item>
<item><title>No guid here</title><link>/remote-jobs/relative?utm_source=rss</link></item>
<item><link>https://jobs.test/untitled</link></item>
</channel></rss>"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Jobs</title>
<entry><id>tag:jobs.test,2026:42</id><title>งานเขียนบอท LINE</title>
  <link rel="alternate" href="https://jobs.test/42"/><link rel="edit" href="https://x/edit"/>
  <summary type="html">&lt;i&gt;ด่วน&lt;/i&gt;</summary>
  <updated>2026-11-30T08:00:00Z</updated></entry>
<entry><title>Only a link</title><link href="https://jobs.test/43"/></entry>
</feed>"""

FASTWORK_SAMPLE = {  # hand-made in the shape of Fastwork's public job-board API (no capture)
    "data": [
        {
            "id": "6f1c2a8e-3b7d-4c1e-9a51-2d0c8e4b7f10",
            "title": "ทำบอทไลน์ตอบลูกค้า",
            "description": "ต้องการบอท LINE OA",
            "budget": 15000,
            "status": "open",
            "inserted_at": "2026-11-29T08:00:00Z",
            "expired_at": "2026-12-29T08:00:00Z",
            "tag": {"name": "Programming"},
        },
        {
            "id": "0b9d7e55-41aa-4f3c-8d2e-7c6b5a4f3e21",
            "title": "งานที่ปิดแล้ว",
            "description": "",
            "budget": 900,
            "status": "closed",
            "inserted_at": "2026-11-20T08:00:00Z",
            "expired_at": "2026-12-20T08:00:00Z",
            "tag": {"name": "Design"},
        },
        {
            "id": "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
            "title": "งานที่หมดเวลาแล้ว",
            "description": "",
            "budget": "3,000",
            "status": "open",
            "inserted_at": "2026-10-01T08:00:00Z",
            "expired_at": "2026-11-01T08:00:00Z",
            "tag": {"name": "Writing"},
        },
    ],
    "meta": {"total_pages": 1, "total_count": 3},
}

# source table, page text, expected (id, title, link) rows, skipped
CASES: list[tuple[str, dict[str, Any], str, list[tuple[str, str, str]], int]] = [
    (
        "rss",
        {"name": "wwr", "kind": "rss", "url": "https://jobs.test/remote-jobs.rss"},
        RSS,
        [
            (
                "wwr:wwr-123",
                "Acme: Senior Python Engineer",
                "https://jobs.test/remote-jobs/acme-senior-python-engineer",
            ),
            (
                "wwr:https://jobs.test/remote-jobs/relative",
                "No guid here",
                "https://jobs.test/remote-jobs/relative?utm_source=rss",
            ),
        ],
        1,
    ),
    (
        "atom",
        {"name": "atom", "kind": "rss", "url": "https://jobs.test/feed.atom"},
        ATOM,
        [
            ("atom:tag:jobs.test,2026:42", "งานเขียนบอท LINE", "https://jobs.test/42"),
            ("atom:https://jobs.test/43", "Only a link", "https://jobs.test/43"),
        ],
        0,
    ),
    (
        "fastwork-preset",
        {"preset": "fastwork"},
        json.dumps(FASTWORK_SAMPLE),
        [
            (
                "fastwork:6f1c2a8e-3b7d-4c1e-9a51-2d0c8e4b7f10",
                "ทำบอทไลน์ตอบลูกค้า",
                "https://jobboard.fastwork.co/jobs?job_id=6f1c2a8e-3b7d-4c1e-9a51-2d0c8e4b7f10",
            ),
        ],
        0,
    ),
    (
        "list-index",
        {
            "name": "j",
            "kind": "json",
            "url": "https://x.test",
            "items": "pages.1.jobs",
            "id": "ref",
            "title": "info.title",
            "link": "https://x.test/{ref}?tag={tags.0}",
        },
        json.dumps(
            {
                "pages": [
                    {"jobs": []},
                    {
                        "jobs": [
                            {"ref": 7, "info": {"title": "Second page job"}, "tags": ["py", "bot"]}
                        ]
                    },
                ]
            }
        ),
        [("j:7", "Second page job", "https://x.test/7?tag=py")],
        0,
    ),
]


@pytest.mark.parametrize(
    ("raw", "text", "rows", "skipped"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_feeds(
    raw: dict[str, Any], text: str, rows: list[tuple[str, str, str]], skipped: int
) -> None:
    source = parse_config({"sources": [raw]}).sources[0]
    result = parse(source, text, source.url, NOW)
    assert [(x.job_id, x.title, x.url) for x in result.listings] == rows
    assert result.skipped == skipped


def test_feed_summaries_are_text() -> None:
    source = parse_config({"sources": [CASES[0][1]]}).sources[0]
    assert parse(source, RSS, source.url, NOW).listings[0].summary == "Build APIs"


@pytest.mark.parametrize(
    ("conditions", "item", "holds"),
    [
        (['status == "open"'], {"status": "open"}, True),
        (['status == "open"'], {"status": "closed"}, False),
        (['status == "open"'], {}, False),
        (['status != "closed"'], {}, True),
        (["expired_at > now"], {"expired_at": "2026-12-01T00:00:00Z"}, True),
        (["expired_at > now"], {"expired_at": "2026-11-01T00:00:00+07:00"}, False),
        (["expired_at > now"], {"expired_at": "Tue, 01 Dec 2026 00:00:00 +0000"}, True),
        (["expired_at > now"], {"expired_at": "Sun, 01 Nov 2026 00:00:00 GMT"}, False),
        (["expired_at > now"], {"expired_at": 1796083200}, True),  # epoch s: 2026-12-01
        (["expired_at > now"], {"expired_at": 1796083200000}, True),  # epoch ms
        (["expired_at > now"], {"expired_at": "1793491200"}, False),  # digits: 2026-11-01
        (["budget >= 5000"], {"budget": 5000}, True),
        (["budget >= 5000"], {"budget": "4999"}, False),
        (["id exists"], {"id": 1}, True),
        (["id exists"], {"legal": "API terms"}, False),
        (['tag.name == "Programming"'], {"tag": {"name": "Programming"}}, True),
        (['status == "open"', "budget > 100"], {"status": "open", "budget": 50}, False),
        (["remote == true"], {"remote": True}, True),
    ],
)
def test_conditions(conditions: list[str], item: dict[str, Any], holds: bool) -> None:
    parsed = parse_conditions(conditions, "test")
    assert all_hold(parsed, item, NOW, lookup, _MISSING) is holds


@pytest.mark.parametrize("text", ["status = open", "budget >= lots", "exists id", ""])
def test_unreadable_conditions_are_config_errors(text: str) -> None:
    with pytest.raises(ConfigError, match=r"condition|JSON value"):
        parse_conditions([text], "hunter.toml")


def test_presets_need_one_line_and_can_be_overridden() -> None:
    config = parse_config(
        {
            "sources": [
                {"preset": "fastwork"},
                {"preset": "remoteok", "name": "remote-python", "include": ["python"]},
                {
                    "preset": "weworkremotely",
                    "url": "https://weworkremotely.com/categories/remote-programming-jobs.rss",
                },
            ]
        }
    )
    fastwork, remote, wwr = config.sources
    assert (fastwork.name, fastwork.kind, fastwork.items) == ("fastwork", "fastwork", "data")
    assert len(fastwork.where) == 2
    assert (remote.name, remote.filter.include) == ("remote-python", ("python",))
    assert wwr.kind == "rss" and wwr.url.endswith("remote-programming-jobs.rss")
    with pytest.raises(ConfigError, match="unknown preset 'upwork'; presets are"):
        parse_config({"sources": [{"preset": "upwork"}]})
    # A new user's typo: a preset's name gets its "did you mean", as a key's does
    with pytest.raises(ConfigError, match="unknown preset 'remotok' \\(did you mean 'remoteok'"):
        parse_config({"sources": [{"preset": "remotok"}]})


THAI = "งานเขียนโปรแกรม"


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        (THAI.encode("cp874"), "text/html; charset=TIS-620", "cp874"),
        (THAI.encode("cp874"), "text/html; charset=windows-874", "cp874"),
        (b'<meta charset="tis-620">' + THAI.encode("cp874"), "text/html", "cp874"),
        (
            b'<meta http-equiv="Content-Type" content="text/html; charset=windows-874">'
            + THAI.encode("cp874"),
            None,
            "cp874",
        ),
        (b'<?xml version="1.0" encoding="windows-874"?><rss/>', "application/xml", "cp874"),
        (THAI.encode("cp874") * 10, "text/html", "cp874"),  # undeclared, not UTF-8
        (THAI.encode("utf-8"), "text/html", "utf-8"),
        ("\ufeff".encode() + THAI.encode(), None, "utf-8-sig"),
        (THAI.encode(), "text/html; charset=nonsense", "utf-8"),
    ],
)
def test_encodings(body: bytes, content_type: str | None, expected: str) -> None:
    text, used = encoding.decode(body, content_type)
    assert used == expected
    if b"<rss" not in body:
        assert THAI in text


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        ("Mon, 30 Nov 2026 09:05:00 GMT", 300.0),
        ("999999", 86400.0),
        ("soon", None),
        (None, None),
        ("Mon, 30 Nov 2026 08:00:00 GMT", 0.0),
    ],
)
def test_retry_after(value: str | None, seconds: float | None) -> None:
    assert retry_after_seconds(value, NOW) == seconds


def test_a_time_that_cannot_be_read_is_skipped_and_said_never_silently_dropped() -> None:
    source = parse_config(
        {
            "sources": [
                {
                    "name": "api",
                    "kind": "json",
                    "url": "https://api.test/jobs",
                    "items": "jobs",
                    "id": "id",
                    "title": "t",
                    "where": ["expired_at > now"],
                }
            ]
        }
    ).sources[0]
    page = json.dumps(
        {
            "jobs": [
                {"id": 1, "t": "python one", "expired_at": "next tuesday"},
                {"id": 2, "t": "python two", "expired_at": "2027-01-01"},
            ]
        }
    )
    result = parse(source, page, source.url, NOW)
    assert [x.title for x in result.listings] == ["python two"]
    assert result.skipped == 1  # counts against the source's health (more skipped than read)
    assert result.warnings == [
        "items skipped: expired_at = 'next tuesday' is not a time hunter can read (the first "
        "of them)"
    ]


TIS_FEED = (
    '<?xml version="1.0" encoding="{declared}"?><rss version="2.0"><channel><title>งาน</title>'
    "<item><title>รับสมัครนักเขียนโปรแกรม ไพธอน</title><link>https://x.test/1</link>"
    "<guid>1</guid><description>งบ ๕,๐๐๐ บาท</description></item></channel></rss>"
)


@pytest.mark.parametrize(
    ("declared_in_xml", "content_type"),
    [
        ("TIS-620", "application/rss+xml"),  # declared in the XML only
        ("TIS-620", "application/rss+xml; charset=TIS-620"),  # in both
        (None, "application/rss+xml; charset=TIS-620"),  # in HTTP only
        ("windows-874", "text/xml"),
    ],
)
def test_a_thai_feed_in_tis_620_reads_right(
    board: Board, declared_in_xml: str | None, content_type: str
) -> None:
    """A real-world fault: the feed was decoded by its declaration, then again by feedparser
    (which re-read the declaration from the text), and its Thai came out as mojibake."""
    xml = TIS_FEED.format(declared=declared_in_xml or "")
    if declared_in_xml is None:
        xml = xml.replace(' encoding=""', "")
    url = board.serve("/feed", xml.encode("cp874"), kind=content_type)
    source = parse_config({"sources": [{"name": "f", "kind": "rss", "url": url}]}).sources[0]
    [read] = read_sources([source], {}, 10, datetime.now(UTC))
    assert read.error is None and read.encoding == "cp874"
    [listing] = read.listings
    assert (listing.title, listing.summary) == ("รับสมัครนักเขียนโปรแกรม ไพธอน", "งบ ๕,๐๐๐ บาท")
