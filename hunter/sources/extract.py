"""Small pure helpers shared by the parsers: ids from links, budgets from text, clean text."""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from hunter.listing import Listing

# Query parameters that say who sent the click, not which listing it is.
_TRACKING = re.compile(
    r"^(utm_.*|ref|ref_src|referrer|source|fbclid|gclid|dclid|msclkid|yclid|igshid|mc_cid|mc_eid|"
    r"_hsenc|_hsmi|si|spm|trk|trackingid)$",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")
# What no store keeps: NUL (PostgreSQL refuses it; SQLite cuts text at it), other control
# characters, and lone surrogates (not encodable as UTF-8). Tabs and newlines become spaces.
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# A native id longer than this (UTF-8 bytes) becomes a readable prefix and a digest of the
# whole: a primary key must stay far below PostgreSQL's btree row limit (~2.7 KB).
NATIVE_ID_MAX_BYTES = 200
_ID_PREFIX_CHARS = 60
_NUMBER = re.compile(r"(\d[\d,\s]*(?:\.\d+)?)\s*([kKmM]|พัน|หมื่น|แสน|ล้าน)?")
_MULTIPLIERS = {
    "k": 1_000,
    "m": 1_000_000,
    "พัน": 1_000,
    "หมื่น": 10_000,
    "แสน": 100_000,
    "ล้าน": 1_000_000,
}


@dataclass
class ParseResult:
    """What a page yielded: listings, and how many items were skipped for lack of id or title."""

    listings: list[Listing] = field(default_factory=list)
    skipped: int = 0
    warnings: list[str] = field(default_factory=list)
    _ids: set[str] = field(default_factory=set, repr=False)

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
    return urljoin(base_url, href.strip()) if href else ""


def canonical_url(url: str) -> str:
    """The link without tracking parameters or fragment: a stable id when the page has none."""
    parts = urlsplit(url.strip())
    query = [
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)
    ]
    return urlunsplit(
        (
            parts.scheme.lower(),
            parts.netloc.lower(),
            parts.path or "/",
            urlencode(query, doseq=True),
            "",
        )
    )


def parse_budget(value: object) -> int | None:
    """ "฿12,000" -> 12000, "5,000 - 10,000 บาท" -> 5000 (a range counts as its lower bound),
    "1.5k" -> 1500, 800 -> 800; None when there is no amount."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if value >= 0 else None
    match = _NUMBER.search(str(value))
    if not match:
        return None
    digits = re.sub(r"[,\s]", "", match.group(1))
    try:
        amount = float(digits)
    except ValueError:
        return None
    unit = (match.group(2) or "").lower()
    return int(amount * _MULTIPLIERS.get(unit, 1))


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


def make_listing(
    source: str,
    native_id: str,
    title: str,
    url: str,
    budget: object,
    summary: str,
) -> Listing | None:
    """A Listing, or None when the item has no title or no way to identify it."""
    title = clean_text(fix_mojibake(title))
    url = clean_text(url)
    native = bounded_id(clean_text(native_id) or (canonical_url(url) if url else ""))
    if not title or not native:
        return None
    return Listing(
        job_id=f"{source}:{native}",
        source=source,
        title=title,
        url=url,
        budget=parse_budget(budget),
        summary=clean_text(fix_mojibake(summary)),
    )
