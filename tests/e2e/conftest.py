"""The e2e tier: hunter as a user runs it, the CLI as a subprocess against a job board and LINE
on 127.0.0.1, with a SQLite file or a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import base_env
from tests.support.line_standin import LineStandIn


@pytest.fixture(params=["sqlite", "postgres"])
def env(request: pytest.FixtureRequest, tmp_path: Path, line: LineStandIn) -> dict[str, str]:
    """The CLI's environment, talking to the LINE stand-in, once with SQLite (`HUNTER_DB` in
    the test's folder) and once with PostgreSQL (`DATABASE_URL`)."""
    extra = line.env()
    if request.param == "postgres":
        extra["DATABASE_URL"] = request.getfixturevalue("pg_url")
    return base_env(tmp_path, **extra)
