"""The e2e tier: hunter as a user runs it, the CLI as a subprocess against a job board and LINE
on 127.0.0.1, with a SQLite file, or a real PostgreSQL where the test is about it.

The contract tier (tests/contract/) proves every store gives the same answers, so an e2e test
runs on SQLite unless what it shows depends on the database: text PostgreSQL would refuse,
replicas claiming on one database, times summed by PostgreSQL's own functions. Those say so
with `@on_both_stores` (tests/support/cli.py; issue 44: the suite's time, every assertion
kept)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import base_env
from tests.support.line_standin import LineStandIn


@pytest.fixture
def env(request: pytest.FixtureRequest, tmp_path: Path, line: LineStandIn) -> dict[str, str]:
    """The CLI's environment, talking to the LINE stand-in, with SQLite (`HUNTER_DB` in the
    test's folder), or with PostgreSQL (`DATABASE_URL`) too where the test is
    `@on_both_stores`."""
    extra = line.env()
    if getattr(request, "param", "sqlite") == "postgres":
        extra["DATABASE_URL"] = request.getfixturevalue("migrated_pg_url")
    return base_env(tmp_path, **extra)
