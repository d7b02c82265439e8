"""JSON APIs -> Listings, with dotted paths ("data.items", "jobs.0.title"), alternatives for a
field a board renamed ("salaryMin|annualSalaryMin": the first present wins) and link templates
("https://jobboard.fastwork.co/jobs/{id}")."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from hunter.errors import ConfigError, SourceError
from hunter.sources.conditions import UnreadableTime, all_hold, parse_conditions
from hunter.sources.extract import (
    Details,
    ParseResult,
    absolute_url,
    make_listing,
    plain_text,
    site_says,
)
from hunter.sources.kinds import SourceKind, require_identity, require_title, strings
from hunter.sources.spec import SourceConfig

_FIELDS = ("items", "id", "title", "link", "budget", "summary")
# Optional paths to what a freelancer decides by; the Fastwork preset sets most, Freelancer's
# its projects' own currency and period ("item_currency", "item_period").
_DETAILS = (
    "budget_max", "category", "engagement", "offers", "deadline", "item_currency", "item_period",
    "posted", "company", "location",
)  # fmt: skip
# Path to the answer's next-page cursor (Himalayas' `nextCursor`): pages after the first are
# asked for with cursor=<it>, and paging stops where an answer names none.
_PAGING = ("cursor",)

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_MISSING = object()


def lookup(data: Any, path: str) -> Any:
    """The value at a dotted path, list indexes allowed; `_MISSING` when there is none."""
    if not path:
        return data
    for part in path.split("."):
        if isinstance(data, dict):
            data = data.get(part, _MISSING)
        elif isinstance(data, list) and part.lstrip("-").isdigit():
            index = int(part)
            data = data[index] if -len(data) <= index < len(data) else _MISSING
        else:
            return _MISSING
        if data is _MISSING:
            return _MISSING
    return data


def find(data: Any, path: str) -> Any:
    """The value at the first of `path`'s alternatives ("a|b") that has one (null counts as
    none: a board that renamed a field may keep the old name, empty); `_MISSING` otherwise."""
    if "|" not in path:
        return lookup(data, path)
    for alternative in path.split("|"):
        found = lookup(data, alternative.strip())
        if found is not _MISSING and found is not None:
            return found
    return _MISSING


def _text(value: Any) -> str:
    if value is _MISSING or value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _field(item: Any, spec: str) -> str:
    """A field path, or a template over fields when the spec holds {placeholders}."""
    if not spec:
        return ""
    if "{" in spec:
        return _PLACEHOLDER.sub(lambda m: _text(find(item, m.group(1).strip())), spec)
    return _text(find(item, spec))


def _value(item: Any, path: str) -> object:
    """The raw value at `path` (a number stays a number); None when absent."""
    if not path:
        return None
    found = find(item, path)
    return None if found is _MISSING else found


def _cursor(value: Any) -> str:
    """A next-page cursor as the answer gives it (a text or a number); "" for none."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ""
    return str(value).strip()[:1000]


def check(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The json keys of a source's table: paths, templates and `where` conditions."""
    fields: dict[str, Any] = strings(raw, _FIELDS + _DETAILS + _PAGING, where)
    require_title(fields, where)
    require_identity(fields, where)
    fields["where"] = parse_conditions(raw.get("where"), where)
    if "body" in raw:
        fields["body"] = _body(raw["body"], where)
    return fields


def _body(value: Any, where: str) -> Any:
    """A request body: a table, sent as JSON in a POST (a GraphQL query and its variables)."""
    if not isinstance(value, Mapping):
        raise ConfigError(
            f'{where}: body must be a table, sent as JSON, e.g. body = {{ query = "..." }}'
        )
    try:
        json.dumps(value)
    except (TypeError, ValueError):  # a TOML date or time has no JSON form
        raise ConfigError(f"{where}: body holds a value JSON cannot carry (a date?)") from None
    return dict(value)


def parse_json(
    source: SourceConfig, text: str, base_url: str = "", now: datetime | None = None
) -> ParseResult:
    return parse_document(source, load(source, text), base_url, now)


def load(source: SourceConfig, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise SourceError(f"{source.name}: the response is not JSON ({exc})") from exc


def parse_document(
    source: SourceConfig, data: Any, base_url: str = "", now: datetime | None = None
) -> ParseResult:
    """The listings of an already loaded JSON document."""
    items = find(data, source.items)
    if not isinstance(items, list):
        said = site_says(data)
        if said:
            raise SourceError(f"{source.name}: the site answered with an error: {said}")
        raise SourceError(
            f"{source.name}: items = {source.items!r} does not lead to a list in the response; "
            "check the path with `hunter check`"
        )
    result = ParseResult()
    if source.cursor:
        result.cursor = _cursor(find(data, source.cursor))
    unreadable = ""
    for done, item in enumerate(items):
        if not result.room(len(items), done):
            break
        if not isinstance(item, dict):
            result.skipped += 1
            continue
        try:
            if source.where and not all_hold(
                source.where, item, now or datetime.now(UTC), lookup, _MISSING
            ):
                result.unwanted += 1  # not a listing by the source's own rules (closed, expired)
                continue
        except UnreadableTime as exc:  # skipped, so it counts against the source's health
            result.skipped += 1
            unreadable = unreadable or str(exc)
            continue
        details = Details(
            budget_max=_value(item, source.budget_max),
            currency=source.currency,
            period=source.period,
            item_currency=_value(item, source.item_currency),
            item_period=_value(item, source.item_period),
            category=plain_text(_field(item, source.category)),
            engagement=_field(item, source.engagement),
            offers=_value(item, source.offers),
            deadline=_field(item, source.deadline),
            posted=_value(item, source.posted),
            timezone=source.timezone,
            company=plain_text(_field(item, source.company)),
            location=plain_text(_field(item, source.location)),
            remote=source.remote,
        )
        result.add(
            make_listing(
                source.name,
                _field(item, source.id),
                plain_text(_field(item, source.title)),
                absolute_url(_field(item, source.link), base_url),
                _value(item, source.budget),
                plain_text(_field(item, source.summary)),
                details,
                now,
            )
        )
    if unreadable:
        result.warnings.append(f"items skipped: {unreadable} (the first of them)")
    return result


KIND = SourceKind(
    "json", frozenset({*_FIELDS, *_DETAILS, *_PAGING, "where", "body"}), check, parse_json
)
