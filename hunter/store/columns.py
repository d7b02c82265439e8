"""Typed reads of database rows, by column name.

Every adapter answers rows as mappings of column name to value: sqlite3 rows turned into dicts,
psycopg's dict rows, PostgREST's JSON objects. A row's values are typed `object`, not `Any`,
so the type checker refuses to let one flow anywhere unconverted: each column is read through
one of these functions, which also bridge what the transports differ in (times as datetimes or
ISO text, JSON as text or parsed, integers as int or bigint-as-text).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

Row = Mapping[str, object]


def text(row: Row, column: str) -> str:
    value = row[column]
    if value is None:
        raise ValueError(f"column {column} is NULL where a value was expected")
    return str(value)


def optional_text(row: Row, column: str) -> str | None:
    value = row[column]
    return None if value is None else str(value)


def integer(row: Row, column: str) -> int:
    return whole_number(row[column], f"column {column}")


def whole_number(value: object, what: str = "the answer") -> int:
    """A count or number as a transport carries it (int, bigint as text, float)."""
    if isinstance(value, bool) or not isinstance(value, int | str | float):
        raise ValueError(f"{what} holds {value!r}, not a number")
    return int(value)


def real(row: Row, column: str) -> float:
    """A double precision column (PostgREST may carry it as text, e.g. "Infinity")."""
    value = row[column]
    if isinstance(value, bool) or not isinstance(value, int | str | float):
        raise ValueError(f"column {column} holds {value!r}, not a number")
    return float(value)


def optional_integer(row: Row, column: str) -> int | None:
    return None if row[column] is None else integer(row, column)


def flag(row: Row, column: str) -> bool:
    value = row[column]
    return bool(int(value)) if isinstance(value, str) and value.isdigit() else bool(value)


def moment(row: Row, column: str) -> datetime:
    value = optional_moment(row, column)
    if value is None:
        raise ValueError(f"column {column} is NULL where a time was expected")
    return value


def optional_moment(row: Row, column: str) -> datetime | None:
    return utc(row[column])


def document(row: Row, column: str) -> dict[str, Any]:
    """A JSON object column (jsonb arrives parsed, SQLite's TEXT as a string)."""
    value = row[column]
    data = json.loads(value) if isinstance(value, str) else value
    if not isinstance(data, dict):
        raise ValueError(f"column {column} holds no JSON object")
    return data


def optional_document(row: Row, column: str) -> dict[str, Any]:
    """A JSON object column that may be NULL (an empty object then)."""
    return {} if row[column] is None else document(row, column)


def utc(value: object) -> datetime | None:
    """A database time (datetime or ISO text) as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if not isinstance(value, datetime):
        raise ValueError(f"{value!r} is not a time")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)
