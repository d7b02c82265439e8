"""The SQLite adapter: the file and its transactions (database.py), and its rooms."""

from __future__ import annotations

from pathlib import Path

from hunter.store.sqlite.chat import SQLiteChat
from hunter.store.sqlite.database import SQLiteDatabase, ts
from hunter.store.sqlite.edits import SQLiteEdits
from hunter.store.sqlite.likeness import SQLiteLikeness
from hunter.store.sqlite.outbox import SQLiteOutbox
from hunter.store.sqlite.pace import SQLitePace
from hunter.store.sqlite.reads import SQLiteReads
from hunter.store.sqlite.sources import SQLiteSources
from hunter.store.sqlite.subscribers import SQLiteSubscribers


class SQLiteStore(SQLiteDatabase):
    """A local SQLite file as hunter's store, every room on it."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        super().__init__(path, create)
        self.outbox = SQLiteOutbox(self)
        self.sources = SQLiteSources(self)
        self.pace = SQLitePace(self)
        self.reads = SQLiteReads(self)
        self.chat = SQLiteChat(self)
        self.subscribers = SQLiteSubscribers(self)
        self.likeness = SQLiteLikeness(self)
        self.edits = SQLiteEdits(self)


__all__ = ["SQLiteStore", "ts"]
