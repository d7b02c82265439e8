"""The reads room on SQLite (see hunter/store/reads.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hunter.store.reads import ReadsStore
from hunter.store.records import ReadRow
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts


class SQLiteReads(ReadsStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def keep(self, reads: Sequence[ReadRow]) -> None:
        rows = [{**r.document(), "read_at": ts(r.read_at)} for r in reads]  # sortable text
        with self._database.tx() as db:
            db.executemany(Q["keep_read"], rows)

    def prune(self, before: datetime) -> int:
        with self._database.tx() as db:
            return db.execute(Q["prune_reads"], {"before": ts(before)}).rowcount
