"""The sources' rows over hunter's PostgreSQL functions (see hunter/store/sources.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from hunter.store.columns import text
from hunter.store.functions.carrier import Document, FunctionCarrier
from hunter.store.outbox import looked
from hunter.store.records import ReadRow, SourceNote
from hunter.store.sources import PollLook, SourceStore, states_of, ticks_of


class FunctionSources(SourceStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def note(
        self,
        notes: Sequence[SourceNote],
        now: datetime,
        broken_after: int,
        reads: Sequence[ReadRow] = (),
    ) -> list[str]:
        noted = Document([n.document() for n in notes])
        if reads:
            kept = Document([r.document() for r in reads])
            result = self._database.table(
                "hunter_note_reads",
                "source",
                notes=noted,
                now=now,
                broken_after=broken_after,
                reads=kept,
            )
        else:
            result = self._database.table(
                "hunter_note_sources", "source", notes=noted, now=now, broken_after=broken_after
            )
        return [text(row, "source") for row in result]

    def lease(self, names: Sequence[str], worker: str, now: datetime, until: datetime) -> set[str]:
        result = self._database.table(
            "hunter_lease_sources", "source", names=list(names), worker=worker, now=now, until=until
        )
        return {text(row, "source") for row in result}

    def claim(self, seen: Mapping[str, datetime | None], until: datetime) -> set[str]:
        if not seen:
            return set()
        claims = [
            {"name": name, "seen": at.isoformat() if at else None} for name, at in seen.items()
        ]
        result = self._database.table(
            "hunter_claim_reads", "source", claims=Document(claims), until=until
        )
        return {text(row, "source") for row in result}

    def look(
        self, now: datetime, keep: int, lease_before: datetime, prune_every: timedelta
    ) -> PollLook:
        [row] = self._database.table(
            "hunter_poll_look",
            now=now,
            keep=keep,
            lease_before=lease_before,
            prune_every=prune_every,
        )
        raw = row["look_sources"]
        sources = json.loads(raw) if isinstance(raw, str) else raw
        claimable, due = looked(
            {"claimable": row["look_claimable"], "next_due": row["look_next_due"]}
        )
        return PollLook(
            ticks_of(row["look_ticks"]),
            states_of(sources if isinstance(sources, list) else []),
            claimable,
            due,
            bool(row["look_prune"]),
        )

    def tick(self, now: datetime, keep: int) -> list[datetime]:
        return ticks_of(self._database.value("hunter_tick", now=now, keep=keep))
