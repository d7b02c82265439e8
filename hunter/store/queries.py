"""Named SQL statements kept in .sql files: ``-- name: NAME`` starts each one."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

_NAME = re.compile(r"^-- name: (\w+)\s*$", re.MULTILINE)


@cache
def load(dialect: str) -> dict[str, str]:
    text = files("hunter.store").joinpath("sql", dialect, "queries.sql").read_text("utf-8")
    parts = _NAME.split(text)
    return {name: body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}


@cache
def migrations(dialect: str) -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of each numbered migration, in order."""
    folder = files("hunter.store").joinpath("sql", dialect)
    found = []
    for entry in folder.iterdir():
        match = re.match(r"^(\d{3})_\w+\.sql$", entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def latest_version(dialect: str) -> int:
    return migrations(dialect)[-1][0]
