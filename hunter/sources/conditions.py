"""`where` conditions on JSON items: "path OP value", all of which must hold.

    status == "open"        equal (a JSON literal: "text", 12, true, null)
    budget >= 5000          numbers compare as numbers
    expired_at > now        times compare with the moment of the poll (ISO 8601, RFC 2822,
                            epoch seconds or milliseconds); an item whose time cannot be
                            read raises UnreadableTime: the reader skips it and says so
    id exists               the field is there and not null

An item without the field fails every condition but `!=`.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo
from email.utils import parsedate_to_datetime
from typing import Any

from hunter.errors import ConfigError
from hunter.sources.spec import NOW, Condition

_FORM = re.compile(r"^\s*([\w.\-]+)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$")
_EXISTS = re.compile(r"^\s*([\w.\-]+)\s+exists\s*$")
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
    ">=": operator.ge,
    "<=": operator.le,
}


def holds(
    condition: Condition,
    item: Any,
    now: datetime,
    lookup: Callable[[Any, str], Any],
    missing: object,
) -> bool:
    """Whether `item` meets `condition`; an item without the field fails all but `!=`."""
    found = lookup(item, condition.path)
    if condition.op == "exists":
        return found is not missing and found is not None
    if found is missing or found is None:
        return condition.op == "!="
    left, right = _comparable(
        found, now if condition.value is NOW else condition.value, condition.path
    )
    try:
        return _OPS[condition.op](left, right)
    except TypeError:
        return False


class UnreadableTime(ValueError):
    """An item's field should be a time and is none hunter can read."""

    def __init__(self, path: str, value: object) -> None:
        super().__init__(f"{path} = {str(value)[:40]!r} is not a time hunter can read")


# Epoch numbers above this are milliseconds (1e11 seconds is the year 5138).
_EPOCH_MS_FROM = 10**11


def read_time(value: object, zone: tzinfo = UTC) -> datetime | None:
    """A time as APIs and feeds write them: ISO 8601, RFC 2822, epoch seconds or epoch
    milliseconds (as a number or as digits); one that names no zone is in `zone`. None when
    it is none of these."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", value):
        value = float(value)
    if isinstance(value, int | float):
        seconds = value / 1000 if abs(value) >= _EPOCH_MS_FROM else value
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            parsed = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def _comparable(left: Any, right: Any, path: str) -> tuple[Any, Any]:
    if isinstance(right, datetime):
        when = read_time(left)
        if when is None:
            raise UnreadableTime(path, left)
        return when, right
    if isinstance(right, int | float) and isinstance(left, str):
        try:
            return float(left), right
        except ValueError:
            return left, right
    return left, right


def shown(condition: Condition) -> str:
    """A condition as hunter.toml writes it: 'status == "open"', 'expired_at > now'."""
    if condition.op == "exists":
        return f"{condition.path} exists"
    value = "now" if condition.value is NOW else json.dumps(condition.value, ensure_ascii=False)
    return f"{condition.path} {condition.op} {value}"


def parse_conditions(raw: Any, where: str) -> tuple[Condition, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise ConfigError(f'{where}: where must be a list of strings like ["status == \\"open\\""]')
    return tuple(_one(text, where) for text in raw)


def _one(text: str, where: str) -> Condition:
    if exists := _EXISTS.match(text):
        return Condition(exists.group(1), "exists")
    form = _FORM.match(text)
    if not form:
        raise ConfigError(
            f"{where}: cannot read the condition {text!r}; write it as 'path OP value', e.g. "
            "'status == \"open\"', 'expired_at > now' or 'id exists'"
        )
    path, op, literal = form.groups()
    if literal == "now":
        return Condition(path, op, NOW)
    try:
        value = json.loads(literal)
    except ValueError:
        raise ConfigError(
            f'{where}: in {text!r}, {literal} is not a JSON value; quote text: "{literal}"'
        ) from None
    return Condition(path, op, value)


def all_hold(
    conditions: Sequence[Condition],
    item: Any,
    now: datetime,
    lookup: Callable[[Any, str], Any],
    missing: object,
) -> bool:
    return all(holds(c, item, now, lookup, missing) for c in conditions)
