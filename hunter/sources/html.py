"""HTML pages -> Listings, with CSS selectors (selectolax's lexbor engine).

A field spec is one of:
    "h3 a"        the text of the first match inside the item
    "h3 a@href"   an attribute of the first match inside the item
    "@data-jid"   an attribute of the item itself
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from hunter.errors import ConfigError
from hunter.sources.extract import Details, ParseResult, absolute_url, make_listing
from hunter.sources.kinds import SourceKind, require_identity, require_title, strings
from hunter.sources.spec import SourceConfig

_FIELDS = ("item", "id", "title", "link", "budget", "summary", "posted", "company", "location")


def _split(spec: str) -> tuple[str, str | None]:
    """ "h3 a@href" -> ("h3 a", "href"); "h3 a" -> ("h3 a", None); "@id" -> ("", "id")."""
    if "@" in spec:
        selector, attr = spec.rsplit("@", 1)
        # An @ inside brackets belongs to the selector (a[href*="@"]), not to us.
        if "]" not in attr and attr and "[" not in attr:
            return selector.strip(), attr.strip()
    return spec.strip(), None


def check(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The html keys of a source's table, every selector parsed once."""
    fields = strings(raw, _FIELDS, where)
    require_title(fields, where)
    if not fields["item"]:
        raise ConfigError(f'{where}: missing item; add item = "CSS selector of one listing"')
    check_selectors(fields, where)
    require_identity(fields, where)
    return fields


def check_selectors(specs: Mapping[str, str], where: str) -> None:
    """Raise ConfigError for a selector lexbor cannot parse, naming the field."""
    for name in _FIELDS:
        spec = specs.get(name, "")
        if not spec:
            continue
        selector, _ = _split(spec) if name != "item" else (spec, None)
        if selector and not _parses(selector):
            raise ConfigError(
                f"{where}: {name} = {spec!r} is not a valid CSS selector; fix its syntax "
                "(try it in your browser's console with document.querySelector)"
            )


@cache
def _parses(selector: str) -> bool:
    """Whether lexbor parses `selector`; once per selector (sources of one preset, or of one
    site, share theirs: 50 sources made 50 probe documents per cron run)."""
    try:
        LexborHTMLParser("<html><body><div></div></body></html>").css(selector)
    except SelectolaxError:
        return False
    return True


def _value(item: LexborNode, spec: str) -> str:
    if not spec:
        return ""
    selector, attr = _split(spec)
    node = item.css_first(selector) if selector else item
    if node is None:
        return ""
    if attr:
        return node.attributes.get(attr) or ""
    return node.text(separator=" ", strip=True)


def parse_html(
    source: SourceConfig, text: str, base_url: str, now: datetime | None = None
) -> ParseResult:
    """Every listing on the page, links made absolute against the page (or its <base href>)."""
    tree = LexborHTMLParser(text)
    base = tree.css_first("base[href]")
    if base is not None:
        base_url = absolute_url(base.attributes.get("href") or "", base_url)
    result = ParseResult()
    relative = 0
    items = tree.css(source.item)
    for done, item in enumerate(items):
        if not result.room(len(items), done):
            break
        href = _value(item, source.link)
        relative += bool(href) and "://" not in href
        link = absolute_url(href, base_url)
        native_id = _value(item, source.id) if source.id else ""
        result.add(
            make_listing(
                source.name,
                native_id,
                _value(item, source.title),
                link,
                _value(item, source.budget) or None,
                _value(item, source.summary),
                Details(
                    currency=source.currency,
                    period=source.period,
                    posted=_value(item, source.posted) if source.posted else None,
                    timezone=source.timezone,
                    company=_value(item, source.company) if source.company else "",
                    location=_value(item, source.location) if source.location else "",
                    remote=source.remote,
                ),
                now,
            )
        )
    if relative:
        result.notes.append(f"{relative} relative links made absolute against {base_url}")
    return result


KIND = SourceKind("html", frozenset(_FIELDS), check, parse_html)
