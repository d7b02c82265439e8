"""The alerts to edit over hunter's PostgreSQL functions (see hunter/store/edits.py; the
functions are in sql/postgres/024_also_on.sql)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from hunter.store.columns import whole_number
from hunter.store.edits import EditStore, Merged, SentMessage, sent_message
from hunter.store.functions.carrier import Document, FunctionCarrier


class FunctionEdits(EditStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def add(self, merged: Sequence[Merged], now: datetime) -> int:
        copies = [
            {"chat": m.chat, "first_id": m.first_id, "source": m.source, "url": m.url}
            for m in merged
        ]
        return whole_number(self._database.value("hunter_also", merged=Document(copies), now=now))

    def claim(self, now: datetime, stale: datetime, limit: int) -> list[SentMessage]:
        rows = self._database.table("hunter_edits_claim", now=now, stale=stale, limit=limit)
        found = []
        for row in rows:
            raw = row.get("listings")
            listings = json.loads(raw) if isinstance(raw, str) else raw
            found.append(sent_message(row, listings if isinstance(listings, list) else []))
        return found

    def done(self, message: SentMessage, retry_at: datetime | None = None) -> int:
        moved = self._database.value(
            "hunter_edits_done",
            chat=message.chat,
            key=message.retry_key,
            claimed_at=message.claimed_at,
            retry_at=retry_at,
        )
        return whole_number(moved)
