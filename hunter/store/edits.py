"""The alerts to edit: a later copy of a job merged into the alert a chat got is
kept on that alert's row ("also on <board>", read by records.listing_of_row), and where
the channel can edit what it sent, that alert's message is edited to say so. The rows are
the outbox's (hunter_seen_jobs: `also`, `sent_ref`, `edit_due_at`; migration 024), so the
prune and a chat's /forget take them too.

An edit is not a delivery: nothing is lost when one never happens (the copy is recorded, and
/why names its first), and making one twice shows the same message. So a claim is a lease
(a replica that dies editing leaves it to another after `stale`), not exactly once.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hunter.rules.listing import Listing
from hunter.store.columns import Row, moment, optional_text, text
from hunter.store.records import listing_of_row
from hunter.store.room import Room


@dataclass(frozen=True)
class Merged:
    """A copy merged into the alert `chat` got of `first_id`."""

    chat: str  # '' the owner's
    first_id: str
    source: str
    url: str


@dataclass(frozen=True)
class SentMessage:
    """A message a chat got, claimed to be edited: its listings as sent, each with the copies
    merged into it since (Listing.also_on)."""

    chat: str
    retry_key: str  # the batch it was (its rows' key)
    ref: str | None  # the channel's id of the message; None: it gave none (LINE, a reply)
    claimed_at: datetime  # the claim's own time, given back to done()
    listings: tuple[Listing, ...]


def sent_message(row: Row, listings: Sequence[Row]) -> SentMessage:
    return SentMessage(
        chat=text(row, "chat"),
        retry_key=text(row, "retry_key"),
        ref=optional_text(row, "sent_ref"),
        claimed_at=moment(row, "claimed_at"),
        listings=tuple(listing_of_row(x) for x in listings),
    )


class EditStore(Room):
    @abstractmethod
    def add(self, merged: Sequence[Merged], now: datetime) -> int:
        """Keep each copy on its first's row (not twice, the first ALSO_KEPT), its message's
        edit due now; one call for a read's copies. How many rows changed."""

    @abstractmethod
    def claim(self, now: datetime, stale: datetime, limit: int) -> list[SentMessage]:
        """Up to `limit` sent messages whose edit is due and not claimed since `stale`, now
        claimed, each with its listings as they are now."""

    @abstractmethod
    def done(self, message: SentMessage, retry_at: datetime | None = None) -> int:
        """The edit of `message` made or given up (retry_at None), or to be tried at
        `retry_at`; a copy merged into it since its claim stays due."""
