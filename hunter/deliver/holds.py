"""Whom a refusal holds for the rest of one delivery: a chat (its rate limit) or a channel
(its quota, its token, an outage, a limit of the channel as a whole), and until when.

The deliverer pushes to nobody held. A due batch of a held chat met meanwhile would meet the
same answer: it is kept claimed (so the delivery does not meet it again), its key and body
unchanged, and handed back when the delivery ends, as a retry due when the refusal is over,
with no attempt counted. Every other chat and channel is served as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from hunter.deliver.outcome import Scope
from hunter.store import Claimed
from hunter.store.records import Failure
from hunter.store.states import ErrorKind, RowStatus

HOLD_SECONDS = 300.0  # how long a channel is held when its refusal names no time (the last step)


@dataclass
class Holds:
    chats: dict[str, datetime] = field(default_factory=dict)
    channels: dict[str, datetime] = field(default_factory=dict)
    kept: list[tuple[str, datetime]] = field(default_factory=list)  # (retry key, due again)

    def add(self, scope: Scope, chat: str, channel: str, until: datetime) -> None:
        held, name = (self.chats, chat) if scope is Scope.CHAT else (self.channels, channel)
        held[name] = max(until, held.get(name, until))

    def until(self, chat: str, channel: str) -> datetime | None:
        """When the refusal that holds `chat` (of `channel`) is over; None: nothing holds it."""
        times = [t for t in (self.chats.get(chat), self.channels.get(channel)) if t]
        return max(times) if times else None

    def keep(self, batch: list[Claimed], channel: str) -> bool:
        """True, and the batch kept, when its chat is held."""
        until = self.until(batch[0].chat, channel)
        if until is not None:
            self.kept.append((batch[0].retry_key, until))
        return until is not None

    def hand_back(self, local: Callable[[datetime], str]) -> Iterator[tuple[str, Failure]]:
        """What the kept batches' rows become: retries due when their refusal is over
        (`local` says that moment in the owner's time)."""
        for key, until in self.kept:
            why = f"waiting for its chat to take pushes again (from {local(until)})"
            yield key, Failure(RowStatus.RETRY, ErrorKind.TRANSIENT, why, until, False)
        self.kept.clear()
