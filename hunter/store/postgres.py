"""The PostgreSQL adapter (psycopg 3): Render, Railway, Neon, Supabase's pooler, local.

Each operation is one call of a function from the schema (sql/postgres/), in autocommit: the
database decides every claim. No prepared statements, so Supabase's pooler in transaction mode
(port 6543) works too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import psycopg
import psycopg.rows

from hunter.errors import SchemaError, StoreError
from hunter.listing import Listing
from hunter.redact import redact
from hunter.store import queries
from hunter.store.base import Claimed, SourceNote, Store, claimed, jobs_document

Q = queries.load("postgres")
_MIGRATION_LOCK = 0x68756E74  # "hunt": one migrator at a time when instances start together


class PostgresStore(Store):
    dialect = "postgres"

    def __init__(self, url: str, connect_timeout: int = 10) -> None:
        self._url = url
        self._timeout = connect_timeout
        self._db: psycopg.Connection[Any] | None = None
        self._connect()

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            self._db = psycopg.connect(
                self._url,
                autocommit=True,
                prepare_threshold=None,
                connect_timeout=self._timeout,
                application_name="hunter",
            )
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot reach PostgreSQL (DATABASE_URL): {_reason(exc)}; check the URL and "
                "that the database is running and reachable from here"
            ) from exc
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def _run(self, name: str, **params: Any) -> list[tuple[Any, ...]]:
        return self._execute(Q[name], params)

    def _execute(
        self, sql: str, params: dict[str, Any] | None = None, row_factory: Any = None
    ) -> list[Any]:
        db = self._db if self._db is not None and not self._db.closed else self._connect()
        try:
            with db.cursor(row_factory=row_factory or psycopg.rows.tuple_row) as cursor:
                cursor.execute(sql, params)  # type: ignore[arg-type]
                return cursor.fetchall() if cursor.description else []
        except psycopg.OperationalError as exc:
            # The connection may be gone (restart, failover): the next call reconnects.
            db.close()
            raise StoreError(f"PostgreSQL: {_reason(exc)}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL refused a statement: {_reason(exc)}") from exc

    def migrate(self) -> None:
        latest = queries.latest_version(self.dialect)
        db = self._db if self._db is not None and not self._db.closed else self._connect()
        try:
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                current = self.schema_version(db)
                if current > latest:
                    raise SchemaError(
                        f"the database holds hunter schema {current}, newer than this hunter "
                        f"({latest}); upgrade hunter"
                    )
                for version, _name, sql in queries.migrations(self.dialect):
                    if version > current:
                        db.execute(sql.encode())
                db.execute(
                    "INSERT INTO hunter_meta (key, value) VALUES ('schema_version', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(latest),),
                )
        except psycopg.Error as exc:
            raise StoreError(
                f"PostgreSQL: creating hunter's tables failed: {_reason(exc)}"
            ) from exc

    @staticmethod
    def schema_version(db: psycopg.Connection[Any]) -> int:
        if db.execute("SELECT to_regclass('hunter_meta')").fetchone()[0] is None:  # type: ignore[index]
            return 0
        row = db.execute("SELECT value FROM hunter_meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

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
        jobs = json.dumps(jobs_document(listings, matched))
        notice = None
        if flood_notice is not None:
            notice = json.dumps({"job_id": flood_notice.job_id, "listing": flood_notice.payload()})
        rows = self._run(
            "record", source=source, jobs=jobs, now=now, prime=prime, flood=flood, notice=notice
        )
        return {status: int(n) for status, n in rows}

    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        return self._claimed("claim_new", worker=worker, key=key, limit=limit, now=now)

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        return self._claimed("claim_due", worker=worker, now=now, lease_before=lease_before)

    def _claimed(self, name: str, **params: Any) -> list[Claimed]:
        return claimed(self._execute(Q[name], params, row_factory=psycopg.rows.dict_row))

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        self._run("save_batch", key=key, body=body, now=now)

    def mark_sent(self, key: str, now: datetime) -> int:
        return int(self._run("mark_sent", key=key, now=now)[0][0])

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
            self._run(
                "mark_failed",
                key=key,
                worker=worker,
                status=status,
                error_kind=error_kind,
                error=error,
                next_at=next_at,
                count_attempt=count_attempt,
            )[0][0]
        )

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        document = json.dumps([{"key": k, "ids": list(ids)} for k, ids in groups])
        return int(self._run("split", key=key, worker=worker, groups=document, now=now)[0][0])

    def note_sources(
        self, notes: Sequence[SourceNote], now: datetime, broken_after: int
    ) -> list[str]:
        document = json.dumps([n.document() for n in notes])
        rows = self._run("note_sources", notes=document, now=now, broken_after=broken_after)
        return [r[0] for r in rows]

    def lease_sources(
        self, names: Sequence[str], worker: str, now: datetime, until: datetime
    ) -> set[str]:
        rows = self._run("lease_sources", names=list(names), worker=worker, now=now, until=until)
        return {r[0] for r in rows}

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        return bool(self._run("claim_prune", now=now, every=every.total_seconds())[0][0])

    def prune_batch(self, before: datetime, limit: int) -> int:
        return int(self._run("prune", before=before, limit=limit)[0][0])

    def enqueue(self, notice: Listing, now: datetime) -> bool:
        listing = json.dumps(notice.payload())
        return bool(self._run("enqueue", job_id=notice.job_id, listing=listing, now=now)[0][0])

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        ids = None if job_ids is None else list(job_ids)
        return sorted(r[0] for r in self._run("retry_stuck", ids=ids))

    def _fetch(self, name: str, **params: Any) -> list[tuple[Any, ...]]:
        return self._run(name, **params)


def _reason(exc: BaseException) -> str:
    """The driver's message, first line only, secrets removed."""
    text = str(exc).strip().splitlines()
    return redact(text[0] if text else type(exc).__name__)
