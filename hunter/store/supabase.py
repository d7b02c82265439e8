"""The Supabase adapter: the same functions as the PostgreSQL adapter, called over HTTPS with
supabase-py's `rpc`, so it works from IPv4-only hosts (Render, Railway) where Supabase's
direct database address is IPv6-only.

Every operation is one rpc call (one round trip), whatever the number of listings: lists
travel in the JSON body, never in a URL. The schema cannot be created over the Data API:
`hunter schema` prints the SQL to paste into Supabase's SQL editor, and this adapter checks
that the version in the database is the one it expects.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
from postgrest.exceptions import APIError
from supabase import create_client
from supabase.lib.client_options import SyncClientOptions

from hunter.errors import SchemaError, StoreError
from hunter.listing import Listing
from hunter.store import queries
from hunter.store.base import Claimed, SourceNote, Store, claimed, jobs_document

TIMEOUT_SECONDS = 20
SCHEMA_FIX = (
    "run `hunter schema`, paste its output into the SQL editor of your Supabase project "
    "(Database -> SQL editor -> New query) and run it"
)
# Read-only queries of the port, by name: (function, its parameters in the port's names)
_READS: dict[str, tuple[str, tuple[str, ...]]] = {
    "next_due": ("hunter_next_due", ()),
    "count_pending": ("hunter_count_pending", ()),
    "batch_body": ("hunter_batch_body", ("key",)),
    "outbox_counts": ("hunter_outbox_counts", ()),
    "sent_since": ("hunter_sent_since", ("since",)),
    "outbox_rows": ("hunter_outbox_rows", ("limit",)),
    "sources": ("hunter_sources_rows", ()),
    "meta": ("hunter_meta_rows", ()),
    "job_states": ("hunter_job_states", ()),
}


def _column(row: Any, name: str) -> Any:
    """One column of a TABLE function's row: an object, or the bare value of a one-column row."""
    return row[name] if isinstance(row, dict) else row


def _value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


class SupabaseStore(Store):
    dialect = "postgres"  # the schema is the PostgreSQL one

    def __init__(self, url: str, key: str) -> None:
        self._host = urlsplit(url).netloc
        self._http = httpx.Client(timeout=TIMEOUT_SECONDS)
        options = SyncClientOptions(
            httpx_client=self._http, auto_refresh_token=False, persist_session=False
        )
        self._client = create_client(url, key, options=options)

    def close(self) -> None:
        self._http.close()

    def _rpc(self, function: str, **params: Any) -> Any:
        body = {f"p_{name}": _value(value) for name, value in params.items()}
        try:
            return self._client.rpc(function, body).execute().data
        except APIError as exc:
            if exc.code == "PGRST202":
                raise SchemaError(
                    f"hunter's functions are not in this Supabase project ({function} is "
                    f"missing, or the key may not call it); {SCHEMA_FIX}"
                ) from exc
            if exc.code == "42501":
                raise StoreError(
                    "Supabase refused hunter's key access to its tables: use the secret "
                    "(service_role) key, and run `hunter schema` again to set the grants"
                ) from exc
            raise StoreError(f"Supabase ({function}): {exc.message or exc.code}") from exc
        except httpx.HTTPError as exc:
            raise StoreError(
                f"cannot reach Supabase at {self._host}: {type(exc).__name__}; check SUPABASE_URL "
                "and that the project is not paused"
            ) from exc

    def migrate(self) -> None:
        """Check the schema: the Data API cannot create it."""
        latest = queries.latest_version("postgres")
        current = int(self._rpc("hunter_schema_version") or 0)
        if current < latest:
            raise SchemaError(
                f"the hunter schema in Supabase is version {current}, this hunter "
                f"needs {latest}; {SCHEMA_FIX}"
            )
        if current > latest:
            raise SchemaError(
                f"the hunter schema in Supabase is version {current}, newer than "
                f"this hunter ({latest}); upgrade hunter"
            )

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
        notice = None
        if flood_notice is not None:
            notice = {"job_id": flood_notice.job_id, "listing": flood_notice.payload()}
        rows = self._rpc(
            "hunter_record",
            source=source,
            jobs=jobs_document(listings, matched),
            now=now,
            prime=prime,
            flood=flood,
            notice=notice,
        )
        return {row["status"]: int(row["n"]) for row in rows}

    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        return claimed(self._rpc("hunter_claim_new", worker=worker, key=key, limit=limit, now=now))

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        return claimed(
            self._rpc("hunter_claim_due", worker=worker, now=now, lease_before=lease_before)
        )

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        self._rpc("hunter_save_batch", key=key, body=body, now=now)

    def mark_sent(self, key: str, now: datetime) -> int:
        return int(self._rpc("hunter_mark_sent", key=key, now=now))

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
        return int(
            self._rpc(
                "hunter_mark_failed",
                key=key,
                worker=worker,
                status=status,
                error_kind=error_kind,
                error=error,
                next_at=next_at,
                count_attempt=count_attempt,
            )
        )

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        document = [{"key": k, "ids": list(ids)} for k, ids in groups]
        return int(self._rpc("hunter_split", key=key, worker=worker, groups=document, now=now))

    def note_sources(
        self, notes: Sequence[SourceNote], now: datetime, broken_after: int
    ) -> list[str]:
        rows = self._rpc(
            "hunter_note_sources",
            notes=[n.document() for n in notes],
            now=now,
            broken_after=broken_after,
        )
        return [_column(row, "source") for row in rows]

    def lease_sources(
        self, names: Sequence[str], worker: str, now: datetime, until: datetime
    ) -> set[str]:
        rows = self._rpc(
            "hunter_lease_sources", names=list(names), worker=worker, now=now, until=until
        )
        return {_column(row, "source") for row in rows}

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        return bool(
            self._rpc("hunter_claim_prune", now=now, every=f"{every.total_seconds():.0f} seconds")
        )

    def prune_batch(self, before: datetime, limit: int) -> int:
        return int(self._rpc("hunter_prune", before=before, limit=limit))

    def enqueue(self, notice: Listing, now: datetime) -> bool:
        return bool(
            self._rpc("hunter_enqueue", job_id=notice.job_id, listing=notice.payload(), now=now)
        )

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        rows = self._rpc("hunter_retry_stuck", ids=None if job_ids is None else list(job_ids))
        return sorted(_column(row, "job_id") for row in rows)

    def _fetch(self, name: str, **params: Any) -> list[tuple[Any, ...]]:
        function, names = _READS[name]
        data = self._rpc(function, **{n: params[n] for n in names})
        if isinstance(data, list):
            return [tuple(row.values()) for row in data]
        return [(data,)]
