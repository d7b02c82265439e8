"""RSS and Atom feeds -> Listings, through feedparser.

Real feeds are often not well-formed XML (an undefined `&nbsp;`, a bare `&`, control
characters, whitespace before `<?xml`), RSS 1.0 puts its items beside the channel, Atom titles
may be HTML or XHTML and links relative to `xml:base`. feedparser reads all of these and has a
corpus of such feeds in its own test suite; hunter's part is only the mapping below: the id
from the guid or Atom id (else the link), the title and summary as plain text, the link of
rel="alternate" (never an enclosure or a licence), made absolute.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from hunter.errors import ConfigError, SourceError
from hunter.sources.extract import Details, ParseResult, absolute_url, make_listing, plain_text
from hunter.sources.kinds import SourceKind
from hunter.sources.spec import SourceConfig


def check(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A feed says where its items, titles and links are; one key of its own: whether its
    titles read "Company: Role" (We Work Remotely's)."""
    said = raw.get("company_in_title", False)
    if not isinstance(said, bool):
        raise ConfigError(f"{where}: company_in_title must be true or false, got {said!r}")
    return {"company_in_title": said}


def _split_company(title: str) -> tuple[str, str]:
    """ "Acme: Senior Python Developer" -> ("Senior Python Developer", "Acme"); a title with
    no such prefix stays whole."""
    company, colon, role = title.partition(": ")
    if colon and company.strip() and role.strip() and len(company) <= 80:
        return role.strip(), company.strip()
    return title, ""


def _link(entry: Any, base_url: str) -> str:
    """The entry's own page: the first rel="alternate" link (feedparser gives a link without
    rel that name), resolved against xml:base and the feed's URL."""
    for link in entry.get("links") or []:
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return absolute_url(str(link["href"]), base_url)
    guid = entry.get("id") or ""
    if entry.get("guidislink") and guid:  # an RSS permalink guid stands in for <link>
        return absolute_url(str(guid), base_url)
    return ""


# The XML declaration's encoding, in text already decoded by it (encoding.py): feedparser
# would turn the text back into UTF-8 bytes and decode those by the declaration again, so a
# feed declaring TIS-620 came out as mojibake. Decoded once is enough.
_HTML = re.compile(r"(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html[\s>])", re.IGNORECASE | re.DOTALL)
_DECLARED = re.compile(r"""^(\s*<\?xml[^>]*?)\s+encoding\s*=\s*["'][^"']*["']""")


def parse_rss(
    source: SourceConfig, text: str, base_url: str, now: datetime | None = None
) -> ParseResult:
    text = _DECLARED.sub(r"\1", text.lstrip(), count=1)
    import feedparser  # 40 ms to import: only when a feed is read

    feed = feedparser.parse(text, response_headers={"content-location": base_url or source.url})
    if not feed.entries and not feed.get("version"):
        problem = feed.get("bozo_exception")
        reason = f" ({type(problem).__name__}: {problem})" if problem else ""
        if _HTML.match(text[:2000]):  # feedparser's "no Content-type specified" said nothing
            reason = ': it is an HTML page (kind = "html" reads one, with item and title)'
        raise SourceError(f"{source.name}: not an RSS or Atom feed{reason}")
    result = ParseResult()
    for done, entry in enumerate(feed.entries):
        if not result.room(len(feed.entries), done):
            break
        link = _link(entry, base_url or source.url)
        title, company = plain_text(str(entry.get("title") or "")), ""
        if source.company_in_title:
            title, company = _split_company(title)
        result.add(
            make_listing(
                source.name,
                str(entry.get("id") or ""),
                title,
                link,
                None,
                plain_text(str(entry.get("summary") or "")),
                Details(
                    currency=source.currency,
                    period=source.period,
                    category=_category(entry),
                    posted=entry.get("published") or entry.get("updated"),
                    timezone=source.timezone,
                    company=company,
                    location=_region(entry),
                    remote=source.remote,
                ),
                now,
            )
        )
    return result


def _region(entry: Any) -> str:
    """Where an item's job is, or whom it takes: We Work Remotely's items say it in a
    <region> element ("Anywhere in the World", "USA Only"; ../shared/sources/README.md)."""
    said = entry.get("region") or entry.get("location")
    return plain_text(said) if isinstance(said, str) else ""


def _category(entry: Any) -> str:
    tags = entry.get("tags") or []
    return plain_text(str(tags[0].get("term") or "")) if tags else ""


KIND = SourceKind("rss", frozenset({"company_in_title"}), check, parse_rss)
