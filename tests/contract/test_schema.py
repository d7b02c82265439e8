"""The current schema files (hunter/store/sql/<dialect>/schema.sql) are exactly what the
migrations make: applied to an empty database (with, for PostgreSQL, the functions' folder
after it), each gives the same tables, columns, defaults, constraints, indexes, functions and
version as running every migration does. A migration
added without `uv run python -m tests.support.schema --write` fails here."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from hunter.store import queries
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements
from tests.support import postgres
from tests.support.schema import FILES, pg_shape, sqlite_shape


@pytest.fixture
def second_pg_url() -> Any:
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


def test_the_postgresql_schema_file_is_what_the_migrations_make(
    pg_url: str, second_pg_url: str
) -> None:
    with PostgresStore(pg_url) as migrated:
        migrated.migrate()
    with psycopg.connect(second_pg_url, autocommit=True) as db:
        db.execute(FILES["postgres"].read_text(encoding="utf-8").encode())
        db.execute(queries.functions().encode())  # the functions' one text, beside it
    assert pg_shape(second_pg_url) == pg_shape(pg_url)


def test_the_sqlite_schema_file_is_what_the_migrations_make(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "migrated.db") as migrated:
        migrated.migrate()
    with sqlite3.connect(tmp_path / "from_file.db") as db:
        for statement in _statements(FILES["sqlite"].read_text(encoding="utf-8")):
            db.execute(statement)
    assert sqlite_shape(tmp_path / "from_file.db") == sqlite_shape(tmp_path / "migrated.db")
