"""The store port: everything hunter asks of its database (the answers' shapes: records.py).

Adapters (sqlite.py, postgres.py, supabase.py) implement the abstract methods; each claim is
decided by the database in one statement or one locked transaction, never by a read-then-write
in Python. The contract suite in tests/contract runs the same tests against every adapter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from hunter.listing import Listing
from hunter.pace import Pace, PaceState
from hunter.states import OUTBOX
from hunter.store.records import (
    Claimed,
    Failure,
    Marked,
    OutboxRow,
    SourceNote,
    SourceRow,
    SourceState,
    StatusReport,
    pace_state,
)
from hunter.store.rows import (
    Row,
    document,
    integer,
    moment,
    optional_integer,
    optional_moment,
    optional_text,
    text,
    utc,
)

PRUNE_BATCH = 5_000


class Store(ABC):
    """One database holding hunter's rows. Times passed in are aware datetimes."""

    dialect: str

    # -- lifecycle ---------------------------------------------------------------------------
    @abstractmethod
    def migrate(self) -> None:
        """Create or upgrade hunter's tables and functions (idempotent, safe to race)."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def schema_version(self) -> int:
        """The hunter schema version the database holds (0: none)."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the poll ----------------------------------------------------------------------------
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
    ) -> dict[str, int]:
        """Insert new listings, refresh known ones; returns new rows per status.

        New rows are `primed` when the source was never primed (or `prime` is set), else
        `pending` (matched) or `ignored`. A source is primed once it showed any listing.
        Flood guard: when a primed source shows more than `flood` (> 0) new listings, they
        are all recorded `primed`, `flood_notice` is queued with "%s" in its title replaced
        by their number, and the result holds {"flood": that number}."""

    @abstractmethod
    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        """Up to `limit` pending rows, now `sending` by `worker` under retry key `key`."""

    @abstractmethod
    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        """One existing batch, whole, keeping its key: a due retry, a due probe of a parked
        batch, or a batch whose lease expired before `lease_before`. Empty when none."""

    @abstractmethod
    def save_batch(self, key: str, body: str, now: datetime) -> None:
        """Keep the request body of batch `key` (before its first push; first write wins)."""

    @abstractmethod
    def mark_sent(self, key: str, now: datetime) -> int:
        """LINE accepted `key`: its rows are sent; parked batches are re-queued (returned)."""

    @abstractmethod
    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        """The rows of `key` still owned by `worker` take the failure's status (retry, stuck,
        pending: a batch sent back to pending gives up its key, since LINE never took it)."""

    @abstractmethod
    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        """Move the rows of `key` into new batches (new key, ids), due now."""

    @abstractmethod
    def note_sources(
        self, notes: Sequence[SourceNote], now: datetime, broken_after: int
    ) -> list[str]:
        """Write each source's poll and health; queue the notice of each source that became
        broken (`broken_after` bad polls in a row) or recovered. Returns their names."""

    @abstractmethod
    def lease_sources(
        self, names: Sequence[str], worker: str, now: datetime, until: datetime
    ) -> set[str]:
        """Of `names`, the sources `worker` may poll now, each leased to it until `until`:
        those nobody holds, whose lease ran out, or that it holds already."""

    @abstractmethod
    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        """True for exactly one caller when the last prune is older than `every`."""

    @abstractmethod
    def prune_batch(self, before: datetime, limit: int) -> int: ...

    @abstractmethod
    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        """Stuck rows (all, or these) back to pending; returns the ids moved."""

    @abstractmethod
    def enqueue(self, notice: Listing, now: datetime) -> bool:
        """Queue a notice of hunter's own for delivery; False when its id was queued before."""

    @abstractmethod
    def claim_push(self, pace: Pace, now: datetime) -> PaceState:
        """Spend one push of the month's allowance if `pace` allows it (the database decides,
        one caller at a time); the pace row after the claim, `granted` saying whether it did."""

    # -- the chat (hunter/chat.py) -------------------------------------------------------------
    @abstractmethod
    def claim_event(self, event_id: str, now: datetime) -> bool:
        """True for exactly one caller per LINE webhook event id (redelivered or not)."""

    @abstractmethod
    def mute(self, word: str, until: datetime, now: datetime) -> None:
        """Listings matching only muted include keywords are recorded as ignored until then."""

    @abstractmethod
    def unmute(self, word: str) -> bool:
        """Lift a mute; False when the word was not muted."""

    @abstractmethod
    def mark(self, job_id: str, mark: str, now: datetime) -> str | None:
        """Mark a listing `dismissed` (it is never sent, if it still waits) or `applied`;
        its title, or None when the id is unknown."""

    @abstractmethod
    def _rows(self, name: str, **params: Any) -> list[Row]:
        """Rows of the named read-only query, by column name. A query of one value answers
        one row whose column is named `value`."""

    def _one(self, name: str, **params: Any) -> Row:
        """The row of a one-value query (NULL when it found none)."""
        rows = self._rows(name, **params)
        return rows[0] if rows else {"value": None}

    # -- built on the above, the same for every adapter ----------------------------------
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

    def count_pending(self) -> int:
        return integer(self._one("count_pending"), "value")

    def next_due(self) -> datetime | None:
        return optional_moment(self._one("next_due"), "value")

    def mutes(self, now: datetime) -> dict[str, datetime]:
        """Muted keywords (case-folded) and when each mute ends."""
        rows = self._rows("mutes", now=self._param_time(now))
        return {text(r, "word"): moment(r, "until") for r in rows}

    def marks(self, mark: str) -> list[Marked]:
        return [Marked.from_row(r) for r in self._rows("marks", mark=mark)]

    def recent_sent(self, limit: int) -> list[Listing]:
        """The listings sent last, newest first."""
        return [
            Listing.from_payload(text(r, "job_id"), document(r, "listing"))
            for r in self._rows("recent_sent", limit=limit)
        ]

    def pace_state(self) -> PaceState | None:
        """The pace row, or None before the first paced push."""
        rows = self._rows("pace")
        return pace_state(rows[0]) if rows else None

    def sources(self) -> list[SourceRow]:
        """Every source's row: its last poll, count, error and health."""
        return [SourceRow.from_row(row) for row in self._rows("sources")]

    def source_states(self) -> dict[str, SourceState]:
        states = (SourceState.from_row(row) for row in self._rows("sources"))
        return {state.name: state for state in states}

    def job_states(self) -> dict[str, str]:
        return {text(r, "job_id"): text(r, "status") for r in self._rows("job_states")}

    def outbox_counts(self) -> dict[str, int]:
        outbox: dict[str, int] = dict.fromkeys(OUTBOX, 0)
        outbox.update({text(r, "status"): integer(r, "n") for r in self._rows("outbox_counts")})
        return outbox

    def status(self, now: datetime, limit: int = 100) -> StatusReport:
        since = self._param_time(now - timedelta(hours=24))
        sent = optional_integer(self._one("sent_since", since=since), "value")
        meta = {text(r, "key"): text(r, "value") for r in self._rows("meta")}
        return StatusReport(
            outbox=self.outbox_counts(),
            sent_last_24h=sent or 0,
            rows=[OutboxRow.from_row(r) for r in self._rows("outbox_rows", limit=limit)],
            sources=self.sources(),
            last_prune_at=utc(meta.get("last_prune_at")),
            meta=meta,
            pace_state=self.pace_state(),
        )

    def _param_time(self, value: datetime) -> object:
        return value
