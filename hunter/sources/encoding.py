"""Bytes -> text, the way a browser would: the HTTP charset, else a BOM, else the page's own
<meta charset> or XML declaration, else UTF-8 (with a Thai fallback for old sites)."""

from __future__ import annotations

import codecs
import re

_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_XML = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""", re.IGNORECASE)
_HEADER = re.compile(r"charset\s*=\s*\"?([A-Za-z0-9._:-]+)", re.IGNORECASE)
# Labels that name a subset of what Python should decode with (the WHATWG rule for windows-874).
_WIDER = {
    "tis-620": "cp874",
    "tis620": "cp874",
    "iso-8859-11": "cp874",
    "windows-874": "cp874",
    "x-windows-874": "cp874",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
}


def _known(label: str | bytes | None) -> str | None:
    if not label:
        return None
    name = (label.decode("ascii", "ignore") if isinstance(label, bytes) else label).lower()
    name = _WIDER.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def detect(body: bytes, content_type: str | None) -> str:
    """The encoding to decode `body` with."""
    match = _HEADER.search(content_type or "")
    if (header := _known(match.group(1) if match else None)) is not None:
        return header
    for bom, name in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if body.startswith(bom):
            return name
    head = body[:4096]
    for pattern in (_META, _XML):
        found = pattern.search(head)
        if found and (declared := _known(found.group(1))) is not None:
            return declared
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        # Undeclared and not UTF-8: old Thai sites are windows-874 more often than not.
        if sum(0xA1 <= b <= 0xFB for b in head) > len(head) // 10:
            return "cp874"
    return "utf-8"


def decode(body: bytes, content_type: str | None) -> tuple[str, str]:
    """(text, encoding used); undecodable bytes become U+FFFD rather than an error."""
    encoding = detect(body, content_type)
    return body.decode(encoding, errors="replace"), encoding
