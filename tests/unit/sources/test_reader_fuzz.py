"""Property-based fuzzing of the page readers and the config loader (hypothesis).

Random documents, and the real captured pages of ../shared/fixtures/real mutated byte by byte,
go through the html, json, rss and fastwork readers: nothing but hunter's own errors may
escape, and every listing that comes out is one a store keeps and LINE shows: a non-empty
plain title, and a link that is http(s) or none. Derandomized and bounded, so CI runs the
same examples every time, in seconds.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hunter.errors import HunterError
from hunter.rules.listing import Listing
from hunter.rules.pay import GUESSES, PERIODS
from hunter.settings.config import parse_config
from hunter.sources.reader import parse

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
REAL = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "real"
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The presets of the job boards: each read through its own paths, with its own fields fuzzed.
BOARDS = ("freelancer", "himalayas", "remotive", "jobicy", "jobthai", "jobsdb")
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

SOURCES = parse_config(
    {
        "sources": [
            {
                "name": "h",
                "kind": "html",
                "url": "https://board.test/jobs",
                "item": "li, article",
                "id": "@data-id",
                "title": "a, h1",
                "link": "a@href",
                "budget": ".price",
                "summary": "p",
            },
            {
                "name": "j",
                "kind": "json",
                "url": "https://api.test/jobs",
                "items": "jobs",
                "id": "id",
                "title": "title",
                "link": "url",
                "budget": "budget",
                "budget_max": "budget_2",
                "summary": "description",
                "offers": "offers",
                "where": ["expired_at > now"],
            },
            {"name": "f", "kind": "rss", "url": "https://feed.test/jobs.rss"},
            {"preset": "remoteok"},
            {"preset": "fastwork", "url": "https://api.test/api/jobs"},
            *({"preset": name} for name in BOARDS),
        ]
    }
).sources
BY_NAME = {s.name: s for s in SOURCES}


def read(name: str, text: str) -> list[Listing]:
    source = BY_NAME[name]
    try:
        return parse(source, text, source.url, NOW).listings
    except HunterError:
        return []  # a page hunter cannot read is that source's error: allowed


def assert_storable(listings: list[Listing]) -> None:
    for listing in listings:
        assert listing.title and listing.title == listing.title.strip(), listing
        assert not CONTROL.search(listing.title + listing.summary + listing.job_id), listing
        assert "  " not in listing.title, listing
        assert listing.url == "" or re.match(r"https?://", listing.url), listing
        assert listing.budget is None or 0 < listing.budget <= 10**11, listing
        json.dumps(listing.payload())  # what the store keeps


def mutate(data: bytes, edits: list[tuple[int, int]]) -> str:
    out = bytearray(data)
    for position, byte in edits:
        if out:
            out[position % len(out)] = byte
    return out.decode("utf-8", errors="replace")


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=40)
    | st.sampled_from(["0", "1e400", "9" * 400, "<b>R&amp;D</b>", "javascript:x", "/rel"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
job = st.fixed_dictionaries(
    {},
    optional={
        key: values for key in ("id", "title", "url", "budget", "budget_2", "description", "offers")
    }
    | {"expired_at": st.one_of(values, st.integers(), st.sampled_from(["2027-01-01"]))},
)


@FUZZ
@given(st.lists(job, max_size=6))
def test_json_pages_of_any_shape(jobs: list[dict[str, object]]) -> None:
    assert_storable(read("j", json.dumps({"jobs": jobs})))
    assert_storable(read("remoteok", json.dumps([{"legal": "x"}, *jobs])))
    assert_storable(read("fastwork", json.dumps({"data": jobs})))


def board_fields(name: str) -> list[str]:
    """The item fields a board's preset reads: its paths' first parts and template fields."""
    source = BY_NAME[name]
    specs = [
        source.id, source.title, source.link, source.budget, source.budget_max, source.summary,
        source.category, source.engagement, source.offers, source.item_currency,
        source.item_period,
    ]  # fmt: skip
    found = {part.split(".")[0] for spec in specs for part in re.findall(r"\{([^{}]+)\}", spec)}
    return sorted(found | {spec.split(".")[0] for spec in specs if spec and "{" not in spec})


pay_words = st.sampled_from(
    ["hourly", "fixed", "month", "year", "USD", "inr", "฿50,000 – ฿75,000 per month",
     "$40k - $60k", "ตามตกลง", "25,000 - 35,000", "S$5k monthly", "₹1,500/hr", "0"]
)  # fmt: skip


@FUZZ
@given(st.sampled_from(BOARDS), st.data())
def test_board_answers_of_any_shape(name: str, data: st.DataObject) -> None:
    """Each board's answer, its items with any value (or a pay word) in any of its fields."""
    source = BY_NAME[name]
    fields = board_fields(name)
    items = data.draw(
        st.lists(
            st.fixed_dictionaries({}, optional={f: values | pay_words for f in fields}),
            max_size=5,
        )
    )
    document: object = items
    for part in reversed(source.items.split(".")):
        document = {part: document}
    listings = read(name, json.dumps(document))
    assert_storable(listings)
    assert all(listing.period in ("", *PERIODS, *GUESSES) for listing in listings)
    assert all(re.fullmatch("[A-Z]{3}", listing.currency) for listing in listings)


@FUZZ
@given(st.text(max_size=300))
def test_any_text_as_any_kind(text: str) -> None:
    for name in ("h", "j", "f"):
        assert_storable(read(name, text))


html_items = st.lists(
    st.tuples(st.text(max_size=12), st.text(max_size=30), st.text(max_size=30)), max_size=5
)


@FUZZ
@given(html_items)
def test_html_pages_of_any_content(items: list[tuple[str, str, str]]) -> None:
    page = "".join(
        f'<li data-id="{i}"><a href="{link}">{title}</a><span class="price">{i}</span></li>'
        for i, title, link in items
    )
    assert_storable(read("h", f"<html><body><ul>{page}</ul></body></html>"))


@FUZZ
@given(st.lists(st.tuples(st.text(max_size=30), st.text(max_size=30)), max_size=5))
def test_feeds_of_any_content(items: list[tuple[str, str]]) -> None:
    body = "".join(f"<item><title>{t}</title><link>{link}</link></item>" for t, link in items)
    assert_storable(read("f", f'<rss version="2.0"><channel>{body}</channel></rss>'))


def real(name: str) -> bytes:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"../shared/fixtures/real/{name} is not here (a user's clone); CI has it")
    return path.read_bytes()


@FUZZ
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=30))
def test_real_pages_mutated(edits: list[tuple[int, int]]) -> None:
    assert_storable(read("h", mutate(real("odesk-search.html"), edits)))
    assert_storable(read("remoteok", mutate(real("remoteok-api.json"), edits)))
