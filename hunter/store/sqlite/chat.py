"""What the chat keeps, on SQLite (see hunter/store/chat.py)."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from hunter.rules.destinations import OWNER
from hunter.rules.filter_config import PayFloor
from hunter.rules.held import LAYERS
from hunter.rules.held import WINDOW as HELD_WINDOW
from hunter.store.chat import EVENT_MEMORY, ChatStore, EventRow, event_payload
from hunter.store.columns import flag, text
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts


class SQLiteChat(ChatStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def accept(self, events: Sequence[EventRow], worker: str, now: datetime) -> set[str]:
        new = set()
        with self._database.tx() as db:
            db.execute(Q["forget_events"], {"before": ts(now - EVENT_MEMORY)})
            for event_id, chat_id, payload in events:
                params = {"event_id": event_id, "chat_id": chat_id, "worker": worker}
                params |= {"payload": json.dumps(payload, ensure_ascii=False), "now": ts(now)}
                if db.execute(Q["accept_event"], params).rowcount:
                    new.add(event_id)
        return new

    def hold(self, event_id: str, worker: str, now: datetime) -> bool:
        params = {"event_id": event_id, "worker": worker, "now": ts(now)}
        with self._database.tx() as db:
            return bool(db.execute(Q["hold_event"], params).rowcount)

    def handled(self, event_id: str, now: datetime) -> None:
        with self._database.tx() as db:
            db.execute(Q["event_handled"], {"event_id": event_id, "now": ts(now)})

    def take_stranded(
        self, worker: str, now: datetime, held_before: datetime, limit: int
    ) -> list[dict[str, Any]]:
        params = {"worker": worker, "now": ts(now), "held_before": ts(held_before)}
        with self._database.tx() as db:
            rows = db.execute(Q["take_stranded"], {**params, "limit": limit}).fetchall()
        rows.sort(key=lambda row: (text(row, "received_at"), text(row, "event_id")))
        return [event_payload(row) for row in rows]

    def release(self, event_ids: Sequence[str], worker: str) -> None:
        with self._database.tx() as db:
            db.execute(Q["release_events"], {"ids": json.dumps(list(event_ids)), "worker": worker})

    def note_private(self, chat_id: str, now: datetime, told_before: datetime) -> bool:
        params = {"chat_id": chat_id, "now": ts(now), "before": ts(told_before)}
        with self._database.tx() as db:
            return bool(db.execute(Q["note_private"], params).rowcount)

    def mute(self, word: str, until: datetime, now: datetime, chat: str = "") -> None:
        params = {"chat": chat, "word": word, "until": ts(until), "now": ts(now)}
        with self._database.tx() as db:
            db.execute(Q["mute"], params)

    def unmute(self, word: str, chat: str | None = None) -> bool:
        with self._database.tx() as db:
            return bool(db.execute(Q["unmute"], {"word": word, "chat": chat}).rowcount)

    def tune_word(self, chat: str, word: str, op: str, at: datetime, cap: int) -> bool:
        with self._database.tx() as db:  # one writer at a time: the count is the count
            if op == "add":
                room = db.execute(Q["keyword_room"], {"chat": chat, "word": word, "cap": cap})
                if not flag(room.fetchone(), "room"):
                    return False
            db.execute(Q["tune_word"], {"chat": chat, "word": word, "op": op, "now": ts(at)})
            return True

    def drop_removals(self, before: datetime, keep: Collection[str]) -> int:
        params = {"before": ts(before), "keep": json.dumps(sorted(keep))}
        with self._database.tx() as db:
            return db.execute(Q["drop_removals"], params).rowcount

    def tune_settings(
        self, chat: str, at: datetime, min_budget: int | None = None, paused: bool | None = None
    ) -> None:
        paused_flag = None if paused is None else int(paused)
        params = {"chat": chat, "budget": min_budget, "paused": paused_flag, "now": ts(at)}
        with self._database.tx() as db:
            db.execute(Q["tune_settings"], params)

    def tune_floor(self, chat: str, floor: PayFloor, at: datetime) -> None:
        params = {
            "chat": chat,
            "currency": floor.currency,
            "period": floor.period,
            "amount": floor.amount,
            "now": ts(at),
        }
        with self._database.tx() as db:
            db.execute(Q["tune_floor"], params)

    def tune_languages(self, chat: str, languages: tuple[str, ...] | None, at: datetime) -> None:
        said = None if languages is None else " ".join(languages)
        with self._database.tx() as db:
            db.execute(Q["tune_languages"], {"chat": chat, "languages": said, "now": ts(at)})

    def tune_places(self, chat: str, places: tuple[str, ...] | None, at: datetime) -> None:
        said = None if places is None else "\n".join(places)
        with self._database.tx() as db:
            db.execute(Q["tune_places"], {"chat": chat, "places": said, "now": ts(at)})

    def count_held(self, counts: Mapping[str, Mapping[str, int]], now: datetime) -> None:
        fresh_after = ts(now - HELD_WINDOW)
        rows = [
            {"chat": chat, "now": ts(now), "fresh_after": fresh_after}
            | {layer: int(held.get(layer, 0)) for layer in LAYERS}
            for chat, held in counts.items()
        ]
        with self._database.tx() as db:
            db.executemany(Q["count_held"], rows)

    def reset_tuning(self, chat: str | None = None) -> int:
        with self._database.tx() as db:
            return sum(
                db.execute(Q[query], {"chat": chat}).rowcount
                for query in ("reset_words", "reset_settings", "reset_floors")
            )

    def mark(self, job_id: str, mark: str, now: datetime, chat: str = OWNER) -> str | None:
        with self._database.tx() as db:
            row = db.execute(Q["job_listing"], {"job_id": job_id, "chat": chat}).fetchone()
            if row is None:
                return None
            if mark == "dismissed":
                db.execute(Q["dismiss"], {"job_id": job_id, "chat": chat})
            listing = text(row, "listing")
            params = {
                "job_id": job_id,
                "chat": chat,
                "mark": mark,
                "listing": listing,
                "now": ts(now),
            }
            db.execute(Q["mark"], params)
            return str(json.loads(listing).get("title", ""))
