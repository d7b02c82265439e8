"""The SQLite adapter (database.py) and its rooms."""

from hunter.store.sqlite.database import SQLiteStore, ts

__all__ = ["SQLiteStore", "ts"]
