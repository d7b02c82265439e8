"""The registry of source kinds: for each, the keys it accepts, how they are checked, and how
one of its pages becomes listings.

A kind lives in one module that defines `KIND = SourceKind(...)`; adding a kind is that module
and one line in `MODULES`. Kind modules are imported when a config names them, so a config of
JSON sources never loads the HTML parser.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import TYPE_CHECKING, Any

from hunter.errors import ConfigError
from hunter.sources.spec import SourceConfig

if TYPE_CHECKING:
    from hunter.sources.extract import ParseResult

MODULES = {
    "html": "hunter.sources.html",
    "json": "hunter.sources.json",
    "rss": "hunter.sources.rss",
    "fastwork": "hunter.sources.fastwork",
}

# Keys every kind accepts: where the source is and how hunter treats what it finds.
COMMON_KEYS = frozenset(
    {
        "preset",
        "name",
        "kind",
        "url",
        "pages",
        "every",
        "schedule",
        "fastest_minutes",
        "slowest_minutes",
        "headers",
        "flood_threshold",
        "include",
        "exclude",
        "min_budget",
        "ignore_within",
        "languages",
        "places",
        "currency",
        "period",
        "timezone",
        "reposts",
        "remote",
    }
)

# (the source's table, "where" for error messages) -> SourceConfig fields of this kind
Check = Callable[[Mapping[str, Any], str], dict[str, Any]]
# (source, page text, the page's URL, the moment of the poll) -> what the page yields
Parse = Callable[[SourceConfig, str, str, datetime], "ParseResult"]
# GET a URL for a source (politely, within its limits) -> (the page's final URL, its text);
# raises SourceError when the site does not answer 2xx.
Get = Callable[[str], tuple[str, str]]
# (source, get, when the source last read well, the moment of the poll) -> what it yields.
Read = Callable[[SourceConfig, Get, datetime | None, datetime], "ParseResult"]


@dataclass(frozen=True)
class SourceKind:
    """A kind of source. Most read the pages at their url (1..pages) and parse each one; a
    kind whose site needs more (look up ids first, several queries) brings its own `read`."""

    name: str
    keys: frozenset[str]  # accepted beyond COMMON_KEYS
    check: Check
    parse: Parse
    read: Read | None = None

    @property
    def accepted(self) -> list[str]:
        return sorted(COMMON_KEYS | self.keys)


def source_kind(name: str) -> SourceKind:
    """The kind called `name`; KeyError when there is none (config.py says which exist)."""
    kind = import_module(MODULES[name]).KIND
    if not isinstance(kind, SourceKind):
        raise TypeError(f"{MODULES[name]}.KIND is not a SourceKind")
    return kind


def strings(raw: Mapping[str, Any], keys: tuple[str, ...], where: str) -> dict[str, str]:
    """The text-valued keys of a source's table, stripped; "" where a key is absent."""
    out = {}
    for key in keys:
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise ConfigError(f"{where}: {key} must be a string, got {value!r}")
        out[key] = value.strip()
    return out


def require_title(fields: Mapping[str, str], where: str) -> None:
    if not fields["title"]:
        raise ConfigError(f"{where}: missing title; say where each listing's title is")


def require_identity(fields: Mapping[str, str], where: str) -> None:
    if not fields["link"] and not fields["id"]:
        raise ConfigError(
            f"{where}: set link (or id): hunter needs one of them to identify a listing"
        )
