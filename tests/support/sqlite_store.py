"""The unit and integration tiers' store: a real SQLite file in the test's own folder, with
hunter's schema applied (the contract tier runs every adapter instead)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hunter.store.sqlite import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    opened = SQLiteStore(tmp_path / "hunter.db")
    opened.migrate()
    yield opened
    opened.close()
