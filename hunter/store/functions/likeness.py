"""The likeness room over hunter's PostgreSQL functions (see hunter/store/likeness.py; the
functions are in sql/postgres/020_likeness.sql)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hunter.rules.likeness import Likeness
from hunter.rules.listing import Listing
from hunter.store.columns import whole_number
from hunter.store.functions.carrier import Document, FunctionCarrier
from hunter.store.likeness import LikenessStore, Noted, likeness_document, noted


class FunctionLikeness(LikenessStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def note(
        self,
        listings: Sequence[tuple[Listing, Likeness]],
        since: datetime,
        now: datetime,
        keep: bool = True,
    ) -> Noted:
        rows = self._database.table(
            "hunter_likeness_note",
            jobs=Document(likeness_document(listings)),
            since=since,
            now=now,
            keep=keep,
        )
        return noted(rows)

    def prune(self, before: datetime) -> int:
        return whole_number(self._database.value("hunter_likeness_prune", before=before))
