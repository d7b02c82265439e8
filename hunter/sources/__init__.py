"""Where listings come from: fetch pages (fetch.py), turn them into Listings (html.py, json.py)."""

from __future__ import annotations

from hunter.config import SourceConfig
from hunter.sources.extract import ParseResult


def parse(source: SourceConfig, text: str, base_url: str) -> ParseResult:
    """Listings of one fetched page, by the source's kind."""
    if source.kind == "json":
        from hunter.sources.json import parse_json

        return parse_json(source, text)
    from hunter.sources.html import parse_html

    return parse_html(source, text, base_url)


__all__ = ["ParseResult", "parse"]
