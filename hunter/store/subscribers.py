"""The subscribers room: the chats that joined from their phone, where hunter.toml
lets strangers join (`[subscribers]`), and how many came and went.

A subscriber is keyed by its chat's id on its channel ("telegram:123", a LINE id): the same
text is the `chat` of its outbox rows and of its keywords, so everything hunter holds about
it is found, and forgotten, by that one key. [[chats]] are named with 1-32 ASCII letters and
the owner's chat is '', so neither is ever a subscriber's key.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from hunter.store.columns import Row, integer, moment, optional_moment, optional_text, text
from hunter.store.room import Room

NEVER = datetime(1970, 1, 1, tzinfo=UTC)  # a turn never taken before
# An ask nobody answered expires after this (027_turns.sql): it no longer counts against
# `max`, and a Start asks again. Asks fill at most half of `max`.
ASKS_EXPIRE = timedelta(days=7)


class Joined(StrEnum):
    """What a Start came to."""

    JOINED = "joined"  # in, from now on
    ASKED = "asked"  # waiting for the owner's Approve
    MEMBER = "member"  # was in already
    WAITING = "waiting"  # had asked already
    FULL = "full"  # `max` chats are in or waiting: not now


NAME_MOST = 64  # characters of a name kept for the owner's card (a stranger writes it)


def kept_name(name: str | None) -> str | None:
    """A stranger's name as the store keeps it: on one line, at most NAME_MOST characters
    (shown_name removes bidirectional controls when it is shown); None for none."""
    kept = " ".join((name or "").split())[:NAME_MOST]
    return kept or None


class Standing(StrEnum):
    ASKED = "asked"
    ACTIVE = "active"


@dataclass(frozen=True)
class Subscriber:
    chat: str  # its id on its channel, and its rows' chat
    standing: Standing
    joined_at: datetime  # when it joined, or asked to
    started_by: str = ""  # who pressed Start (a user's id on its channel), where known

    @property
    def active(self) -> bool:
        return self.standing is Standing.ACTIVE


@dataclass(frozen=True)
class Membership:
    """The status's counts: subscribers in, waiting for the owner, joins and leaves since the
    time asked; the oldest listing waiting for a subscriber, and the listings subscribers were
    sent lately."""

    active: int = 0
    asked: int = 0
    joined: int = 0
    left: int = 0
    oldest_waiting: datetime | None = None
    sent_recently: int = 0


def _subscriber(row: Row) -> Subscriber:
    return Subscriber(
        text(row, "chat"),
        Standing(text(row, "status")),
        moment(row, "joined_at"),
        optional_text(row, "started_by") or "" if "started_by" in row else "",
    )


class SubscriberStore(Room):
    def join(
        self,
        chat: str,
        asked: bool,
        most: int,
        now: datetime,
        by: str | None = None,
        name: str | None = None,
    ) -> Joined:
        """`chat` joins (`asked`: asks the owner to let it), started by `by` (the user's id
        on its channel, where the channel says: in a group, only they or its admins change
        it), called `name` (kept while it waits, for the owner's card, as kept_name cuts it).
        Decided by the database, so that of any number of Starts at once, on any replicas,
        at most `most` chats are in or waiting (an ask of the last ASKS_EXPIRE), asks at most
        half of them."""
        return self._join(chat, asked, most, now, by, kept_name(name) if asked else None)

    @abstractmethod
    def _join(
        self, chat: str, asked: bool, most: int, now: datetime, by: str | None, name: str | None
    ) -> Joined:
        """`join` in the database: `name` as it is kept (None unless the chat asks)."""

    @abstractmethod
    def approve(self, chat: str, now: datetime) -> bool:
        """The owner lets in a chat that asked; False when it was not waiting."""

    @abstractmethod
    def leave(self, chat: str, now: datetime) -> bool:
        """`chat` ends it (or the owner refuses it): nothing more is sent, what waited for it
        goes. Its keywords stay until it is forgotten. False when it was not in or waiting."""

    @abstractmethod
    def forget(self, chat: str) -> int:
        """Every row hunter holds about `chat`, in every table, gone: how many."""

    @abstractmethod
    def move(self, old: str, new: str, now: datetime) -> bool:
        """The subscriber `old` is `new` from now on (a Telegram group that became a
        supergroup): its words, settings and rows move, and what got stuck on the old id
        goes again; anything held about `new` before is forgotten. False when `old` is no
        subscriber's."""

    @abstractmethod
    def take_turn(
        self, key: str, now: datetime, every: timedelta, newest: datetime
    ) -> datetime | None:
        """The turn `key` (the owner's card of the chats that ask: chat/asks.py) taken now,
        when the last one was `every` ago or more and something happened since it (`newest`
        after it): the last one's time (NEVER the first time); None when not taken. Decided
        by the database, so that of any number of replicas one takes it; kept apart from
        every chat's rows, so that a /forget does not reset it."""

    @abstractmethod
    def prune(self, before: datetime) -> list[str]:
        """Forget the chats that left, or asked and were never let in, before `before`, and
        the counts of joins and leaves older than that; the chats forgotten."""

    def asker_names(self) -> dict[str, str]:
        """The chats waiting for the owner that gave a name with their Start, with it."""
        return {text(r, "chat"): text(r, "name") for r in self._rows("asker_names")}

    def all(self) -> list[Subscriber]:
        """The chats in or waiting, the oldest first."""
        return [_subscriber(r) for r in self._rows("subscribers")]

    def of(self, chat: str) -> Subscriber | None:
        """`chat` as a subscriber (in, or waiting), or None: one row, for one chat's event."""
        rows = self._rows("subscriber", chat=chat)
        return _subscriber(rows[0]) if rows else None

    def counts(self, since: datetime, recent: datetime | None = None) -> Membership:
        """The counts, joins and leaves since `since`, listings sent since `recent`."""
        row = self._one("membership", since=self._time(since), recent=self._time(recent or since))
        if "active" not in row:
            return Membership()
        return Membership(
            integer(row, "active"),
            integer(row, "asked"),
            integer(row, "joined"),
            integer(row, "gone"),
            optional_moment(row, "oldest_waiting"),
            integer(row, "sent_recently"),
        )
