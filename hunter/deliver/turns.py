"""The subscribers' turns at delivery (issue 42): round robin over the subscribers with
listings waiting, one batch each and then the next, so that no subscriber waits behind
another's backlog; and each subscriber's `messages_per_day`. Read once per delivery, in two
reads whatever the number of subscribers (what waits, by chat; what each was sent today)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from datetime import datetime

from hunter.rules.destinations import Destinations
from hunter.settings.config import Config
from hunter.store import Store

DIGEST_AT = 3  # more listings than this waiting for a subscriber: a digest instead of cards


class Turns:
    def __init__(self) -> None:
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

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._waiting))

    def size(self, chat: str, per_push: int, digest_max: int, room: int) -> int:
        """How many listings `chat`'s next batch may hold: what its channel's push carries,
        or, for a subscriber with more than DIGEST_AT waiting, a digest's worth (one
        message, a line each); never past its day's listings left, nor `room`."""
        many = self._count.get(chat, 0) > DIGEST_AT and digest_max > per_push
        return min(room, digest_max if many else per_push, self._today.get(chat, room))

    def served(self, chat: str, listings: int) -> bool:
        """`chat` got a batch: its turn goes to the next. False once its day is over."""
        if chat not in self._today:
            return True  # not a subscriber's
        if chat in self._waiting:
            self._waiting.remove(chat)
            self._waiting.append(chat)
        self._today[chat] -= listings
        self._count[chat] = self._count.get(chat, 0) - listings
        return self._today[chat] > 0
