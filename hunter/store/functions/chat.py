"""What the chat keeps, over hunter's PostgreSQL functions (see hunter/store/chat.py)."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from hunter.rules.destinations import OWNER
from hunter.rules.filter_config import PayFloor
from hunter.rules.held import WINDOW as HELD_WINDOW
from hunter.store.chat import ChatStore, EventRow, event_payload
from hunter.store.columns import moment, text, whole_number
from hunter.store.functions.carrier import Document, FunctionCarrier


class FunctionChat(ChatStore):
    def __init__(self, database: FunctionCarrier) -> None:
        super().__init__(database)
        self._database = database

    def accept(self, events: Sequence[EventRow], worker: str, now: datetime) -> set[str]:
        document = Document(
            [{"event_id": e, "chat_id": chat, "payload": payload} for e, chat, payload in events]
        )
        rows = self._database.table(
            "hunter_accept_events", "event_id", events=document, worker=worker, now=now
        )
        return {text(row, "event_id") for row in rows}

    def hold(self, event_id: str, worker: str, now: datetime) -> bool:
        return bool(
            self._database.value("hunter_hold_event", event_id=event_id, worker=worker, now=now)
        )

    def handled(self, event_id: str, now: datetime) -> None:
        self._database.value("hunter_event_handled", event_id=event_id, now=now)

    def take_stranded(
        self, worker: str, now: datetime, held_before: datetime, limit: int
    ) -> list[dict[str, Any]]:
        rows = self._database.table(
            "hunter_take_stranded", worker=worker, now=now, held_before=held_before, limit=limit
        )
        rows.sort(key=lambda row: (moment(row, "received_at"), text(row, "event_id")))
        return [event_payload(row) for row in rows]

    def release(self, event_ids: Sequence[str], worker: str) -> None:
        self._database.value("hunter_release_events", event_ids=list(event_ids), worker=worker)

    def note_private(self, chat_id: str, now: datetime, told_before: datetime) -> bool:
        told = self._database.value(
            "hunter_note_private", chat_id=chat_id, now=now, before=told_before
        )
        return bool(told)

    def mute(self, word: str, until: datetime, now: datetime, chat: str = "") -> None:
        self._database.value("hunter_chat_mute", chat=chat, word=word, until=until, now=now)

    def unmute(self, word: str, chat: str | None = None) -> bool:
        return whole_number(self._database.value("hunter_chat_unmute", chat=chat, word=word)) > 0

    def tune_word(self, chat: str, word: str, op: str, at: datetime, cap: int) -> bool:
        return bool(
            self._database.value("hunter_tune_keyword", chat=chat, word=word, op=op, at=at, cap=cap)
        )

    def tune_languages(self, chat: str, languages: tuple[str, ...] | None, at: datetime) -> None:
        said = None if languages is None else " ".join(languages)
        self._database.value("hunter_tune_languages", chat=chat, languages=said, now=at)

    def count_held(self, counts: Mapping[str, Mapping[str, int]], now: datetime) -> None:
        rows = [
            {"chat": chat, **{k: int(v) for k, v in held.items()}} for chat, held in counts.items()
        ]
        self._database.value(
            "hunter_count_held", counts=Document(rows), now=now, window=HELD_WINDOW
        )

    def tune_places(self, chat: str, places: tuple[str, ...] | None, at: datetime) -> None:
        said = None if places is None else "\n".join(places)
        self._database.value("hunter_tune_places", chat=chat, places=said, now=at)

    def tune_settings(
        self, chat: str, at: datetime, min_budget: int | None = None, paused: bool | None = None
    ) -> None:
        self._database.value(
            "hunter_tune_settings", chat=chat, budget=min_budget, paused=paused, now=at
        )

    def tune_floor(self, chat: str, floor: PayFloor, at: datetime) -> None:
        self._database.value(
            "hunter_tune_floor",
            chat=chat,
            currency=floor.currency,
            period=floor.period,
            amount=floor.amount,
            now=at,
        )

    def drop_removals(self, before: datetime, keep: Collection[str]) -> int:
        dropped = self._database.value(
            "hunter_drop_removals", before=before, keep=json.dumps(sorted(keep))
        )
        return whole_number(dropped)

    def reset_tuning(self, chat: str | None = None) -> int:
        return whole_number(self._database.value("hunter_reset_tuning", chat=chat))

    def mark(self, job_id: str, mark: str, now: datetime, chat: str = OWNER) -> str | None:
        title = self._database.value(
            "hunter_mark_in_chat", job_id=job_id, chat=chat, mark=mark, now=now
        )
        return None if title is None else str(title)
