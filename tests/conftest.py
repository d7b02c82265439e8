"""Fixtures with real parts: LINE and Telegram stand-ins, a job board, PostgreSQL, SQLite."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from hunter.store import schema_sql
from hunter.store.base import Store
from tests.support import postgres
from tests.support.board import Board
from tests.support.discord_standin import DiscordStandIn
from tests.support.line_standin import LineStandIn
from tests.support.postgrest import SECRET_KEY, PostgREST, ensure_roles
from tests.support.telegram_standin import TelegramStandIn


def _scratch_in_memory() -> None:
    """Temporary files (each test's SQLite file, the suite's PostgreSQL) on a RAM-backed tmpfs
    when the machine has one with room: every SQLite commit fsyncs (about 0.8 ms on a
    virtual disk, a third of a month of cron runs' time), and on tmpfs an fsync costs nothing.
    SQLite is as real there; only the power-loss durability no test can observe differs.
    Workers and the CLIs the tests start inherit TMPDIR. A TMPDIR set by the developer wins,
    and so does a small /dev/shm (Docker's default is 64 MB)."""
    shm = Path("/dev/shm")
    if os.environ.get("TMPDIR") or not shm.is_dir() or not os.access(shm, os.W_OK):
        return
    if shutil.disk_usage(shm).free < 2 * 1024**3:
        return
    os.environ["TMPDIR"] = str(shm)
    tempfile.tempdir = None  # gettempdir() looks again


_scratch_in_memory()
postgres.NON_DURABLE = True  # the suite's own server forgoes crash safety; a bench's does not


# The order the workers are handed tests in: the longest first, so that none starts near the
# end and runs on alone (longest processing time first). The attacks (one xdist group, about
# 90 s on one worker) first of all, then the end-to-end tests (each starts a hunter or more),
# then the rest as collected. A run in one process (`-n 0`) keeps the collected order.
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    worker = hasattr(config, "workerinput")  # xdist's workers collect; the controller shows
    if not (worker or getattr(config.option, "numprocesses", None)):
        return

    def rank(item: pytest.Item) -> int:
        if any(mark.args[:1] == ("siege",) for mark in item.iter_markers("xdist_group")):
            return 0
        return 1 if item.nodeid.startswith("tests/e2e/") else 2

    items.sort(key=rank)  # stable: each rank keeps its collected order


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    postgres.stop_server()


@pytest.fixture
def line() -> Iterator[LineStandIn]:
    stand_in = LineStandIn()
    yield stand_in
    stand_in.close()
    assert not stand_in.violations, f"hunter sent LINE an invalid request: {stand_in.violations}"


@pytest.fixture
def telegram() -> Iterator[TelegramStandIn]:
    stand_in = TelegramStandIn()
    yield stand_in
    stand_in.close()
    assert not stand_in.violations, f"off Telegram's Bot API: {stand_in.violations}"


@pytest.fixture
def discord() -> Iterator[DiscordStandIn]:
    stand_in = DiscordStandIn()
    yield stand_in
    stand_in.close()
    assert not stand_in.refused, f"hunter sent Discord an invalid request: {stand_in.refused}"


@pytest.fixture
def board() -> Iterator[Board]:
    server = Board()
    yield server
    server.close()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """An empty database: for what a schema's making or upgrading shows."""
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


@pytest.fixture
def migrated_pg_url() -> Iterator[str]:
    """A database as hunter's migrations leave it (opening it costs one round trip), copied
    from a template migrated once: for every test about what hunter does on PostgreSQL."""
    name, url = postgres.copied_database("migrated", migrate)
    yield url
    postgres.drop_database(name)


def migrate(database_url: str) -> None:
    from hunter.store.postgres import PostgresStore

    with PostgresStore(database_url) as store:
        store.migrate()


def apply_schema(database_url: str) -> None:
    """What a user does on Supabase: paste `hunter schema` into the SQL editor and run it."""
    with psycopg.connect(database_url, autocommit=True) as db:
        db.execute(schema_sql().encode())


@pytest.fixture(scope="session")
def supabase_roles() -> None:
    try:
        ensure_roles(postgres.server_url())
    except psycopg.Error as exc:
        pytest.skip(f"cannot create Supabase's roles on the test server ({exc.sqlstate})")


@pytest.fixture
def supabase(supabase_roles: None) -> Iterator[PostgREST]:
    """A Supabase project: the schema applied by hand (to a template, copied), the Data API
    in front of it."""
    name, url = postgres.copied_database("pasted", apply_schema)
    api = PostgREST(url)
    yield api
    api.close()
    postgres.drop_database(name)


def open_test_store(kind: str, folder: Path, pg: str | None, api: PostgREST | None = None) -> Store:
    if kind == "supabase":
        from hunter.store.supabase import SupabaseStore

        store: Store = SupabaseStore(api.url if api else "", SECRET_KEY)
        store.migrate()  # checks the version
        return store
    if kind == "postgres":
        from hunter.store.postgres import PostgresStore

        store = PostgresStore(pg or "")
    else:
        from hunter.store.sqlite import SQLiteStore

        store = SQLiteStore(folder / "contract.db")
    store.migrate()
    return store


@pytest.fixture(params=["sqlite", "postgres", "supabase"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Store]:
    url = request.getfixturevalue("migrated_pg_url") if store_kind == "postgres" else None
    api = request.getfixturevalue("supabase") if store_kind == "supabase" else None
    opened = open_test_store(store_kind, tmp_path, url, api)
    yield opened
    opened.close()
