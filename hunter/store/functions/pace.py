"""The month's pushes over hunter's PostgreSQL functions (see hunter/store/pace.py)."""

from __future__ import annotations

from datetime import datetime

from hunter.pace import Pace, PaceState
from hunter.store.functions.carrier import FunctionStore
from hunter.store.pace import PaceStore
from hunter.store.records import pace_state
from hunter.store.rows import flag


class FunctionPace(PaceStore):
    def __init__(self, database: FunctionStore) -> None:
        super().__init__(database)
        self._database = database

    def claim(self, pace: Pace, now: datetime) -> PaceState:
        (row,) = self._database.table(
            "hunter_claim_push",
            month=pace.month,
            now=pace.now,
            interval=pace.interval,
            tolerance=pace.tolerance,
            cap=pace.cap,
            notice=pace.notice,
            at=now,
        )
        return pace_state(row, flag(row, "granted"))
