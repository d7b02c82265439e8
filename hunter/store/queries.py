"""Named SQL statements kept in .sql files: ``-- name: NAME`` starts each one."""

from __future__ import annotations

import hashlib
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
    names = parts[1::2]
    if twice := sorted({name for name in names if names.count(name) > 1}):
        # The second would stand for the first everywhere: a query answered by the wrong SQL
        raise AssertionError(f"{dialect}/queries.sql names {', '.join(twice)} twice")
    return {name: body.strip() for name, body in zip(names, parts[2::2], strict=True)}


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


# The repeatable functions (sql/postgres/functions/README.md), in the order they are applied:
# the grants first, so that the last statement can grant what every file made.
FUNCTION_FILES = (
    "access",
    "outbox",
    "sources",
    "pace",
    "chat",
    "reads",
    "subscribers",
    "likeness",
    "edits",
    "lookups",
    "older",
)


@cache
def functions() -> str:
    """Every PostgreSQL function's current text, then the grants on all of them: what
    `migrate` applies whenever its digest differs from the database's."""
    folder = SQL / "postgres" / "functions"
    parts = [
        f"-- functions/{name}.sql\n" + (folder / f"{name}.sql").read_text("utf-8")
        for name in FUNCTION_FILES
    ]
    parts.append("SELECT hunter_restrict_access();\n")
    return "\n".join(parts)


@cache
def functions_digest() -> str:
    """Which text of the functions this hunter has: kept in hunter_meta under `functions`."""
    return hashlib.sha256(functions().encode("utf-8")).hexdigest()[:16]
