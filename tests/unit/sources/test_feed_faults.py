"""Feeds as they really are, one fault per row: every one is read, titles as plain text,
links to the entry's own page, absolute."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hunter.settings.config import parse_config
from hunter.sources.reader import parse

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
URL = "https://jobs.test/feed.xml"
SOURCE = parse_config({"sources": [{"name": "f", "kind": "rss", "url": URL}]}).sources[0]


def rss(items: str, head: str = '<?xml version="1.0" encoding="utf-8"?>') -> str:
    return f'{head}<rss version="2.0"><channel><title>Jobs</title>{items}</channel></rss>'


def atom(entries: str, base: str = "") -> str:
    return (
        f'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" {base}>'
        f"<title>Jobs</title>{entries}</feed>"
    )


FEEDS = [
    (
        "undefined-entity",
        rss("<item><title>Python&nbsp;dev</title><link>https://jobs.test/1</link></item>"),
        [("Python dev", "https://jobs.test/1")],
    ),
    (
        "bare-ampersand",
        rss("<item><title>R & D</title><link>https://jobs.test/j?a=1&b=2</link></item>"),
        [("R & D", "https://jobs.test/j?a=1&b=2")],
    ),
    (
        "control-character",
        rss("<item><title>Go\x0b dev\x01</title><link>https://jobs.test/2</link></item>"),
        [("Go dev", "https://jobs.test/2")],
    ),
    (
        "space-before-xml-declaration",
        "\n  \n" + rss("<item><title>Rust</title><link>https://jobs.test/3</link></item>"),
        [("Rust", "https://jobs.test/3")],
    ),
    (
        "rss-1.0-rdf",
        '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
        ' xmlns="http://purl.org/rss/1.0/"><channel rdf:about="https://jobs.test/">'
        "<title>Jobs</title></channel>"
        '<item rdf:about="https://jobs.test/4"><title>Data engineer</title>'
        "<link>https://jobs.test/4</link></item></rdf:RDF>",
        [("Data engineer", "https://jobs.test/4")],
    ),
    (
        "html-in-title",
        rss(
            "<item><title>&lt;b&gt;R&amp;amp;D&lt;/b&gt; lead</title>"
            "<link>https://jobs.test/5</link></item>"
        ),
        [("R&D lead", "https://jobs.test/5")],
    ),
    (
        "atom-xhtml-title",
        atom(
            '<entry><id>urn:6</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
            "<b>Senior</b> Python</div></title>"
            '<link rel="alternate" href="https://jobs.test/6"/></entry>'
        ),
        [("Senior Python", "https://jobs.test/6")],
    ),
    (
        "atom-enclosure-and-licence-are-not-the-page",
        atom(
            "<entry><id>urn:7</id><title>Designer</title>"
            '<link rel="enclosure" href="https://cdn.test/logo.png"/>'
            '<link rel="license" href="https://creativecommons.org/"/>'
            '<link href="https://jobs.test/7"/></entry>'
        ),
        [("Designer", "https://jobs.test/7")],
    ),
    (
        "atom-xml-base",
        atom(
            '<entry><id>urn:8</id><title>Writer</title><link href="jobs/8"/></entry>',
            base='xml:base="https://jobs.test/en/"',
        ),
        [("Writer", "https://jobs.test/en/jobs/8")],
    ),
    (
        "relative-link-against-the-feed",
        rss("<item><title>Tester</title><link>/jobs/9</link></item>"),
        [("Tester", "https://jobs.test/jobs/9")],
    ),
    (
        "permalink-guid-without-link",
        rss("<item><title>DevOps</title><guid>https://jobs.test/10</guid></item>"),
        [("DevOps", "https://jobs.test/10")],
    ),
    (
        "javascript-link-dropped-guid-kept",
        rss(
            '<item><title>Odd</title><guid isPermaLink="false">odd-11</guid>'
            "<link>javascript:alert(1)</link></item>"
        ),
        [("Odd", "")],
    ),
]


@pytest.mark.parametrize(
    ("feed", "rows"), [(f, r) for _n, f, r in FEEDS], ids=[n for n, *_ in FEEDS]
)
def test_real_world_feeds(feed: str, rows: list[tuple[str, str]]) -> None:
    result = parse(SOURCE, feed, URL, NOW)
    assert [(x.title, x.url) for x in result.listings] == rows


@pytest.mark.parametrize(
    "page", ["<!DOCTYPE html><html><body><ul><li>job</li></ul></body></html>", "\n<html lang='th'>"]
)
def test_an_html_page_read_as_a_feed_says_it_is_html(page: str) -> None:
    """A new user's find: kind = "rss" at an HTML page said "NonXMLContentType: no
    Content-type specified", though the site had sent text/html."""
    from hunter.errors import SourceError

    with pytest.raises(SourceError) as said:
        parse(SOURCE, page, URL, NOW)
    assert str(said.value) == (
        'f: not an RSS or Atom feed: it is an HTML page (kind = "html" reads one, with item and '
        "title)"
    )
