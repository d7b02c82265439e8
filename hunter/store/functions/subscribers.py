"""The subscribers room over hunter's PostgreSQL functions (see hunter/store/subscribers.py;
the functions are in sql/postgres/019_subscribers.sql)."""

from __future__ import annotations

from datetime import datetime

from hunter.store.columns import text, whole_number
from hunter.store.functions.carrier import FunctionCarrier
from hunter.store.subscribers import Joined, SubscriberStore


class FunctionSubscribers(SubscriberStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def join(self, chat: str, asked: bool, most: int, now: datetime) -> Joined:
        answer = self._database.value(
            "hunter_subscriber_join", chat=chat, asked=asked, most=most, now=now
        )
        return Joined(str(answer))

    def approve(self, chat: str, now: datetime) -> bool:
        return bool(self._database.value("hunter_subscriber_approve", chat=chat, now=now))

    def leave(self, chat: str, now: datetime) -> bool:
        return bool(self._database.value("hunter_subscriber_leave", chat=chat, now=now))

    def forget(self, chat: str) -> int:
        return whole_number(self._database.value("hunter_subscriber_forget", chat=chat))

    def prune(self, before: datetime) -> list[str]:
        rows = self._database.table("hunter_subscriber_prune", "chat", before=before)
        return [text(row, "chat") for row in rows]
