"""A database made by each release (commits 79ebbda and a1cc299) upgrades to exactly what a
fresh install creates, and keeps every listing it knew: nothing is alerted again after an
upgrade, and the chat's mutes, marks and answered events survive it.

tests/fixtures/schema_79ebbda/ holds the first release's schema files as they were shipped
(`git show 79ebbda:hunter/store/sql/<dialect>/001_init.sql`); they never change. The second
release's database is made from migrations 001-003 as this checkout has them, after checking
that they are, byte for byte, the files that release shipped (their SHA-256 below): a
migration is never edited, a change is always a new numbered file.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from hunter.rules.listing import Listing
from hunter.store import queries, schema_sql
from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements
from tests.support import postgres

FIRST_RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "schema_79ebbda"
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
SEEN = [Listing(f"a:{n}", "a", f"python job {n}", f"https://x.test/{n}") for n in range(1, 4)]


def record_as_the_first_release(store: Store) -> None:
    """Prime source a, then see a:3 as a new match (pending), as a running hunter would."""
    store.outbox.record("a", SEEN[:2], set(), T0)
    store.outbox.record("a", SEEN, {"a:3"}, T0)


def still_known(store: Store) -> None:
    assert store.outbox.job_states() == {"a:1": "primed", "a:2": "primed", "a:3": "pending"}
    assert store.outbox.record("a", SEEN, {x.job_id for x in SEEN}, T0) == {}  # nothing new
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


# `git show a1cc299:hunter/store/sql/<dialect>/<file> | sha256sum`
SECOND_RELEASE = {
    "postgres": {
        "001_init.sql": "5804c854b235e1f6f5d610e72cba4bbe526d8bfbc165f665f5ad113b9e403e98",
        "002_pace.sql": "af27102dfa2d917ed2cb7d2ff166e624f98810d2b6ea7b3f5abf95122ea29818",
        "003_chat.sql": "21c3d4189bfb54806a73667ca1ca9b218733006ff1dba1d85395a5671b4faed7",
    },
    "sqlite": {
        "001_init.sql": "e27baee7208151fb2cdc87e198f5d6d4985911c26eddeda81093457617b2b775",
        "002_pace.sql": "8c50cd642998e183647c4ec17f25d93d4d5012187766f140e8e2e5f5e5ada4c5",
        "003_chat.sql": "386782824d4a5508460103fe67e93842cec227a713866287fd7d121585af2929",
    },
}


def second_release_sql(dialect: str) -> list[str]:
    """Migrations 001-003, as commit a1cc299 shipped them (checked)."""
    shipped = SECOND_RELEASE[dialect]
    found = {name: sql for _version, name, sql in queries.migrations(dialect) if name in shipped}
    for name, digest in shipped.items():
        assert hashlib.sha256(found[name].encode()).hexdigest() == digest, (
            f"{dialect}/{name} was edited after it shipped: add a new numbered migration instead"
        )
    return [found[name] for name in sorted(shipped)]


def use_as_the_second_release(store: Store, statements: list[str]) -> None:
    """What a1cc299 writes: listings, a mark, and (in that release's own SQL, which today's
    code no longer speaks) a push of the pace, a mute and an answered event."""
    record_as_the_first_release(store)
    store.chat.mark("a:1", "applied", T0)
    for statement in statements:
        if isinstance(store, PostgresStore):
            store._execute(statement)
        else:
            assert isinstance(store, SQLiteStore)
            with store.tx() as db:
                db.execute(statement)


def still_known_after_the_second(store: Store) -> None:
    still_known(store)
    state = store.pace.state()
    assert state is not None and state.pushes == 1
    assert set(store.chat.mutes(T0)) == {"django"}
    assert [m.job_id for m in store.chat.marks("applied")] == ["a:1"]
    later = T0 + timedelta(minutes=5)
    # The event a1cc299 answered is neither answered again nor accepted as new.
    assert store.chat.take_stranded("w", later, later, 10) == []
    assert store.chat.accept([("E-old", "U1", {"webhookEventId": "E-old"})], "w", T0) == set()


def test_postgres_from_the_second_release(pg_url: str, second_pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        for sql in second_release_sql("postgres"):
            db.execute(sql.encode())
    with PostgresStore(pg_url) as old:  # no migrate: the second release's schema as it is
        use_as_the_second_release(
            old,
            [
                "SELECT * FROM hunter_claim_push('2026-11', 100, 10, 50, 5, false, now())",
                "SELECT hunter_mute('django', now() + interval '30 days', now())",
                "SELECT hunter_claim_event('E-old', now())",
            ],
        )
    with PostgresStore(pg_url) as upgraded:
        upgraded.migrate()
        still_known_after_the_second(upgraded)
    with PostgresStore(second_pg_url) as fresh:
        fresh.migrate()
    assert pg_shape(pg_url) == pg_shape(second_pg_url)


def test_sqlite_from_the_second_release(tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    with sqlite3.connect(old_path) as db:
        for sql in second_release_sql("sqlite"):
            for statement in _statements(sql):
                db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '3')")
    with SQLiteStore(old_path) as old:
        use_as_the_second_release(
            old,
            [
                "INSERT INTO hunter_pace (id, month, tat, pushes, updated_at) "
                "VALUES (1, '2026-11', 110, 1, '2026-11-01T09:00:00.000000Z')",
                "INSERT INTO hunter_mutes (word, until, muted_at) "
                "VALUES ('django', '2026-12-01T09:00:00.000000Z', '2026-11-01T09:00:00.000000Z')",
                "INSERT INTO hunter_events (event_id, received_at) "
                "VALUES ('E-old', '2026-11-01T09:00:00.000000Z')",
            ],
        )
    with SQLiteStore(old_path) as upgraded:
        upgraded.migrate()
        still_known_after_the_second(upgraded)
    with SQLiteStore(fresh_path) as fresh:
        fresh.migrate()
    assert sqlite_shape(old_path) == sqlite_shape(fresh_path)
