"""The reads room over hunter's PostgreSQL functions (see hunter/store/reads.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hunter.store.columns import whole_number
from hunter.store.functions.carrier import Document, FunctionCarrier
from hunter.store.reads import ReadsStore
from hunter.store.records import ReadRow


class FunctionReads(ReadsStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def keep(self, reads: Sequence[ReadRow]) -> None:
        if not reads:
            return
        self._database.value("hunter_keep_reads", reads=Document([r.document() for r in reads]))

    def prune(self, before: datetime) -> int:
        return whole_number(self._database.value("hunter_prune_reads", before=before))
