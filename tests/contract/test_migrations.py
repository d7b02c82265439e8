"""A database made by the first release (commit 79ebbda) upgrades to exactly what a fresh
install creates, and keeps every listing it knew: nothing is alerted again after an upgrade.

tests/fixtures/schema_79ebbda/ holds that release's schema files as they were shipped
(`git show 79ebbda:hunter/store/sql/<dialect>/001_init.sql`); they never change.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from hunter.listing import Listing
from hunter.store import queries, schema_sql
from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore, _statements
from tests.support import postgres

FIRST_RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "schema_79ebbda"
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
SEEN = [Listing(f"a:{n}", "a", f"python job {n}", f"https://x.test/{n}") for n in range(1, 4)]


def record_as_the_first_release(store: Store) -> None:
    """Prime source a, then see a:3 as a new match (pending), as a running hunter would."""
    store.record("a", SEEN[:2], set(), T0)
    store.record("a", SEEN, {"a:3"}, T0)


def still_known(store: Store) -> None:
    assert store.job_states() == {"a:1": "primed", "a:2": "primed", "a:3": "pending"}
    assert store.record("a", SEEN, {x.job_id for x in SEEN}, T0) == {}  # nothing new
    assert queries.latest_version(store.dialect) == store.schema_version()


def pg_shape(url: str) -> dict[str, Any]:
    """Tables and columns, indexes, constraints and function definitions of a database."""
    with psycopg.connect(url) as db:

        def rows(sql: str) -> list[tuple[Any, ...]]:
            return sorted(db.execute(sql.encode()).fetchall())

        return {
            "columns": rows(
                "SELECT table_name, column_name, data_type, is_nullable, column_default "
                "FROM information_schema.columns WHERE table_schema = 'public'"
            ),
            "indexes": rows("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname='public'"),
            "constraints": rows(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE connamespace = 'public'::regnamespace"
            ),
            "functions": rows(
                "SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p "
                "WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE 'hunter%'"
            ),
            "meta": rows("SELECT key, value FROM hunter_meta WHERE key = 'schema_version'"),
        }


@pytest.fixture
def second_pg_url() -> Any:
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


def postgres_of_the_first_release(url: str) -> None:
    """A database as the first release left it: its schema, and listings it recorded."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute((FIRST_RELEASE / "postgres.sql").read_text(encoding="utf-8").encode())
    with PostgresStore(url) as old:  # no migrate: the first release's functions do the writing
        record_as_the_first_release(old)


def test_postgres_from_the_first_release(pg_url: str, second_pg_url: str) -> None:
    postgres_of_the_first_release(pg_url)
    with PostgresStore(pg_url) as upgraded:
        upgraded.migrate()
        still_known(upgraded)
    with PostgresStore(second_pg_url) as fresh:
        fresh.migrate()
    assert pg_shape(pg_url) == pg_shape(second_pg_url)


def test_supabase_sql_upgrades_the_first_release_too(pg_url: str, second_pg_url: str) -> None:
    """What a Supabase user does after an upgrade: run `hunter schema` again."""
    postgres_of_the_first_release(pg_url)
    for url in (pg_url, second_pg_url):
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(schema_sql().encode())
    with PostgresStore(pg_url) as upgraded:
        still_known(upgraded)
    assert pg_shape(pg_url) == pg_shape(second_pg_url)


def sqlite_shape(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as db:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {
            "columns": {t: db.execute(f"PRAGMA table_info({t})").fetchall() for t in tables},
            "indexes": sorted(
                db.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'")
            ),
            "version": db.execute(
                "SELECT value FROM hunter_meta WHERE key = 'schema_version'"
            ).fetchall(),
        }


def test_sqlite_from_the_first_release(tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    with sqlite3.connect(old_path) as db:
        for statement in _statements((FIRST_RELEASE / "sqlite.sql").read_text(encoding="utf-8")):
            db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '1')")
    with SQLiteStore(old_path) as old:  # no migrate: the first release's tables as they are
        record_as_the_first_release(old)
    with SQLiteStore(old_path) as upgraded:
        upgraded.migrate()
        still_known(upgraded)
    with SQLiteStore(fresh_path) as fresh:
        fresh.migrate()
    assert sqlite_shape(old_path) == sqlite_shape(fresh_path)
