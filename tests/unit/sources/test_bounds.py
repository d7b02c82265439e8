"""What one page and one read may hold (issue 45, finding 4): a page is read for its first
1,000 items, whatever its kind, and says what it left unread."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from hunter.settings.config import parse_config
from hunter.sources.extract import MAX_ITEMS_PER_PAGE
from hunter.sources.reader import parse

NOW = datetime(2026, 12, 3, 9, tzinfo=UTC)
MANY = 1_500


def page_of(kind: str) -> tuple[dict[str, object], str]:
    if kind == "json":
        source = {"kind": "json", "items": "jobs", "id": "id", "title": "t"}
        return source, json.dumps({"jobs": [{"id": n, "t": f"job {n}"} for n in range(MANY)]})
    if kind == "html":
        source = {"kind": "html", "item": "li", "id": "@data-id", "title": "a"}
        items = "".join(f'<li data-id="{n}"><a href="/{n}">job {n}</a></li>' for n in range(MANY))
        return source, f"<html><body><ul>{items}</ul></body></html>"
    items = "".join(
        f"<item><guid>{n}</guid><title>job {n}</title><link>https://x.test/{n}</link></item>"
        for n in range(MANY)
    )
    return {
        "kind": "rss"
    }, f'<?xml version="1.0"?><rss version="2.0"><channel>{items}</channel></rss>'


@pytest.mark.parametrize("kind", ["json", "html", "rss"])
def test_a_page_is_read_for_its_first_1000_items_and_says_so(kind: str) -> None:
    table, text = page_of(kind)
    source = parse_config({"sources": [{"name": "big", "url": "https://x.test/", **table}]})
    parsed = parse(source.sources[0], text, "https://x.test/", NOW)
    assert len(parsed.listings) == MAX_ITEMS_PER_PAGE == 1_000
    assert parsed.listings[0].title == "job 0" and parsed.listings[-1].title == "job 999"
    assert (
        parsed.cut == "the page holds 1,500 items: read the first 1,000, the rest left "
        "unread (no page of listings is that long; check `items` or `item`)"
    )
