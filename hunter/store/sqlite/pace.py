"""The month's pushes on SQLite (see hunter/store/pace.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.store.pace import PaceStore
from hunter.store.records import Pace, PaceState, pace_state
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts


class SQLitePace(PaceStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def claim(self, pace: Pace, now: datetime, chat: str = "") -> PaceState:
        params = {
            "month": pace.month,
            "now_active": pace.now,
            "interval": pace.interval,
            "tolerance": pace.tolerance,
            "cap": pace.cap,
            "notice": int(pace.notice),
            "at": ts(now),
            "cost": pace.cost,
        }
        with self._database.tx() as db:
            db.execute(Q["start_pace"], params)
            taken = db.execute(Q["take_push"], params).fetchone()
            if taken is not None:
                spend = {"chat": chat, "month": pace.month, "cost": pace.cost}
                db.execute(Q["count_chat_spend"], spend)
            return pace_state(taken or db.execute(Q["pace"]).fetchone(), taken is not None)

    def take_slots(self, channel: str, count: int, gap: float, now: float) -> float:
        at = ts(datetime.fromtimestamp(now, UTC))
        params = {"channel": channel, "count": count, "gap": gap, "now": now, "at": at}
        with self._database.tx() as db:
            taken = db.execute(Q["take_slots"], params).fetchone()
        return float(taken["first"])

    def set_members(self, chat: str, to: str, members: int, now: datetime) -> None:
        params = {"chat": chat, "to": to, "members": members, "now": ts(now)}
        with self._database.tx() as db:
            db.execute(Q["set_members"], params)

    def forget_members(self, to: str) -> None:
        with self._database.tx() as db:
            db.execute(Q["forget_members"], {"to": to})
