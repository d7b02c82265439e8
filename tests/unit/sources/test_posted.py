"""When a board says a listing was posted (issue 34, first part): read by every kind (a json
source's `posted` path, a feed's own published or updated time, an html selector) and set by
every preset whose board states it, as the boards write it (shared/sources/README.md, and the
recorded answers in tests/support). A time in the future, years old or unreadable is "not
stated": never an error, and the field's presence is tracked like any other (rules/shape.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.errors import ConfigError
from hunter.rules.listing import Listing
from hunter.settings.config import parse_config
from hunter.sources.extract import posted_time
from hunter.sources.reader import parse

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "posted"),
    [
        ("2026-11-30T08:15:00Z", "2026-11-30T08:15:00+00:00"),
        ("2026-11-30T15:15:00+07:00", "2026-11-30T08:15:00+00:00"),  # Bangkok's
        ("2026-11-30 08:15:00", "2026-11-30T08:15:00+00:00"),  # no zone: UTC
        ("Mon, 30 Nov 2026 08:15:00 GMT", "2026-11-30T08:15:00+00:00"),  # RFC 2822
        (1_796_026_500, "2026-11-30T08:15:00+00:00"),  # epoch seconds
        (1_796_026_500_000, "2026-11-30T08:15:00+00:00"),  # and milliseconds
        ("1796026500", "2026-11-30T08:15:00+00:00"),
        ("2026-11-30T09:50:00Z", "2026-11-30T09:50:00+00:00"),  # a board's clock a bit ahead
        ("2026-11-30T11:00:00Z", ""),  # hours ahead: no posting time
        ("2019-01-01T00:00:00Z", ""),  # years old: a placeholder
        (0, ""),
        ("yesterday", ""),
        ("", ""),
        (None, ""),
        (True, ""),
    ],
)
def test_a_posted_time_as_boards_write_it(value: object, posted: str) -> None:
    assert posted_time(value, NOW) == posted


@pytest.mark.parametrize(
    ("timezone", "value", "posted"),
    [
        ("", "2026-11-30 08:15:00", "2026-11-30T08:15:00+00:00"),  # none given: UTC
        ("UTC", "2026-11-30 08:15:00", "2026-11-30T08:15:00+00:00"),
        ("Asia/Bangkok", "2026-11-30 15:15:00", "2026-11-30T08:15:00+00:00"),
        ("America/New_York", "2026-11-30 03:15:00", "2026-11-30T08:15:00+00:00"),
        ("America/New_York", "2026-11-30 08:15:00", ""),  # 13:15 UTC: hours ahead of now
        ("Asia/Bangkok", "2026-11-30T08:15:00Z", "2026-11-30T08:15:00+00:00"),  # a zone wins
    ],
)
def test_a_time_without_a_zone_is_read_in_the_sources_timezone(
    timezone: str, value: str, posted: str
) -> None:
    assert posted_time(value, NOW, timezone) == posted


def test_a_sources_timezone_is_its_own_else_the_configs_and_utc_boards_say_so() -> None:
    raw = {"timezone": "Asia/Bangkok", "sources": [
        {"name": "a", "kind": "rss", "url": "https://x.test/a"},
        {"name": "b", "kind": "rss", "url": "https://x.test/b", "timezone": "America/New_York"},
        {"preset": "remotive"}, {"preset": "jobicy"}, {"preset": "fastwork"},
    ]}  # fmt: skip
    zones = {s.name: s.timezone for s in parse_config(raw).sources}
    assert zones == {"a": "Asia/Bangkok", "b": "America/New_York", "remotive": "UTC",
                     "jobicy": "UTC", "fastwork": "UTC"}  # fmt: skip
    with pytest.raises(ConfigError, match="unknown timezone 'Mars/Olympus'"):
        parse_config({"sources": [{"name": "a", "kind": "rss", "url": "https://x.test/a",
                                   "timezone": "Mars/Olympus"}]})  # fmt: skip


def preset(name: str, **more: Any) -> Any:
    raw = {"sources": [{"preset": name, **more}]}
    return parse_config(raw).sources[0]


AT = "2026-11-30T08:15:00+00:00"
# (preset, its answer holding one listing posted at AT, as the board writes its time)
BOARDS = [
    ("fastwork", {"data": [{"id": "a1", "title": "Logo", "status": "open",
                            "expired_at": "2026-12-30T00:00:00Z",
                            "inserted_at": "2026-11-30T08:15:00.000000Z"}]}),
    ("remoteok", [{"legal": "notice"}, {"id": "1", "position": "Dev", "url": "https://x.test/1",
                                        "epoch": 1_796_026_500,
                                        "date": "2026-11-30T08:15:00+00:00"}]),
    ("jobthai", {"data": {"searchJobs": {"data": {"data": [
        {"id": 5, "jobTitle": "Dev", "updatedAt": "2026-11-30T15:15:00+07:00"}]}}}}),
    ("jobsdb", {"data": [{"id": "7", "title": "Dev", "listingDate": "2026-11-30T08:15:00Z"}]}),
    ("freelancer", {"result": {"projects": [{"id": 9, "title": "Bot", "seo_url": "python/bot",
                                             "time_submitted": 1_796_026_500}]}}),
    ("himalayas", {"jobs": [{"guid": "https://himalayas.app/j/1", "title": "Dev",
                             "pubDate": 1_796_026_500_000}]}),
    ("remotive", {"jobs": [{"id": 3, "url": "https://remotive.com/j/3", "title": "Dev",
                            "publication_date": "2026-11-30T08:15:00"}]}),
    ("jobicy", {"jobs": [{"id": 4, "url": "https://jobicy.com/j/4", "jobTitle": "Dev",
                          "pubDate": "2026-11-30 08:15:00"}]}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "answer"), BOARDS, ids=[b[0] for b in BOARDS])
def test_each_preset_reads_its_boards_posted_time(name: str, answer: Any) -> None:
    source = preset(name, categories=[]) if name == "fastwork" else preset(name)
    [listing] = parse(source, json.dumps(answer), source.url, NOW).listings
    assert listing.posted == AT


def test_a_feed_says_when_each_item_was_published_or_updated() -> None:
    source = parse_config({"sources": [{"preset": "weworkremotely"}]}).sources[0]
    feed = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>'
        "<item><title>Dev</title><link>https://x.test/1</link><guid>1</guid>"
        "<pubDate>Mon, 30 Nov 2026 08:15:00 +0000</pubDate></item>"
        "<item><title>Ops</title><link>https://x.test/2</link><guid>2</guid></item>"
        "</channel></rss>"
    )
    dev, ops = parse(source, feed, source.url, NOW).listings
    assert (dev.posted, ops.posted) == (AT, "")  # the second states none


def test_an_html_source_names_its_posted_time_by_selector() -> None:
    source = parse_config(
        {
            "sources": [
                {
                    "name": "page",
                    "kind": "html",
                    "url": "https://x.test/jobs",
                    "item": "li",
                    "title": "a",
                    "link": "a@href",
                    "posted": "time@datetime",
                }
            ]
        }
    ).sources[0]
    page = (
        '<ul><li><a href="/1">Dev</a><time datetime="2026-11-30T08:15:00Z">1 h</time></li>'
        '<li><a href="/2">Ops</a><time datetime="soon">?</time></li></ul>'
    )
    dev, ops = parse(source, page, source.url, NOW).listings
    assert (dev.posted, ops.posted) == (AT, "")  # an unreadable time is not stated


def test_a_posted_time_is_kept_with_the_listing() -> None:
    source = preset("jobsdb")
    answer = {"data": [{"id": "7", "title": "Dev", "listingDate": "2026-11-30T08:15:00Z"}]}
    [listing] = parse(source, json.dumps(answer), source.url, NOW).listings
    assert Listing.from_payload(listing.job_id, listing.payload()).posted == AT
