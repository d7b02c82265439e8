"""The month's pushes over hunter's PostgreSQL functions (see hunter/store/pace.py)."""

from __future__ import annotations

from datetime import datetime

from hunter.store.columns import flag
from hunter.store.functions.carrier import FunctionCarrier
from hunter.store.pace import PaceStore
from hunter.store.records import Pace, PaceState, pace_state


class FunctionPace(PaceStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def claim(self, pace: Pace, now: datetime, chat: str = "") -> PaceState:
        (row,) = self._database.table(
            "hunter_claim_messages",
            month=pace.month,
            now=pace.now,
            interval=pace.interval,
            tolerance=pace.tolerance,
            cap=pace.cap,
            notice=pace.notice,
            at=now,
            cost=pace.cost,
            chat=chat,
        )
        return pace_state(row, flag(row, "granted"))

    def take_slots(self, channel: str, count: int, gap: float, now: float) -> float:
        first = self._database.value(
            "hunter_take_slots", channel=channel, count=count, gap=gap, now=now
        )
        return float(first)  # type: ignore[arg-type]

    def set_members(self, chat: str, to: str, members: int, now: datetime) -> None:
        self._database.value("hunter_set_members", chat=chat, to=to, members=members, now=now)

    def forget_members(self, to: str) -> None:
        self._database.value("hunter_forget_members", to=to)
