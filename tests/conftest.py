"""Fixtures with real parts: a LINE stand-in, a job board, PostgreSQL, SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hunter.store.base import Store
from tests.support import postgres
from tests.support.board import Board
from tests.support.line_standin import LineStandIn


@pytest.fixture
def line() -> Iterator[LineStandIn]:
    stand_in = LineStandIn()
    yield stand_in
    stand_in.close()
    assert not stand_in.violations, f"hunter sent LINE an invalid request: {stand_in.violations}"


@pytest.fixture
def board() -> Iterator[Board]:
    server = Board()
    yield server
    server.close()


@pytest.fixture
def pg_url() -> Iterator[str]:
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


def open_test_store(kind: str, folder: Path, pg: str | None) -> Store:
    if kind == "postgres":
        from hunter.store.postgres import PostgresStore

        store: Store = PostgresStore(pg or "")
    else:
        from hunter.store.sqlite import SQLiteStore

        store = SQLiteStore(folder / "contract.db")
    store.migrate()
    return store


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Store]:
    url = request.getfixturevalue("pg_url") if store_kind == "postgres" else None
    opened = open_test_store(store_kind, tmp_path, url)
    yield opened
    opened.close()
