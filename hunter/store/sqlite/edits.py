"""The alerts to edit on SQLite (see hunter/store/edits.py): each call one BEGIN IMMEDIATE
transaction, as each PostgreSQL function is one statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hunter.store.columns import text
from hunter.store.edits import EditStore, Merged, SentMessage, sent_message
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts


class SQLiteEdits(EditStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def add(self, merged: Sequence[Merged], now: datetime) -> int:
        with self._database.tx() as db:
            return sum(
                db.execute(
                    Q["also_add"],
                    {
                        "chat": m.chat,
                        "first_id": m.first_id,
                        "source": m.source,
                        "url": m.url,
                        "now": ts(now),
                    },
                ).rowcount
                for m in merged
            )

    def claim(self, now: datetime, stale: datetime, limit: int) -> list[SentMessage]:
        found = []
        with self._database.tx() as db:
            due = db.execute(Q["edits_due"], {"now": ts(now), "stale": ts(stale), "limit": limit})
            for row in [dict(r) for r in due.fetchall()]:
                key = {"chat": text(row, "chat"), "key": text(row, "retry_key")}
                db.execute(Q["edits_claim"], {**key, "now": ts(now)})
                rows = [dict(r) for r in db.execute(Q["edit_message"], key).fetchall()]
                ref = next((r["sent_ref"] for r in rows if r["sent_ref"]), None)
                head = {**row, "sent_ref": ref, "claimed_at": ts(now)}
                found.append(sent_message(head, rows))
        return found

    def done(self, message: SentMessage, retry_at: datetime | None = None) -> int:
        params = {
            "chat": message.chat,
            "key": message.retry_key,
            "claimed_at": ts(message.claimed_at),
            "retry_at": ts(retry_at),
        }
        with self._database.tx() as db:
            return db.execute(Q["edits_done"], params).rowcount
