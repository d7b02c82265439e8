"""The unit tier's store: a real SQLite file in the test's own folder, schema applied."""

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
