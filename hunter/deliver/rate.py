"""A channel's pace for the whole bot, kept by every replica together.

Telegram allows one bot about 30 messages a second in all (core.telegram.org/bots/faq). One
sender kept 28 a second for itself; three replicas on one database, or a replica's
deliveries and its chat's answers, kept 28 each and passed the bot's 30 together, and each
message past it was a 429. So a channel that declares `per_second` takes its moments to send
from the store: a block of them at a time (a quarter of a second's worth), each block from
the first moment no sender holds (one row per channel, one statement: the database orders
the takers). A replica alone takes a block every quarter second while it sends; a replica
that sends nothing takes none.

A sender takes what it sends (medium 8): its first block is one moment, and the
next doubles while it keeps sending and uses up each block, up to the quarter second's worth;
after a pause, or a block whose moments went by unused, it takes one again. A chat's
answer, now and then, took a block of 7 moments and used one: 3.6 answers a second held 25 of
the bot's 28 moments and cut delivery to 15 a second.

PostgreSQL times the moments by its own clock (sql/postgres/027_turns.sql) and answers each in
the sender's: a replica whose clock runs fast no longer takes the moments ahead of everyone.
SQLite's file is one machine's, with one clock. When the store cannot be reached, the sender
keeps the pace for itself, as before: a lost database never stops delivery.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from hunter.errors import StoreError

if TYPE_CHECKING:
    from hunter.store import Store

log = logging.getLogger("hunter")

BLOCK_SECONDS = 0.25  # the moments one take holds: a quarter of a second's worth
LONGEST_WAIT = 5.0  # a moment further off than this is a clock's mistake: never waited out
ALONE_SECONDS = 30.0  # the store could not be reached: asked again after this long

Take = Callable[[str, int, float, float], float]  # (channel, count, gap, now) -> first moment


class SharedRate:
    """The moments one sender may send at, taken from the store a block at a time."""

    def __init__(
        self, take: Take, channel: str, per_second: float, clock: Callable[[], float] = time.time
    ) -> None:
        self._take = take
        self._channel = channel
        self.gap = 1 / per_second
        self._count = max(1, round(per_second * BLOCK_SECONDS))  # a block's most
        self._size = 1  # the last block's moments: one, doubling while each block is used up
        self._used = 0  # moments of the last block sent at
        self._clock = clock
        self._lock = threading.Lock()
        self._next = self._end = 0.0  # this sender's moments: [next, end), gap apart
        self._trip = 0.0  # how long the last take took: the next asks for moments after it
        self._alone_until = 0.0  # the store could not be reached: the pace is kept alone

    @property
    def shared(self) -> bool:
        """Whether the last block came from the store."""
        return self._alone_until == 0.0

    def delay(self) -> float:
        """Seconds until this sender's next moment to send, which is its own from now on."""
        with self._lock:
            now = self._clock()
            if self._next < now - self.gap:  # moments gone by unused are gone
                self._next += math.ceil((now - self._next) / self.gap) * self.gap
            if self._next > self._end - self.gap / 2:
                self._refill(now)
            moment = self._next
            self._next += self.gap
            self._used += 1
        return min(max(0.0, moment - now), LONGEST_WAIT)

    def _refill(self, now: float) -> None:
        """A new block: from the store, or kept alone for a while when it cannot be reached
        (a database that is down is not asked again for every message)."""
        first = max(now, self._end)
        # A block used up by a sender still sending asks for twice as many; after one whose
        # moments went by unused, or a pause (a chat's answer now and then), one.
        busy = self._used >= self._size and now <= self._end + self.gap
        self._size = min(self._count, self._size * 2) if busy else 1
        self._used = 0
        if now >= self._alone_until:
            try:
                first = self._take(self._channel, self._size, self.gap, now + self._trip)
            except StoreError as exc:
                if self.shared:
                    log.warning(
                        "%s's pace is kept by this process alone for now: %s", self._channel, exc
                    )
                self._alone_until = now + ALONE_SECONDS
            else:
                if not self.shared:
                    log.info("%s's pace is shared with the other replicas again", self._channel)
                self._alone_until = 0.0
                self._trip = min(max(0.0, self._clock() - now), BLOCK_SECONDS)
        self._next, self._end = first, first + self._size * self.gap


@runtime_checkable
class Rated(Protocol):
    """A channel with a pace for the whole bot: `per_second` messages at most."""

    name: str
    per_second: float

    def share_rate(self, rate: SharedRate) -> None:
        """Send at `rate`'s moments (`rate.delay()` before each message), not at a pace
        of its own."""
        ...


def share(channels: Sequence[object], store: Store) -> None:
    """Each channel of `channels` with a pace for the whole bot keeps it with every other
    sender of the store's, through the store."""
    for channel in channels:
        if isinstance(channel, Rated) and channel.per_second > 0:
            channel.share_rate(SharedRate(store.pace.take_slots, channel.name, channel.per_second))
