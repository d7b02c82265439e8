"""The subscribers' turns at delivery: round robin over the subscribers with
listings waiting, one batch each and then the next, so that no subscriber waits behind
another's backlog; and each subscriber's `messages_per_day`. Read once per delivery, in two
reads whatever the number of subscribers (what waits, by chat; what each was sent today)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from datetime import datetime

from hunter.rules.destinations import Destinations
from hunter.settings.config import Config
from hunter.store import Store

DIGEST_AT = 3  # more listings than this waiting for a subscriber: a digest instead of cards
# Seconds one delivery spends on the subscribers: the rest go with the next, a few seconds
# later (`hunter run` wakes at once), so that a fan-out of thousands never holds up a read.
SUBSCRIBERS_SECONDS = 60.0


class Turns:
    def __init__(self, seconds: float = SUBSCRIBERS_SECONDS) -> None:
        """`seconds`: what one delivery spends on the subscribers at most."""
        self._seconds = seconds
        self._until: float | None = None  # set by the first subscriber's batch
        self.cut_short = False  # subscribers' listings were left for the next delivery
        self._waiting: deque[str] = deque()  # the subscribers with listings waiting, in turn
        self._today: dict[str, int] = {}  # listings each may still get today
        self._count: dict[str, int] = {}  # listings waiting for each

    def begin(
        self, config: Config, store: Store, destinations: Destinations, now: datetime
    ) -> tuple[Destinations, set[str]]:
        """Read the subscribers in and their turns: `destinations` with them, and those that
        had their day's messages (they wait for tomorrow). Nothing is read where strangers
        may not join."""
        self._waiting, self._today, self._count = deque(), {}, {}
        self._until = None  # the time counts from the first subscriber's batch
        self.cut_short = False  # subscribers' listings were left for the next delivery
        if not config.subscribers.open:
            return destinations, set()
        joined = [s.chat for s in store.subscribers.all() if s.active]
        destinations = destinations.with_subscribers(joined)
        waiting = store.outbox.pending_by_chat()
        sent = store.outbox.sent_by_chat(config.calendar.day_start(now)) if waiting else {}
        most = config.subscribers.messages_per_day
        self._today = {c: most - sent.get(c, 0) for c in destinations.subscribers}
        self._waiting = deque(c for c in sorted(destinations.subscribers) if c in waiting)
        self._count = {c: waiting[c] for c in self._waiting}
        return destinations, {chat for chat, left in self._today.items() if left <= 0}

    @property
    def open(self) -> bool:
        """Whether a subscriber may be served now: one waits, and the call's time is not up."""
        if self._waiting and self._until is not None and time.monotonic() > self._until:
            self.cut_short = True
        return bool(self._waiting) and not self.cut_short

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._waiting) if self.open else [])

    def has(self, chat: str) -> bool:
        """Whether `chat` is a subscriber's (in at this delivery's start)."""
        return chat in self._today

    def size(self, chat: str, per_push: int, digest_max: int, room: int) -> int:
        """How many listings `chat`'s next batch may hold: what its channel's push carries,
        within `room` for hunter.toml's chats; for a subscriber, a digest's worth when more
        than DIGEST_AT wait (one message, a line each), within its day's listings left."""
        if chat not in self._today:  # hunter.toml's chats: within `room`
            return min(room, per_push)
        many = self._count.get(chat, 0) > DIGEST_AT and digest_max > per_push
        return min(digest_max if many else per_push, self._today[chat])

    def served(self, chat: str, listings: int) -> bool:
        """`chat` got a batch: its turn goes to the next. False once its day is over."""
        if chat not in self._today:
            return True  # not a subscriber's
        if self._until is None:
            self._until = time.monotonic() + self._seconds
        if chat in self._waiting:
            self._waiting.remove(chat)
            self._waiting.append(chat)
        self._today[chat] -= listings
        self._count[chat] = self._count.get(chat, 0) - listings
        return self._today[chat] > 0
