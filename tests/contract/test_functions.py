"""hunter's PostgreSQL functions are repeatable (hunter/store/sql/postgres/functions/): each
one's current text is in one file, once; `migrate` applies them whenever the database holds
another text of them, and costs nothing more when it holds this one; no numbered migration
written since defines a function; Supabase, which cannot be migrated over its Data API, is
told to run `hunter schema` again when its functions are not this hunter's."""

from __future__ import annotations

import re

import psycopg
import pytest

from hunter.errors import SchemaError
from hunter.store import queries
from hunter.store.postgres import PostgresStore
from hunter.store.supabase import SupabaseStore
from tests.support.postgrest import SECRET_KEY, PostgREST

DEFINED = re.compile(r"^CREATE (?:OR REPLACE )?FUNCTION\s+(?:public\.)?(hunter_\w+)\s*\(", re.M)
LAST_COPYING_MIGRATION = 29  # 001-029 were written before the functions had their folder


def defined_in_files() -> list[str]:
    folder = queries.SQL / "postgres" / "functions"
    return [
        name
        for file in queries.FUNCTION_FILES
        for name in DEFINED.findall((folder / f"{file}.sql").read_text("utf-8"))
    ]


def test_each_function_is_defined_once_and_the_files_define_all_a_database_holds(
    migrated_pg_url: str,
) -> None:
    names = defined_in_files()
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    with psycopg.connect(migrated_pg_url) as db:
        held = [
            row[0]
            for row in db.execute(
                "SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace "
                "AND proname LIKE 'hunter%'"
            )
        ]
    assert sorted(held) == sorted(names)
    assert len(names) > 90


def test_no_migration_written_since_defines_a_function() -> None:
    later = [
        name
        for version, name, sql in queries.migrations("postgres")
        if version > LAST_COPYING_MIGRATION and DEFINED.search(sql)
    ]
    assert later == [], "a function's text goes in hunter/store/sql/postgres/functions/"


def test_a_function_the_database_holds_another_text_of_is_applied_at_the_next_start(
    migrated_pg_url: str,
) -> None:
    """As after an upgrade of hunter that changed one function and no table."""
    with psycopg.connect(migrated_pg_url, autocommit=True) as db:
        db.execute(
            "CREATE OR REPLACE FUNCTION hunter_schema_version() RETURNS integer "
            "LANGUAGE sql STABLE AS $$ SELECT -1 $$"
        )
        db.execute("UPDATE hunter_meta SET value = 'an-older-text' WHERE key = 'functions'")
    with PostgresStore(migrated_pg_url) as store:
        store.migrate()
    with psycopg.connect(migrated_pg_url) as db:
        assert db.execute("SELECT hunter_schema_version()").fetchone() == (
            queries.latest_version("postgres"),
        )
        held = db.execute("SELECT value FROM hunter_meta WHERE key = 'functions'").fetchone()
    assert held == (queries.functions_digest(),)


def test_a_current_database_is_not_written_at_start(migrated_pg_url: str) -> None:
    """The functions are applied once: a start after that changes nothing (no function is
    made again: their oids stay)."""
    query = (
        "SELECT proname, oid, xmin::text FROM pg_proc WHERE pronamespace = "
        "'public'::regnamespace AND proname LIKE 'hunter%' ORDER BY 1, 2"
    )
    with psycopg.connect(migrated_pg_url) as db:
        before = db.execute(query).fetchall()
    with PostgresStore(migrated_pg_url) as store:
        store.migrate()
    with psycopg.connect(migrated_pg_url) as db:
        assert db.execute(query).fetchall() == before


def test_supabase_with_another_text_of_the_functions_is_told_to_run_hunter_schema(
    supabase: PostgREST,
) -> None:
    with psycopg.connect(supabase.database_url, autocommit=True) as db:
        db.execute("UPDATE hunter_meta SET value = 'an-older-text' WHERE key = 'functions'")
    store = SupabaseStore(supabase.url, SECRET_KEY)
    try:
        with pytest.raises(SchemaError, match="hunter schema"):
            store.migrate()
    finally:
        store.close()


def test_supabase_with_this_hunters_functions_opens(supabase: PostgREST) -> None:
    store = SupabaseStore(supabase.url, SECRET_KEY)
    try:
        store.migrate()
    finally:
        store.close()
