"""The subscribers room on SQLite (see hunter/store/subscribers.py). Each operation is one
BEGIN IMMEDIATE transaction: one writer at a time, so a count read in it is the count."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from hunter.store.columns import integer, moment, optional_moment, text
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts
from hunter.store.subscribers import ASKS_EXPIRE, NEVER, Joined, SubscriberStore

# What /forget deletes beyond the outbox rows, table by table (019_subscribers.sql's list).
FORGET = (
    "forget_chat_notices",
    "forget_chat_marks",
    "forget_chat_tuning",
    "forget_chat_settings",
    "forget_chat_floors",
    "forget_chat_mutes",
    "forget_chat_notes",
    "forget_chat_events",
    "forget_chat_members",
    "forget_subscriber",
)


class SQLiteSubscribers(SubscriberStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def _join(
        self, chat: str, asked: bool, most: int, now: datetime, by: str | None, name: str | None
    ) -> Joined:
        fresh = now - ASKS_EXPIRE
        with self._database.tx() as db:
            row = db.execute(Q["subscriber_status"], {"chat": chat}).fetchone()
            was = text(row, "status") if row else None
            if was == "active":
                return Joined.MEMBER
            if was == "asked" and moment(row, "joined_at") >= fresh:
                return Joined.WAITING
            params = {"chat": chat, "fresh": ts(fresh)}
            counted = db.execute(Q["subscribers_in"], params).fetchone()
            if integer(counted, "n") >= most:
                return Joined.FULL
            if asked and integer(counted, "asked") >= max(1, most // 2):
                return Joined.FULL
            status = "asked" if asked else "active"
            put = {"chat": chat, "status": status, "now": ts(now), "by": by, "name": name}
            db.execute(Q["subscriber_put"], put)
            return Joined.ASKED if asked else Joined.JOINED

    def approve(self, chat: str, now: datetime) -> bool:
        with self._database.tx() as db:
            return bool(
                db.execute(Q["subscriber_approve"], {"chat": chat, "now": ts(now)}).rowcount
            )

    def leave(self, chat: str, now: datetime) -> bool:
        with self._database.tx() as db:
            row = db.execute(Q["subscriber_status"], {"chat": chat}).fetchone()
            was = text(row, "status") if row else None
            if was is None or was == "left":
                return False
            db.execute(Q["subscriber_left"], {"chat": chat, "now": ts(now)})
            db.execute(Q["subscriber_waiting_batches"], {"chat": chat, "all": False})
            db.execute(Q["subscriber_waiting_rows"], {"chat": chat, "all": False})
            return True

    def forget(self, chat: str) -> int:
        if not chat:
            return 0
        with self._database.tx() as db:
            return _forget(db, chat)

    def move(self, old: str, new: str, now: datetime) -> bool:
        with self._database.tx() as db:
            if old == new or not db.execute(Q["subscriber_status"], {"chat": old}).fetchone():
                return False
            _forget(db, new)
            for statement in Q["move_chat"].split(";"):
                if statement.strip():
                    db.execute(statement, {"old": old, "new": new, "now": ts(now)})
            return True

    def take_turn(
        self, key: str, now: datetime, every: timedelta, newest: datetime
    ) -> datetime | None:
        with self._database.tx() as db:
            row = db.execute(Q["turn"], {"key": key}).fetchone()
            last = optional_moment(row, "value") if row else None
            if last is not None and (last > now - every or last >= newest):
                return None
            db.execute(Q["take_turn"], {"key": key, "now": ts(now)})
            return last or NEVER

    def prune(self, before: datetime) -> list[str]:
        with self._database.tx() as db:
            db.execute(Q["prune_membership"], {"before": ts(before)})
            found = db.execute(Q["subscribers_gone"], {"before": ts(before)}).fetchall()
            gone = [text(row, "chat") for row in found]
            for chat in gone:
                _forget(db, chat)
            return gone


def _forget(db: sqlite3.Connection, chat: str) -> int:
    """`forget` inside its transaction."""
    gone = db.execute(Q["subscriber_waiting_batches"], {"chat": chat, "all": True}).rowcount
    gone += db.execute(Q["subscriber_waiting_rows"], {"chat": chat, "all": True}).rowcount
    for name in FORGET:
        gone += db.execute(Q[name], {"chat": chat}).rowcount
    return gone
