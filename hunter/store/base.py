"""The store port: everything hunter asks of its database, and what the answers look like.

Adapters (sqlite.py, postgres.py, supabase.py) implement the abstract methods; each claim is
decided by the database in one statement or one locked transaction, never by a read-then-write
in Python. The contract suite in tests/contract runs the same tests against every adapter.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from hunter.listing import Listing

PRUNE_BATCH = 5_000
OUTBOX_STATES = ("pending", "sending", "retry", "stuck")


@dataclass(frozen=True)
class Claimed:
    """A row this worker owns for one push."""

    job_id: str
    listing: Listing
    retry_key: str
    retry_key_at: datetime
    attempts: int

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Claimed:
        """From a claimed row as any adapter reads it (JSON as text or parsed, times as
        datetimes or ISO text)."""
        listing = row["listing"]
        return cls(
            job_id=row["job_id"],
            listing=Listing.from_payload(
                row["job_id"], json.loads(listing) if isinstance(listing, str) else listing
            ),
            retry_key=row["retry_key"],
            retry_key_at=utc(row["retry_key_at"]),  # type: ignore[arg-type]
            attempts=int(row["attempts"]),
        )


def claimed(rows: Iterable[dict[str, Any]]) -> list[Claimed]:
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


@dataclass
class OutboxRow:
    job_id: str
    status: str
    title: str
    attempts: int
    next_attempt_at: datetime | None
    claimed_by: str | None
    claimed_at: datetime | None
    error_kind: str | None
    last_error: str | None
    first_seen_at: datetime


@dataclass
class StatusReport:
    outbox: dict[str, int]
    sent_last_24h: int
    rows: list[OutboxRow]
    sources: list[dict[str, Any]]
    last_prune_at: datetime | None
    meta: dict[str, str] = field(default_factory=dict)
    quota: dict[str, Any] | None = None  # LINE's monthly limit and use, filled by the caller


def utc(value: Any) -> datetime | None:
    """A database time (datetime or ISO text) as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


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
    def mark_failed(
        self,
        key: str,
        worker: str,
        status: str,
        error_kind: str | None,
        error: str | None,
        next_at: datetime | None,
        count_attempt: bool,
    ) -> int:
        """The rows of `key` still owned by `worker` take `status` (retry, stuck, pending)."""

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
    def _fetch(self, name: str, **params: Any) -> list[tuple[Any, ...]]:
        """Rows of the named read-only query."""

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
        rows = self._fetch("batch_body", key=key)
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def count_pending(self) -> int:
        return int(self._fetch("count_pending")[0][0])

    def next_due(self) -> datetime | None:
        rows = self._fetch("next_due")
        return utc(rows[0][0]) if rows else None

    def source_states(self) -> dict[str, SourceState]:
        return {
            r[0]: SourceState(
                name=r[0],
                primed=r[1] is not None,
                last_good_at=utc(r[6]),
                fail_streak=int(r[7]),
                broken_at=utc(r[8]),
                etag=r[9],
                last_modified=r[10],
                validated_url=r[11],
                not_before=utc(r[12]),
            )
            for r in self._fetch("sources")
        }

    def job_states(self) -> dict[str, str]:
        return {job_id: status for job_id, status in self._fetch("job_states")}

    def outbox_counts(self) -> dict[str, int]:
        outbox = dict.fromkeys(OUTBOX_STATES, 0)
        outbox.update({status: int(n) for status, n in self._fetch("outbox_counts")})
        return outbox

    def status(self, now: datetime, limit: int = 100) -> StatusReport:
        outbox = self.outbox_counts()
        sent = self._fetch("sent_since", since=self._param_time(now - timedelta(hours=24)))
        rows = [
            OutboxRow(
                job_id=r[0],
                status=r[1],
                title=_title(r[2]),
                attempts=int(r[3]),
                next_attempt_at=utc(r[4]),
                claimed_by=r[5],
                claimed_at=utc(r[6]),
                error_kind=r[7],
                last_error=r[8],
                first_seen_at=utc(r[9]),  # type: ignore[arg-type]
            )
            for r in self._fetch("outbox_rows", limit=limit)
        ]
        sources = [
            {
                "name": r[0],
                "primed_at": utc(r[1]),
                "last_poll_at": utc(r[2]),
                "last_ok_at": utc(r[3]),
                "last_count": r[4],
                "last_error": r[5],
                "last_good_at": utc(r[6]),
                "fail_streak": r[7],
                "broken_at": utc(r[8]),
            }
            for r in self._fetch("sources")
        ]
        meta = {k: v for k, v in self._fetch("meta")}
        return StatusReport(
            outbox=outbox,
            sent_last_24h=int(sent[0][0]) if sent else 0,
            rows=rows,
            sources=sources,
            last_prune_at=utc(meta.get("last_prune_at")),
            meta=meta,
        )

    def _param_time(self, value: datetime) -> Any:
        return value


def _title(listing: Any) -> str:
    data = json.loads(listing) if isinstance(listing, str) else listing
    return str((data or {}).get("title", ""))
