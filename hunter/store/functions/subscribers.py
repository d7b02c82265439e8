"""The subscribers room over hunter's PostgreSQL functions (see hunter/store/subscribers.py;
the functions are in sql/postgres/019_subscribers.sql)."""

from __future__ import annotations

from datetime import datetime, timedelta

from hunter.store.columns import flag, optional_moment, text, whole_number
from hunter.store.functions.carrier import FunctionCarrier
from hunter.store.subscribers import NEVER, Joined, SubscriberStore


class FunctionSubscribers(SubscriberStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def _join(
        self, chat: str, asked: bool, most: int, now: datetime, by: str | None, name: str | None
    ) -> Joined:
        answer = self._database.value(
            "hunter_subscriber_join", chat=chat, asked=asked, most=most, now=now, by=by, name=name
        )
        return Joined(str(answer))

    def approve(self, chat: str, now: datetime) -> bool:
        return bool(self._database.value("hunter_subscriber_approve", chat=chat, now=now))

    def leave(self, chat: str, now: datetime) -> bool:
        return bool(self._database.value("hunter_subscriber_leave", chat=chat, now=now))

    def forget(self, chat: str) -> int:
        return whole_number(self._database.value("hunter_subscriber_forget", chat=chat))

    def move(self, old: str, new: str, now: datetime) -> bool:
        return bool(self._database.value("hunter_subscriber_move", old=old, new=new))

    def take_turn(
        self, key: str, now: datetime, every: timedelta, newest: datetime
    ) -> datetime | None:
        rows = self._database.table(
            "hunter_claim_turn", key=key, now=now, every=every, newest=newest
        )
        if not rows or not flag(rows[0], "taken"):
            return None
        return max(optional_moment(rows[0], "last") or NEVER, NEVER)

    def prune(self, before: datetime) -> list[str]:
        rows = self._database.table("hunter_subscriber_prune", "chat", before=before)
        return [text(row, "chat") for row in rows]
