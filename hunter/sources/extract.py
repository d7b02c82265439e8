"""Small pure helpers shared by the parsers: ids from links, clean text, a listing from its fields
(its pay read by hunter/rules/pay.py)."""

from __future__ import annotations

import contextlib
import hashlib
import html
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from hunter.rules.listing import Listing
from hunter.rules.pay import (
    PAY_TEXT_MAX,
    bound_in,
    currency_code,
    currency_in,
    parse_budget,
    parse_budget_range,
    period_in,
    period_of,
)
from hunter.rules.place import as_remote
from hunter.sources.conditions import read_time

# Query parameters known to say who sent the click, never which listing it is: analytics
# (utm_*, _ga, _gl), ad click ids (Google, Microsoft, Meta, TikTok, X, Yandex, LinkedIn),
# mail campaigns (Mailchimp, HubSpot, Marketo, Vero). Anything else may be the listing itself
# (`?source=42`, `?ref=7`, `?id=3`) and stays in the id.
TRACKING_PARAMETERS = frozenset(
    {
        "_ga", "_gl", "dclid", "fbclid", "gbraid", "gclid", "gclsrc", "igshid", "li_fat_id",
        "mc_cid", "mc_eid", "mkt_tok", "msclkid", "ttclid", "twclid", "vero_conv", "vero_id",
        "wbraid", "yclid", "_hsenc", "_hsmi", "oly_anon_id", "oly_enc_id", "rb_clickid",
        "s_cid", "ref_src",
    }
)  # fmt: skip


def is_tracking(name: str) -> bool:
    name = name.lower()
    return name.startswith("utm_") or name in TRACKING_PARAMETERS


_SPACES = re.compile(r"\s+")
# What no store keeps: NUL (PostgreSQL refuses it; SQLite cuts text at it), other control
# characters, and lone surrogates (not encodable as UTF-8). Tabs and newlines become spaces.
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# A native id longer than this (UTF-8 bytes) becomes a readable prefix and a digest of the
# whole: a primary key must stay far below PostgreSQL's btree row limit (~2.7 KB).
NATIVE_ID_MAX_BYTES = 200
_ID_PREFIX_CHARS = 60


# The items one page is read for, and one read (all its pages): a page of listings a person
# reads holds tens; a page of 200,000 tiny items under the 10 MB cap took 750 MB and wrote
# 200,000 rows. What is past them is left unread, and the read says so.
MAX_ITEMS_PER_PAGE = 1_000
MAX_ITEMS_PER_READ = 5_000


@dataclass
class ParseResult:
    """What a page yielded: listings, and how many items were skipped for lack of id or title."""

    listings: list[Listing] = field(default_factory=list)
    skipped: int = 0
    unwanted: int = 0  # items the source's own `where` left out (closed, expired, a notice)
    warnings: list[str] = field(default_factory=list)
    # What `hunter check` tells, no fault of the config's (links made absolute): not a warning
    notes: list[str] = field(default_factory=list)
    cursor: str = ""  # where the next page starts, when the answer says (json `cursor`)
    cut: str = ""  # what was left unread past MAX_ITEMS_PER_PAGE
    _ids: set[str] = field(default_factory=set, repr=False)

    def room(self, items: int, done: int) -> bool:
        """Whether item number `done` (0-based) of the page's `items` may still be read;
        False at MAX_ITEMS_PER_PAGE, with a warning naming what was left."""
        if done < MAX_ITEMS_PER_PAGE:
            return True
        self.cut = (
            f"the page holds {items:,} items: read the first {MAX_ITEMS_PER_PAGE:,}, the rest "
            "left unread (no page of listings is that long; check `items` or `item`)"
        )
        self.warnings.append(self.cut)
        return False

    def add(self, listing: Listing | None) -> None:
        """Keep `listing` unless it is None (skipped) or its id was already on this page."""
        if listing is None:
            self.skipped += 1
        elif listing.job_id in self._ids:
            self.warnings.append(f"duplicate id on one page: {listing.job_id}")
        else:
            self._ids.add(listing.job_id)
            self.listings.append(listing)


def storable(text: str | None) -> str:
    """`text` without the characters no store keeps (see _UNSTORABLE)."""
    return _UNSTORABLE.sub("", text or "")


def storable_json(value: Any) -> Any:
    """A JSON document (a webhook's event) with every string in it, keys too, `storable`.
    PostgreSQL refused a NUL ("unsupported Unicode escape sequence") and SQLite cannot encode a
    lone surrogate: either refused every event of its request, on every redelivery.
    Nobody types them on purpose."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list):
        return [storable_json(item) for item in value]
    if isinstance(value, dict):
        return {storable(key): storable_json(item) for key, item in value.items()}
    return value


def clean_text(text: str | None) -> str:
    """Storable text, whitespace folded to single spaces, ends stripped."""
    return _SPACES.sub(" ", storable(text)).strip()


def bounded_id(native: str) -> str:
    """A native id every store takes as a key: short ones as they are, a long one as its first
    characters and a digest of the whole (the same id gives the same result on every poll)."""
    if len(native.encode("utf-8")) <= NATIVE_ID_MAX_BYTES:
        return native
    digest = hashlib.sha256(native.encode("utf-8")).hexdigest()[:32]
    return f"{native[:_ID_PREFIX_CHARS]}~{digest}"


def absolute_url(href: str, base_url: str) -> str:
    """`href` made absolute against the page ("" for none, or one that cannot be read);
    make_listing keeps it only when it is http(s)."""
    href = storable(href).strip()
    if not href:
        return ""
    try:
        return urljoin(base_url, href)
    except ValueError:  # a malformed link, such as an unclosed IPv6 bracket
        return ""


def is_web_link(url: str) -> bool:
    return url[:8].lower().startswith(("http://", "https://"))


def plain_text(value: str) -> str:
    """Text as a person reads it from a value that may hold HTML: tags removed (scripts and
    styles with their content), entities unescaped, whitespace folded."""
    if "<" not in value and "&" not in value:
        return clean_text(value)
    if "<" not in value:
        return clean_text(html.unescape(value))
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(f"<body>{value}</body>")
    for node in tree.css("script, style, template"):
        node.decompose()
    body = tree.body
    return clean_text(body.text(separator=" ") if body is not None else "")


def site_says(data: object) -> str:
    """The error an API put in its answer, in one short line ("" when it names none):
    GraphQL's `errors[0].message` (JobThai's Apollo server), or `message` / `error` (with
    Freelancer's `"status": "error"`, or alone)."""
    if not isinstance(data, dict):
        return ""
    errors = data.get("errors")
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        said = errors[0].get("message")
    else:
        said = data.get("message") or data.get("error")
    return plain_text(said)[:200] if isinstance(said, str) else ""


def canonical_url(url: str) -> str:
    """The link without tracking parameters or fragment, its other parameters sorted: the same
    listing gives the same id whatever order a page writes them in."""
    parts = urlsplit(url.strip())
    query = sorted(
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not is_tracking(k)
    )
    return urlunsplit(
        (
            parts.scheme.lower(),
            parts.netloc.lower(),
            parts.path or "/",
            urlencode(query, doseq=True),
            "",
        )
    )


def _cp1252_specials() -> dict[str, int]:
    specials = {}
    for byte in range(0x80, 0xA0):
        with contextlib.suppress(UnicodeDecodeError):  # five bytes cp1252 leaves undefined
            specials[bytes([byte]).decode("cp1252")] = byte
    return specials


_CP1252 = _cp1252_specials()
# A UTF-8 lead byte read as Latin-1/cp1252, then its continuation bytes read the same way.
_MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf" + "".join(_CP1252) + "]+")


def fix_mojibake(text: str) -> str:
    """Undo UTF-8 that was decoded as Latin-1 or cp1252 upstream ("rÃ©sumÃ©" -> "résumé"),
    run by run, so that one damaged character never blocks the repair of the others."""

    def repair(match: re.Match[str]) -> str:
        run = match.group()
        try:
            raw = bytes(_CP1252.get(char, ord(char)) for char in run)
            return raw.decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return run

    return _MOJIBAKE.sub(repair, text)


@dataclass(frozen=True)
class Details:
    """What a freelancer decides by, where a source says it (all optional)."""

    budget_max: object = None
    currency: str = "THB"  # the source's; an item's own or its pay text's words win
    period: str = ""  # the source's; likewise
    item_currency: object = None  # the item's own currency field, where it has one
    item_period: object = None  # the item's own period field ("hourly", "fixed", "month")
    category: str = ""
    engagement: str = ""
    offers: object = None
    deadline: str = ""
    posted: object = None  # when the board says the listing was posted, as it writes it
    timezone: str = ""  # the zone of a posted time that names none (the source's); "": UTC
    company: str = ""  # who posts it, where the board says
    location: str = ""  # where the job is, or who may apply
    remote: bool = False  # the source's every job is remote: its location is whom it takes


MAX_COUNT = 1_000_000  # more offers than this on one post is no count anyone reports


def _count(value: object) -> int | None:
    """A count as an API writes it (3, "3"); None when it is none."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    return None


# A posted time further ahead than this, or older than POSTED_OLDEST, is no posting time
# (a board's clock, a placeholder, a misread field): "not stated", never an error.
POSTED_AHEAD = timedelta(hours=1)
POSTED_OLDEST = timedelta(days=731)


def posted_time(value: object, now: datetime | None, timezone: str = "") -> str:
    """A listing's posted time as ISO 8601 in UTC, or "" when the board's value is not a time
    hunter can read (ISO 8601, RFC 2822, epoch seconds or milliseconds), is in the future, or
    is years old. A time that names no zone is in `timezone` (the source's; "": UTC)."""
    if value is None or value == "":
        return ""
    when = read_time(value, ZoneInfo(timezone) if timezone else UTC)
    if when is None:
        return ""
    moment = now or datetime.now(UTC)
    if not moment - POSTED_OLDEST <= when <= moment + POSTED_AHEAD:
        return ""
    return when.astimezone(UTC).isoformat(timespec="seconds")


def make_listing(
    source: str,
    native_id: str,
    title: str,
    url: str,
    budget: object,
    summary: str,
    details: Details | None = None,
    now: datetime | None = None,
) -> Listing | None:
    """A Listing, or None when the item has no title or no way to identify it."""
    title = clean_text(fix_mojibake(title))
    url = clean_text(url)
    if url and not is_web_link(url):
        url = ""  # a javascript: or mailto: link is no page of a job: no button, no identity
    native = bounded_id(clean_text(native_id) or (canonical_url(url) if url else ""))
    if not title or not native:
        return None
    more = details or Details()
    low, high = parse_budget_range(budget)
    if more.budget_max is not None:
        high = parse_budget(more.budget_max)
    currency, period = _terms(budget, more)
    if low is None or high is None or high <= low:
        high = None
    written = budget[:PAY_TEXT_MAX] if isinstance(budget, str) else ""
    bound = bound_in(written) if low and high is None else ""
    return Listing(
        job_id=f"{source}:{native}",
        source=source,
        title=title,
        url=url,
        budget=low,
        summary=clean_text(fix_mojibake(summary)),
        budget_max=high,
        currency=currency,
        period=period,
        bound=bound,
        category=clean_text(more.category)[:80],
        company=clean_text(fix_mojibake(more.company))[:80],
        location=_location(more)[:80],
        engagement=clean_text(more.engagement)[:40],
        offers=_count(more.offers),
        deadline=clean_text(more.deadline)[:40],
        posted=posted_time(more.posted, now, more.timezone),
    )


def _location(more: Details) -> str:
    location = clean_text(fix_mojibake(more.location))
    return as_remote(location) if more.remote else location


def _terms(budget: object, more: Details) -> tuple[str, str]:
    """The currency and period of a pay: the item's own fields first, then the words of its
    text ("฿50,000 per month"), then the source's."""
    written = budget[:PAY_TEXT_MAX] if isinstance(budget, str) else ""  # a pay says it early
    currency = currency_code(more.item_currency) or currency_in(written) or more.currency
    period = period_of(more.item_period)
    if period is None:
        period = period_in(written)
    return currency, more.period if period is None else period
