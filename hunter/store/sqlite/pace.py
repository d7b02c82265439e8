"""The month's pushes on SQLite (see hunter/store/pace.py)."""

from __future__ import annotations

from datetime import datetime

from hunter.pace import Pace, PaceState
from hunter.store.pace import PaceStore
from hunter.store.records import pace_state
from hunter.store.sqlite.database import Q, SQLiteStore, ts


class SQLitePace(PaceStore):
    def __init__(self, database: SQLiteStore) -> None:
        super().__init__(database)
        self._database = database

    def claim(self, pace: Pace, now: datetime) -> PaceState:
        params = {
            "month": pace.month,
            "now_active": pace.now,
            "interval": pace.interval,
            "tolerance": pace.tolerance,
            "cap": pace.cap,
            "notice": int(pace.notice),
            "at": ts(now),
        }
        with self._database.tx() as db:
            db.execute(Q["start_pace"], params)
            taken = db.execute(Q["take_push"], params).fetchone()
            return pace_state(taken or db.execute(Q["pace"]).fetchone(), taken is not None)
