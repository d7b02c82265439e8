"""RSS 2.0 and Atom feeds -> Listings: id from guid/id, else the link; title, link, summary."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from hunter.errors import SourceError
from hunter.sources.extract import ParseResult, absolute_url, make_listing
from hunter.sources.kinds import SourceKind
from hunter.sources.spec import SourceConfig


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child_text(node: ET.Element, *names: str) -> str:
    for child in node:
        if _local(child.tag) in names and (child.text or "").strip():
            return (child.text or "").strip()
    return ""


def _atom_link(entry: ET.Element) -> str:
    links = [c for c in entry if _local(c.tag) == "link"]
    for link in links:
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return link.get("href", "")
    return links[0].get("href", "") if links else ""


def _text_of_html(value: str) -> str:
    if "<" in value and ">" in value:
        from selectolax.lexbor import LexborHTMLParser

        return LexborHTMLParser(value).text(separator=" ", strip=True)
    return value


def check(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A feed says where its items, titles and links are: no keys of its own."""
    return {}


def parse_rss(
    source: SourceConfig, text: str, base_url: str, now: datetime | None = None
) -> ParseResult:
    try:
        # expat (Python >= 3.11) limits entity expansion, so a "billion laughs" feed fails here.
        # Text, not bytes: it is decoded already, whatever its <?xml encoding=...?> says.
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as exc:
        raise SourceError(f"{source.name}: not a valid RSS or Atom feed ({exc})") from exc
    result = ParseResult()
    if _local(root.tag) == "feed":  # Atom
        for entry in (c for c in root if _local(c.tag) == "entry"):
            link = absolute_url(_atom_link(entry), base_url)
            result.add(
                make_listing(
                    source.name,
                    _child_text(entry, "id"),
                    _child_text(entry, "title"),
                    link,
                    None,
                    _text_of_html(_child_text(entry, "summary", "content")),
                )
            )
        return result
    channel = next((c for c in root if _local(c.tag) == "channel"), root)
    items = [c for c in channel if _local(c.tag) == "item"]
    if _local(root.tag) not in ("rss", "RDF") and not items:
        raise SourceError(f"{source.name}: neither RSS nor Atom (root element <{root.tag}>)")
    for item in items:
        link = absolute_url(_child_text(item, "link"), base_url)
        result.add(
            make_listing(
                source.name,
                _child_text(item, "guid"),
                _child_text(item, "title"),
                link,
                None,
                _text_of_html(_child_text(item, "description", "encoded")),
            )
        )
    return result


KIND = SourceKind("rss", frozenset(), check, parse_rss)
