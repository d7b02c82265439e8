"""The store port over hunter's PostgreSQL functions, whatever carries the calls.

PostgreSQL (psycopg) and Supabase (PostgREST rpc) run the same functions from sql/postgres/;
this class is the one place that says which function each operation calls, with what. An
adapter supplies only `_call`: run one function with named arguments, one round trip, and
answer its rows as dicts (set-returning functions) or its value (scalar ones).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from hunter.listing import Listing
from hunter.pace import Pace, PaceState
from hunter.store.base import Store
from hunter.store.records import Claimed, Failure, SourceNote, claimed, jobs_document, pace_state
from hunter.store.rows import Row, flag, integer, text, whole_number

# Read-only queries of the port, by name: (function, its parameters in the port's names)
READS: dict[str, tuple[str, tuple[str, ...]]] = {
    "next_due": ("hunter_next_due", ()),
    "count_pending": ("hunter_count_pending", ()),
    "batch_body": ("hunter_batch_body", ("key",)),
    "outbox_counts": ("hunter_outbox_counts", ()),
    "sent_since": ("hunter_sent_since", ("since",)),
    "outbox_rows": ("hunter_outbox_rows", ("limit",)),
    "sources": ("hunter_sources_rows", ()),
    "meta": ("hunter_meta_rows", ()),
    "job_states": ("hunter_job_states", ()),
    "pace": ("hunter_pace_row", ()),
    "mutes": ("hunter_mutes_rows", ("now",)),
    "marks": ("hunter_marks_rows", ("mark",)),
    "recent_sent": ("hunter_recent_sent", ("limit",)),
}
SCALARS = {"hunter_next_due", "hunter_count_pending", "hunter_batch_body", "hunter_sent_since"}


@dataclass(frozen=True)
class Document:
    """An argument that travels as JSON (jsonb), however the adapter sends it."""

    value: Any


def _notice(listing: Listing | None) -> Document | None:
    if listing is None:
        return None
    return Document({"job_id": listing.job_id, "listing": listing.payload()})


def _named(rows: object, column: str) -> list[Row]:
    """A TABLE function's rows as mappings. PostgREST has answered a one-column TABLE function
    both as objects and as bare values; a bare value is named after the function's column."""
    if not isinstance(rows, list):
        raise TypeError(f"expected rows, got {type(rows).__name__}")
    return [row if isinstance(row, dict) else {column: row} for row in rows]


class FunctionStore(Store):
    dialect = "postgres"  # the schema and its functions are the PostgreSQL ones

    @abstractmethod
    def _call(self, function: str, rows: bool, **params: Any) -> object:
        """Run `function` with `p_<name>` arguments; its rows as a list of column -> value
        mappings when `rows`, else its value."""

    def _table(self, function: str, column: str = "", **params: Any) -> list[Row]:
        """Rows of a TABLE (or SETOF) function; `column` names a one-column table's column."""
        return _named(self._call(function, True, **params), column)

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
        result = self._table(
            "hunter_record",
            source=source,
            jobs=Document(jobs_document(listings, matched)),
            now=now,
            prime=prime,
            flood=flood,
            notice=_notice(flood_notice),
        )
        return {text(row, "status"): integer(row, "n") for row in result}

    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        return claimed(
            self._table("hunter_claim_new", worker=worker, key=key, limit=limit, now=now)
        )

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        return claimed(
            self._table("hunter_claim_due", worker=worker, now=now, lease_before=lease_before)
        )

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        self._call("hunter_save_batch", False, key=key, body=body, now=now)

    def mark_sent(self, key: str, now: datetime) -> int:
        return whole_number(self._call("hunter_mark_sent", False, key=key, now=now))

    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        return whole_number(
            self._call(
                "hunter_mark_failed",
                False,
                key=key,
                worker=worker,
                status=str(failure.status),
                error_kind=None if failure.error_kind is None else str(failure.error_kind),
                error=failure.error,
                next_at=failure.next_at,
                count_attempt=failure.count_attempt,
            )
        )

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        document = Document([{"key": k, "ids": list(ids)} for k, ids in groups])
        return whole_number(
            self._call("hunter_split", False, key=key, worker=worker, groups=document, now=now)
        )

    def note_sources(
        self, notes: Sequence[SourceNote], now: datetime, broken_after: int
    ) -> list[str]:
        result = self._table(
            "hunter_note_sources",
            "source",
            notes=Document([n.document() for n in notes]),
            now=now,
            broken_after=broken_after,
        )
        return [text(row, "source") for row in result]

    def lease_sources(
        self, names: Sequence[str], worker: str, now: datetime, until: datetime
    ) -> set[str]:
        result = self._table(
            "hunter_lease_sources", "source", names=list(names), worker=worker, now=now, until=until
        )
        return {text(row, "source") for row in result}

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        return bool(self._call("hunter_claim_prune", False, now=now, every=every))

    def prune_batch(self, before: datetime, limit: int) -> int:
        return whole_number(self._call("hunter_prune", False, before=before, limit=limit))

    def enqueue(self, notice: Listing, now: datetime) -> bool:
        return bool(
            self._call(
                "hunter_enqueue",
                False,
                job_id=notice.job_id,
                listing=Document(notice.payload()),
                now=now,
            )
        )

    def claim_push(self, pace: Pace, now: datetime) -> PaceState:
        (row,) = self._table(
            "hunter_claim_push",
            month=pace.month,
            now=pace.now,
            interval=pace.interval,
            tolerance=pace.tolerance,
            cap=pace.cap,
            notice=pace.notice,
            at=now,
        )
        return pace_state(row, flag(row, "granted"))

    def claim_event(self, event_id: str, now: datetime) -> bool:
        return bool(self._call("hunter_claim_event", False, event_id=event_id, now=now))

    def mute(self, word: str, until: datetime, now: datetime) -> None:
        self._call("hunter_mute", False, word=word, until=until, now=now)

    def unmute(self, word: str) -> bool:
        return whole_number(self._call("hunter_unmute", False, word=word)) > 0

    def mark(self, job_id: str, mark: str, now: datetime) -> str | None:
        title = self._call("hunter_mark", False, job_id=job_id, mark=mark, now=now)
        return None if title is None else str(title)

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        ids = None if job_ids is None else list(job_ids)
        return sorted(
            text(row, "job_id") for row in self._table("hunter_retry_stuck", "job_id", ids=ids)
        )

    def _rows(self, name: str, **params: Any) -> list[Row]:
        function, names = READS[name]
        arguments = {n: params[n] for n in names}
        if function in SCALARS:
            return [{"value": self._call(function, False, **arguments)}]
        return self._table(function, **arguments)
