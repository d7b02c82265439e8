"""The store port: everything hunter asks of its database, and what the answers look like.

Adapters (sqlite.py, postgres.py, supabase.py) implement the abstract methods; each claim is
decided by the database in one statement or one locked transaction, never by a read-then-write
in Python. The contract suite in tests/contract runs the same tests against every adapter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from hunter.listing import Listing
from hunter.pace import Pace, PaceState
from hunter.policy import Decision
from hunter.states import OUTBOX, ErrorKind, RowStatus
from hunter.store.rows import (
    Row,
    document,
    integer,
    moment,
    optional_integer,
    optional_moment,
    optional_text,
    real,
    text,
    utc,
)

PRUNE_BATCH = 5_000


@dataclass(frozen=True)
class Claimed:
    """A row this worker owns for one push."""

    job_id: str
    listing: Listing
    retry_key: str
    retry_key_at: datetime
    attempts: int

    @classmethod
    def from_row(cls, row: Row) -> Claimed:
        """From a claimed row as any adapter reads it."""
        job_id = text(row, "job_id")
        return cls(
            job_id=job_id,
            listing=Listing.from_payload(job_id, document(row, "listing")),
            retry_key=text(row, "retry_key"),
            retry_key_at=moment(row, "retry_key_at"),
            attempts=integer(row, "attempts"),
        )


def claimed(rows: Iterable[Row]) -> list[Claimed]:
    """Claimed rows in job id order, whatever order the database returned them in."""
    return sorted((Claimed.from_row(row) for row in rows), key=lambda c: c.job_id)


@dataclass(frozen=True)
class SourceNote:
    """What one poll of one source came to, for its row in hunter_sources."""

    name: str
    count: int | None  # listings parsed; None when nothing was parsed
    error: str | None = None
    good: bool | None = None  # health verdict: True good, False bad, None no verdict
    etag: str | None = None
    last_modified: str | None = None
    validated_url: str | None = None
    keep_validators: bool = False
    not_before: datetime | None = None
    broken_notice: Listing | None = None  # queued when this note makes the source broken
    recovered_notice: Listing | None = None  # queued when this note ends a broken spell

    def document(self) -> dict[str, Any]:
        def notice(listing: Listing | None) -> dict[str, Any] | None:
            if listing is None:
                return None
            return {"job_id": listing.job_id, "listing": listing.payload()}

        return {
            "name": self.name,
            "count": self.count,
            "error": self.error,
            "good": self.good,
            "etag": self.etag,
            "last_modified": self.last_modified,
            "validated_url": self.validated_url,
            "keep_validators": self.keep_validators,
            "not_before": self.not_before.isoformat() if self.not_before else None,
            "broken_notice": notice(self.broken_notice),
            "recovered_notice": notice(self.recovered_notice),
        }


@dataclass(frozen=True)
class SourceState:
    """What the store remembers of a source between polls (and restarts)."""

    name: str
    primed: bool = False
    last_good_at: datetime | None = None
    fail_streak: int = 0
    broken_at: datetime | None = None
    etag: str | None = None
    last_modified: str | None = None
    validated_url: str | None = None
    not_before: datetime | None = None

    @classmethod
    def from_row(cls, row: Row) -> SourceState:
        return cls(
            name=text(row, "name"),
            primed=row["primed_at"] is not None,
            last_good_at=optional_moment(row, "last_good_at"),
            fail_streak=integer(row, "fail_streak"),
            broken_at=optional_moment(row, "broken_at"),
            etag=optional_text(row, "etag"),
            last_modified=optional_text(row, "last_modified"),
            validated_url=optional_text(row, "validated_url"),
            not_before=optional_moment(row, "not_before"),
        )


@dataclass(frozen=True)
class Failure:
    """A failed push's outcome as the store writes it on the batch's rows."""

    status: RowStatus  # retry, stuck or pending
    error_kind: ErrorKind | None
    error: str | None
    next_at: datetime | None  # the next attempt (a retry, or the probe of a parked batch)
    count_attempt: bool

    @classmethod
    def of(cls, decision: Decision, now: datetime) -> Failure:
        if decision.status not in (RowStatus.RETRY, RowStatus.STUCK, RowStatus.PENDING):
            raise ValueError(f"{decision.status} is not the outcome of a failed push")
        return cls(
            status=RowStatus(decision.status),
            error_kind=decision.error_kind,
            error=decision.error,
            next_at=now + timedelta(seconds=decision.delay) if decision.delay else None,
            count_attempt=decision.count_attempt,
        )


@dataclass(frozen=True)
class OutboxRow:
    job_id: str
    status: RowStatus
    title: str
    attempts: int
    next_attempt_at: datetime | None
    claimed_by: str | None
    claimed_at: datetime | None
    error_kind: ErrorKind | None
    last_error: str | None
    first_seen_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> OutboxRow:
        kind = optional_text(row, "error_kind")
        return cls(
            job_id=text(row, "job_id"),
            status=RowStatus(text(row, "status")),
            title=str(document(row, "listing").get("title", "")),
            attempts=integer(row, "attempts"),
            next_attempt_at=optional_moment(row, "next_attempt_at"),
            claimed_by=optional_text(row, "claimed_by"),
            claimed_at=optional_moment(row, "claimed_at"),
            error_kind=ErrorKind(kind) if kind else None,
            last_error=optional_text(row, "last_error"),
            first_seen_at=moment(row, "first_seen_at"),
        )


@dataclass(frozen=True)
class SourceRow:
    """A source's row in hunter_sources, as `hunter status` shows it."""

    name: str
    primed_at: datetime | None
    last_poll_at: datetime | None
    last_ok_at: datetime | None
    last_count: int | None
    last_error: str | None
    last_good_at: datetime | None
    fail_streak: int
    broken_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> SourceRow:
        return cls(
            name=text(row, "name"),
            primed_at=optional_moment(row, "primed_at"),
            last_poll_at=optional_moment(row, "last_poll_at"),
            last_ok_at=optional_moment(row, "last_ok_at"),
            last_count=optional_integer(row, "last_count"),
            last_error=optional_text(row, "last_error"),
            last_good_at=optional_moment(row, "last_good_at"),
            fail_streak=integer(row, "fail_streak"),
            broken_at=optional_moment(row, "broken_at"),
        )


@dataclass(frozen=True)
class Marked:
    """A listing the user marked on LINE (`hunter status --applied`)."""

    job_id: str
    mark: str
    listing: Listing
    marked_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> Marked:
        job_id = text(row, "job_id")
        return cls(
            job_id=job_id,
            mark=text(row, "mark"),
            listing=Listing.from_payload(job_id, document(row, "listing")),
            marked_at=moment(row, "marked_at"),
        )


@dataclass
class StatusReport:
    outbox: dict[str, int]
    sent_last_24h: int
    rows: list[OutboxRow]
    sources: list[SourceRow]
    last_prune_at: datetime | None
    meta: dict[str, str] = field(default_factory=dict)
    quota: dict[str, Any] | None = None  # LINE's monthly limit and use, filled by the caller
    pace: dict[str, Any] | None = None  # the pace of pushes (report.pace), filled by the caller
    pace_state: PaceState | None = None
    mutes: dict[str, datetime] = field(default_factory=dict)  # muted keywords -> until


def pace_state(row: Row, granted: bool = False) -> PaceState:
    return PaceState(
        month=text(row, "month"),
        tat=real(row, "tat"),
        pushes=integer(row, "pushes"),
        granted=granted,
    )


def jobs_document(listings: Iterable[Listing], matched: set[str]) -> list[dict[str, Any]]:
    """The listings as the record statement takes them, sorted by id (a fixed lock order)."""
    unique = {listing.job_id: listing for listing in listings}
    return [
        {"job_id": job_id, "matched": job_id in matched, "listing": unique[job_id].payload()}
        for job_id in sorted(unique)
    ]


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
