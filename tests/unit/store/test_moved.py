"""A folder's SQLite file marked as left for a database (store/moved.py): never made where
there is none, passed over where it cannot be read, and the database named without its
password."""

from __future__ import annotations

from pathlib import Path

import pytest

from hunter.errors import ConfigError
from hunter.settings.environment import read_environment
from hunter.store import moved
from hunter.store.sqlite import SQLiteStore

URL = "postgresql://hunter:s3cret-Pa55word@db.example.com:5432/hunter"


def test_a_file_is_marked_refused_and_never_made(tmp_path: Path) -> None:
    path = tmp_path / "hunter.db"
    env = read_environment({"DATABASE_URL": URL, "HUNTER_DB": str(path)})
    moved.mark_left(env)
    assert not path.exists()  # none there: none made
    SQLiteStore(path).migrate()
    moved.mark_left(env)
    with SQLiteStore(path, create=False) as store, pytest.raises(ConfigError) as refused:
        moved.refuse_if_left(store, read_environment({"HUNTER_DB": str(path)}))
    said = str(refused.value)
    assert "was left for PostgreSQL at db.example.com" in said and "s3cret" not in said


def test_a_file_that_is_no_database_is_passed_over(tmp_path: Path) -> None:
    path = tmp_path / "hunter.db"
    path.write_bytes(b"not a database, a note someone kept here\n" * 40)
    moved.mark_left(read_environment({"DATABASE_URL": URL, "HUNTER_DB": str(path)}))
    assert path.read_bytes() == b"not a database, a note someone kept here\n" * 40
