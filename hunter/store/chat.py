"""What the chat keeps (hunter/chat/): webhook events until handled, mutes and marks.

An event is kept before its channel gets its 200 (it does not send it again after that), held by
the worker that took it, and marked handled once answered. A worker that stops lets go of
what it did not start; one that dies holds its events until the hold runs out. Either way
another worker takes them over (`take_stranded`), so an accepted event is never lost, and an
event id is accepted once, whichever replica the channel reaches and however often it redelivers.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER
from hunter.rules.filter_config import PayFloor
from hunter.rules.held import LAYERS
from hunter.rules.listing import Listing
from hunter.rules.taste import LIKED, Tap
from hunter.store.columns import Row, document, flag, moment, optional_integer, text
from hunter.store.records import Marked
from hunter.store.room import Room

EVENT_MEMORY = timedelta(days=7)  # an event id is accepted once within this (hunter_accept_events)
EventRow = tuple[str, str | None, dict[str, Any]]  # (webhookEventId, chat id, the event's JSON)


class ChatStore(Room, ABC):
    @abstractmethod
    def accept(self, events: Sequence[EventRow], worker: str, now: datetime) -> set[str]:
        """Keep these events, held by `worker`; the ids that were new (the others were
        accepted before, here or by another replica, within the last 7 days)."""

    @abstractmethod
    def hold(self, event_id: str, worker: str, now: datetime) -> bool:
        """True while the event is still `worker`'s and not handled (renews the hold)."""

    @abstractmethod
    def handled(self, event_id: str, now: datetime) -> None:
        """The event is answered: it is never taken again."""

    @abstractmethod
    def take_stranded(
        self, worker: str, now: datetime, held_before: datetime, limit: int
    ) -> list[dict[str, Any]]:
        """Up to `limit` unhandled events nobody holds, or held since before `held_before`,
        now held by `worker`, oldest first: their JSON as the channel sent it."""

    @abstractmethod
    def release(self, event_ids: Sequence[str], worker: str) -> None:
        """`worker` lets go of these events (it stops before handling them)."""

    @abstractmethod
    def note_private(self, chat_id: str, now: datetime, told_before: datetime) -> bool:
        """True when `chat_id` should be told "this bot is private" now: it never was, or
        only before `told_before`. Exactly one caller gets True."""

    @abstractmethod
    def mute(self, word: str, until: datetime, now: datetime, chat: str = "") -> None:
        """Listings matching only muted include keywords are not sent to `chat` until then."""

    @abstractmethod
    def unmute(self, word: str, chat: str | None = None) -> bool:
        """Lift a mute in `chat` (None: in every chat); False when the word was not muted."""

    @abstractmethod
    def mark(self, job_id: str, mark: str, now: datetime, chat: str = OWNER) -> str | None:
        """Mark a listing of `chat`'s `dismissed` (it is never sent, if it still waits) or
        `applied`; its title, or None when `chat` has no row of that id (an unknown id, or
        another chat's: its own `chat` column decides, never the id's text)."""

    # Each change is stamped with the time it was said (the channel's timestamp of the command): a
    # change older than the one kept does nothing, so when two replicas handle "add w" and
    # "remove w" at once, the one said last wins, whichever is written last.
    @abstractmethod
    def tune_word(self, chat: str, word: str, op: str, at: datetime, cap: int) -> bool:
        """`chat` adds (`op` "add") or removes ("remove") an include keyword, case-folded;
        False when it would add more than `cap` keywords (nothing changes)."""

    @abstractmethod
    def drop_removals(self, before: datetime, keep: Collection[str]) -> int:
        """Forget the chats' removals of words made before `before`, but of a word in `keep`
        (hunter.toml's, case-folded): how many were forgotten."""

    @abstractmethod
    def tune_settings(
        self, chat: str, at: datetime, min_budget: int | None = None, paused: bool | None = None
    ) -> None:
        """`chat` sets its minimum budget (0: none) or pauses; None keeps what was set."""

    @abstractmethod
    def tune_languages(self, chat: str, languages: tuple[str, ...] | None, at: datetime) -> None:
        """`chat` reads `languages` (ISO 639-1 codes; () every language, None hunter.toml's)."""

    @abstractmethod
    def tune_places(self, chat: str, places: tuple[str, ...] | None, at: datetime) -> None:
        """`chat` can work in `places` (names; () every place, None hunter.toml's)."""

    @abstractmethod
    def count_held(self, counts: Mapping[str, Mapping[str, int]], now: datetime) -> None:
        """Add what each chat's places, languages and taps held back ({chat: {"place": n,
        "language": n, "taps": n}}) to its count of the last week (rules/held.py)."""

    @abstractmethod
    def tune_floor(self, chat: str, floor: PayFloor, at: datetime) -> None:
        """`chat` sets its floor for pay in `floor`'s currency and period (amount 0: none);
        baht for a whole job is `tune_settings`' min_budget."""

    @abstractmethod
    def reset_tuning(self, chat: str | None = None) -> int:
        """Drop what `chat` (None: every chat) changed; how many changes went."""

    def rules(self, now: datetime) -> dict[str, ChatRules]:
        """Every chat's changes over hunter.toml, and its mutes in force ('' for LINE_TO)."""
        return rules_from_rows(self._rows("chat_rules", now=self._time(now)))

    def mutes(self, now: datetime, chat: str = "") -> dict[str, datetime]:
        """`chat`'s muted keywords (case-folded) and when each mute ends."""
        rules = self.rules(now).get(chat)
        return rules.mutes if rules else {}

    def all_mutes(self, now: datetime) -> dict[str, dict[str, datetime]]:
        """Every chat's muted keywords, by chat ('' for LINE_TO)."""
        return {chat: rules.mutes for chat, rules in self.rules(now).items() if rules.mutes}

    def find(self, ids: Sequence[str], url: str | None) -> list[Row]:
        """The rows of a listing by its ids (each chat's) or its link: job_id, chat, status,
        listing, first_seen_at, sent_at, last_error."""
        return self._rows("find_listing", ids=list(ids), url=url)

    def recent(self, since: datetime, most: int) -> list[Listing]:
        """The listings first seen at or after `since`, newest first, at most `most` (what a
        chat's new rules would have brought: "try before you wait")."""
        rows = self._rows("recent_listings", since=self._time(since), most=most)
        return [Listing.from_payload(text(r, "job_id"), document(r, "listing")) for r in rows]

    def sources_linking(self, prefix: str) -> list[str]:
        """The sources whose listings link to pages under `prefix` ("https://host/")."""
        return [text(r, "source") for r in self._rows("sources_linking", prefix=prefix)]

    def marks(self, mark: str) -> list[Marked]:
        return [Marked.from_row(r) for r in self._rows("marks", mark=mark)]


def event_payload(row: Row) -> dict[str, Any]:
    """The kept JSON of a taken event (text on SQLite, a document elsewhere)."""
    value = row["payload"]
    document = json.loads(value) if isinstance(value, str) else value
    if not isinstance(document, dict):
        raise TypeError(f"a kept webhook event is {type(document).__name__}, not an object")
    return document


def rules_from_rows(rows: Iterable[Row]) -> dict[str, ChatRules]:
    """The rule rows (chat, kind, word, until, amount, flag), by chat."""
    parts: dict[str, dict[str, Any]] = {}
    for row in rows:
        chat, kind = text(row, "chat"), text(row, "kind")
        part = parts.setdefault(chat, {"mutes": {}, "added": [], "removed": []})
        if kind == "mute":
            part["mutes"][text(row, "word")] = moment(row, "until")
        elif kind in ("add", "remove"):
            part["added" if kind == "add" else "removed"].append(text(row, "word"))
        elif kind == "settings":
            said = row.get("word")
            part["languages"] = None if said is None else tuple(str(said).split())
            part["min_budget"] = optional_integer(row, "amount")
            part["paused"] = row.get("flag") is not None and flag(row, "flag")
        elif kind == "held":
            counts = [int(n) for n in text(row, "word").split()]
            part["held"] = dict(zip(LAYERS, counts, strict=False))
            part["held_since"] = moment(row, "until")
        elif kind == "tap":
            mark, _, said = text(row, "word").partition("\t")
            title, _, start = said.partition("\n")
            part.setdefault("taps", []).append(Tap(mark in LIKED, title, start))
        elif kind == "places":
            part["places"] = tuple(p for p in text(row, "word").split("\n") if p)
        elif kind == "floor":
            currency, _, period = text(row, "word").partition("/")
            floor = PayFloor(optional_integer(row, "amount") or 0, currency, period)
            part.setdefault("floors", []).append(floor)
    return {
        chat: ChatRules(
            mutes=part["mutes"],
            added=tuple(part["added"]),
            removed=tuple(part["removed"]),
            min_budget=part.get("min_budget"),
            paused=part.get("paused", False),
            floors=tuple(part.get("floors", ())),
            languages=part.get("languages"),
            places=part.get("places"),
            taps=tuple(part.get("taps", ())),
            held=part.get("held", {}),
            held_since=part.get("held_since"),
        )
        for chat, part in parts.items()
    }
