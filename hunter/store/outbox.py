"""The outbox: every listing seen, what waits to be sent, what is in flight, what was sent.

The rows of hunter_seen_jobs and their batches (their states: store/states.py). Claims are
decided by the database: a row is `sending` for exactly one worker under one retry key.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from hunter.rules.listing import Listing
from hunter.store.columns import (
    Row,
    document,
    integer,
    optional_integer,
    optional_moment,
    optional_text,
    real,
    text,
    utc,
)
from hunter.store.records import ChatMatches, Claimed, Failure, OutboxRow, SentTimes
from hunter.store.room import Room
from hunter.store.states import OUTBOX

PRUNE_BATCH = 5_000


class OutboxStore(Room, ABC):
    @abstractmethod
    def record(
        self,
        source: str,
        listings: Sequence[Listing],
        matched: set[str],
        now: datetime,
        prime: bool = False,
        flood: int = 0,
        flood_notice: Listing | None = None,
        chats: ChatMatches | None = None,
    ) -> dict[str, int]:
        """Insert new listings, refresh known ones; returns new rows per status.

        New rows are `primed` when the source was never primed (or `prime` is set), else
        `pending` (matched) or `ignored`. `prime` makes the shown listings' waiting rows
        (pending, retry, stuck) `primed` too: a person decided; the result's "unsent" says
        how many, for the person to read. A row whose delivery is unknown stays stuck: it
        may have reached the chat, and `hunter retry` decides (a new user's find). A source
        is primed once it showed any listing.
        Flood guard: when a primed source shows more than `flood` (> 0) new listings and
        none it showed before (it renumbered, or its url changed), they are all recorded
        `primed`, `flood_notice` is queued with "%s" in its title replaced by their number,
        and the result holds {"flood": that number}. New listings above known ones are a
        burst, recorded as any new listing.
        `chats`: the [[chats]] each listing matches; a new listing of a primed source (not a
        flood) gets a pending row for each, keyed by its id and the chat (the result's
        "chats": how many)."""

    @abstractmethod
    def claim_new(
        self, worker: str, key: str, limit: int, now: datetime, chat: str = ""
    ) -> list[Claimed]:
        """Up to `limit` pending rows of `chat`, now `sending` by `worker` under retry key
        `key` (a batch goes to one chat)."""

    @abstractmethod
    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        """One existing batch, whole, keeping its key: a due retry, a due probe of a parked
        batch, or a batch whose lease expired before `lease_before`. Empty when none."""

    @abstractmethod
    def save_batch(self, key: str, body: str, now: datetime) -> None:
        """Keep the request body of batch `key` (before its first push; first write wins)."""

    @abstractmethod
    def mark_sent(self, key: str, now: datetime, ref: str | None = None) -> int:
        """The channel took `key`: its rows are sent (`ref`: the channel's id of the message,
        kept to edit it); parked batches are re-queued (returned)."""

    @abstractmethod
    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        """The rows of `key` still owned by `worker` take the failure's status (retry, stuck,
        pending: a batch sent back to pending gives up its key, since the channel never took it)."""

    @abstractmethod
    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        """Move the rows of `key` into new batches (new key, ids), due now."""

    @abstractmethod
    def enqueue(self, notice: Listing, now: datetime, chat: str = "") -> bool:
        """Queue a notice of hunter's own for delivery to `chat` (the owner's by default);
        False when its id was queued for that chat before."""

    @abstractmethod
    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        """Stuck rows (all, or these) back to pending; returns the ids moved."""

    @abstractmethod
    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        """True for exactly one caller when the last prune is older than `every`."""

    @abstractmethod
    def prune_batch(self, before: datetime, limit: int) -> int: ...

    def prune(self, before: datetime) -> int:
        """Delete done rows not seen since `before`, in short batches (no long lock)."""
        total = 0
        while True:
            deleted = self.prune_batch(before, PRUNE_BATCH)
            total += deleted
            if deleted < PRUNE_BATCH:
                return total

    def batch_body(self, key: str) -> str | None:
        return optional_text(self._one("batch_body", key=key), "value")

    def note_attempt(self, key: str, attempt: int, now: datetime) -> bool:
        """Write down that attempt `attempt` of batch `key` is about to be made (a channel
        that cannot be asked twice safely); False when it was written before: that attempt
        was never answered, and may have arrived. Kept beside the batches' bodies, as
        "<key>#attempt-<n>", so the prune and a chat's /forget take it with its batch."""
        mark = f"{key}#attempt-{attempt}"
        if self.batch_body(mark) is not None:
            return False
        self.save_batch(mark, "[]", now)
        return True

    def count_pending(self, chat: str | None = None) -> int:
        """Rows waiting to be sent: all, or one chat's."""
        by_chat = self.pending_by_chat()
        return sum(by_chat.values()) if chat is None else by_chat.get(chat, 0)

    def pending_by_chat(self) -> dict[str, int]:
        return {text(r, "chat"): integer(r, "n") for r in self._rows("pending_by_chat")}

    def waiting_by_chat(self) -> dict[str, dict[str, int]]:
        """Each chat's rows not sent, by state: pending, retry, stuck (none: absent)."""
        found: dict[str, dict[str, int]] = {}
        for r in self._rows("waiting_by_chat"):
            found.setdefault(text(r, "chat"), {})[text(r, "status")] = integer(r, "n")
        return found

    def sent_by_chat(self, since: datetime) -> dict[str, int]:
        """Listings each chat was sent since `since` (hunter's own notices not counted)."""
        rows = self._rows("sent_by_chat", since=self._time(since))
        return {text(r, "chat"): integer(r, "n") for r in rows}

    def next_due(self) -> datetime | None:
        return optional_moment(self._one("next_due"), "value")

    def look(self, now: datetime, lease_before: datetime) -> tuple[bool, datetime | None]:
        """Whether anything may be claimed now (a new row, a retry due, a batch whose sender
        died before `lease_before`), and when the next retry is due: one round trip, so that
        a quiet run claims nothing."""
        row = self._one("outbox_look", now=self._time(now), lease_before=self._time(lease_before))
        return looked(row)

    def job_states(self, chat: str = "") -> dict[str, str]:
        """The state of each row of `chat` ('' the owner's), by listing id."""
        rows = self._rows("job_states", chat=chat)
        return {text(r, "job_id"): text(r, "status") for r in rows}

    def counts(self) -> dict[str, int]:
        """How many rows are in each state of the outbox (pending, sending, retry, stuck)."""
        outbox: dict[str, int] = dict.fromkeys(OUTBOX, 0)
        outbox.update({text(r, "status"): integer(r, "n") for r in self._rows("outbox_counts")})
        return outbox

    def rows(self, limit: int) -> list[OutboxRow]:
        """The rows still in the outbox, in the order status shows them."""
        return [OutboxRow.from_row(r) for r in self._rows("outbox_rows", limit=limit)]

    def sent_since(self, since: datetime) -> int:
        return optional_integer(self._one("sent_since", since=self._time(since)), "value") or 0

    def sent_times(self, since: datetime, limit: int = 20_000) -> list[SentTimes]:
        """Each listing sent since `since` (hunter's notices aside), newest first, at most
        `limit`: its source, when its board says it was posted, first seen, and sent."""
        return [
            SentTimes(
                text(r, "source"),
                optional_text(r, "posted") or "",
                datetime.fromtimestamp(round(real(r, "found_s"), 3), UTC),
                datetime.fromtimestamp(round(real(r, "sent_s"), 3), UTC),
            )
            for r in self._rows("sent_rows_since", since=self._time(since), limit=limit)
        ]

    def recent_sent(self, limit: int, chat: str = "") -> list[Listing]:
        """The listings sent last to `chat`, newest first."""
        return [
            Listing.from_payload(text(r, "job_id"), document(r, "listing"))
            for r in self._rows("recent_sent_chat", limit=limit, chat=chat)
        ]


def looked(row: Row) -> tuple[bool, datetime | None]:
    """An outbox look's row (OutboxStore.look, SourceStore.look): claimable, next due."""
    return bool(row.get("claimable")), utc(row.get("next_due"))
