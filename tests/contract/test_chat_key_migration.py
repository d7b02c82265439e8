"""Schema 15 (issue 45, finding 3): a row's key is its listing and its chat. Before, a chat's
row was the listing's id spelled "<id>#<chat>", so a board id "7#team" and the team's row of
"7" were one row, and one of the two listings reached nobody. A database of schema 14 (rows
and marks under the spelled ids, as that release wrote them) is upgraded, on SQLite and on
PostgreSQL (Supabase runs the same SQL, pasted from `hunter schema`, as often as a person
pastes it): every row is its listing's under its chat, nothing is lost or cut twice."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import psycopg

from hunter.store import queries, schema_sql
from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements

T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)
LISTING = '{"source": "a", "title": "python", "url": "https://x.test/"}'
# (job_id as schema 14 kept it, chat, status): the owner's rows, then team's, spelled
ROWS_14 = [
    ("a:1", "", "sent"),
    ("a:7#team", "", "pending"),  # a board's own id that ends in "#team": the owner's
    ("a:1#team", "team", "sent"),
    ("a:9#team", "team", "pending"),
    ("a:x#team#team", "team", "pending"),  # team's row of the board id "a:x#team"
]
MARKS_14 = [("a:1", "dismissed"), ("a:1#team", "applied")]


def rows_of_schema_14() -> list[str]:
    rows = ", ".join(
        f"('{job}', '{chat}', 'a', '{status}', '{LISTING}', '{T0}', '{T0}')"
        for job, chat, status in ROWS_14
    )
    marks = ", ".join(f"('{job}', '{mark}', '{LISTING}', '{T0}')" for job, mark in MARKS_14)
    return [
        "INSERT INTO hunter_seen_jobs (job_id, chat, source, status, listing, first_seen_at, "
        f"last_seen_at) VALUES {rows}",
        f"INSERT INTO hunter_marks (job_id, mark, listing, marked_at) VALUES {marks}",
    ]


def rekeyed(store: Store) -> None:
    assert store.schema_version() == queries.latest_version(store.dialect) >= 15
    assert store.outbox.job_states() == {"a:1": "sent", "a:7#team": "pending"}
    assert store.outbox.job_states("team") == {"a:1": "sent", "a:9": "pending",
                                               "a:x#team": "pending"}  # fmt: skip
    assert {(m.job_id, m.chat) for m in store.chat.marks("applied")} == {("a:1", "team")}
    assert {(m.job_id, m.chat) for m in store.chat.marks("dismissed")} == {("a:1", "")}


def migrations_to(dialect: str, version: int) -> list[str]:
    return [sql for number, _name, sql in queries.migrations(dialect) if number <= version]


def test_sqlite_of_schema_14_is_rekeyed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        for sql in migrations_to("sqlite", 14):
            for statement in _statements(sql):
                db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '14')")
        for statement in rows_of_schema_14():
            db.execute(statement)
    with SQLiteStore(path) as store:
        store.migrate()
        rekeyed(store)


def test_postgres_of_schema_14_is_rekeyed_and_pasting_the_schema_again_cuts_nothing(
    pg_url: str,
) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        for sql in migrations_to("postgres", 14):
            db.execute(sql.encode())
        for statement in rows_of_schema_14():
            db.execute(statement.encode())
    with PostgresStore(pg_url) as store:
        store.migrate()
        rekeyed(store)
    with psycopg.connect(pg_url, autocommit=True) as db:  # Supabase: `hunter schema`, again
        db.execute(schema_sql().encode())
    with PostgresStore(pg_url) as store:
        rekeyed(store)
