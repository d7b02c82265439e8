"""Named SQL statements kept in .sql files: ``-- name: NAME`` starts each one."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

# Beside this module, as the wheel installs it. Not importlib.resources: hunter is never run
# from a zip, and that import (with zipfile and tempfile) was ~4 ms of every cron run.
SQL = Path(__file__).parent / "sql"
_NAME = re.compile(r"^-- name: (\w+)\s*$", re.MULTILINE)


@cache
def load(dialect: str) -> dict[str, str]:
    text = (SQL / dialect / "queries.sql").read_text("utf-8")
    parts = _NAME.split(text)
    return {name: body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}


@cache
def migrations(dialect: str) -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of each numbered migration, in order."""
    found = []
    for entry in (SQL / dialect).iterdir():
        match = re.match(r"^(\d{3})_\w+\.sql$", entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def latest_version(dialect: str) -> int:
    return migrations(dialect)[-1][0]
