"""Opening a store whose schema is current costs one round trip (issue 44): every `run --once`
of a cron opens it, and over Supabase or a distant PostgreSQL each round trip crosses the
internet. A store behind is still migrated, each migration in its own transaction under the
lock that keeps two deploys apart (tests/contract/test_migrations.py)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.supabase import SupabaseStore
from tests.support.postgrest import SECRET_KEY, PostgREST


def test_a_current_sqlite_file_opens_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "hunter.db"
    with SQLiteStore(path) as store:
        store.migrate()  # creates it: one transaction per migration
    statements: list[str] = []
    with SQLiteStore(path) as opened:
        assert isinstance(opened, SQLiteStore)
        store = opened
        db: sqlite3.Connection = store._db
        db.set_trace_callback(statements.append)
        store.migrate()
    assert sum(s.startswith("BEGIN") for s in statements) == 1, statements


def round_trips(trace: str) -> int:
    """The server's answers that end a request: one ReadyForQuery per round trip."""
    return sum("\tB\t" in line and "ReadyForQuery" in line for line in trace.splitlines())


def test_a_current_postgresql_opens_in_one_round_trip(pg_url: str) -> None:
    with PostgresStore(pg_url) as store:
        store.migrate()
        assert store.schema_version() > 0
    with PostgresStore(pg_url) as opened, tempfile.TemporaryFile() as trace:
        store = opened
        assert isinstance(store, PostgresStore)
        connection = store._db
        assert connection is not None
        connection.pgconn.trace(trace.fileno())  # libpq's own log of the protocol
        store.migrate()
        connection.pgconn.untrace()
        trace.seek(0)
        assert round_trips(trace.read().decode()) == 1


def test_an_empty_postgresql_is_still_migrated(pg_url: str) -> None:
    """The one-statement look finds no table on a new database, and the migrations run."""
    with PostgresStore(pg_url) as store:
        assert store.schema_version() == 0
        store.migrate()
        assert store.schema_version() >= 17


def test_a_current_supabase_opens_in_one_https_call(supabase: PostgREST) -> None:
    supabase.calls.clear()
    with SupabaseStore(supabase.url, SECRET_KEY) as store:
        store.migrate()
    assert sum(supabase.calls.values()) == 1, supabase.calls
