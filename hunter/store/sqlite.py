"""The SQLite adapter: a local file, the embedded default.

SQLite has one writer at a time: every multi-step operation runs in a BEGIN IMMEDIATE
transaction, so two processes on one file still split the work and never send a row twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hunter.errors import SchemaError, StoreError
from hunter.listing import Listing
from hunter.store import queries
from hunter.store.base import Claimed, SourceNote, Store, claimed, jobs_document

Q = queries.load("sqlite")


def ts(value: datetime | None) -> str | None:
    """Fixed-width UTC text, so that times compare correctly as strings."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class SQLiteStore(Store):
    dialect = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=30000")
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot open the SQLite file {self.path}: {exc}; check HUNTER_DB"
            ) from exc

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite ({self.path}): {exc}") from exc

    def _one(
        self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()
    ) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite ({self.path}): {exc}") from exc

    def migrate(self) -> None:
        latest = queries.latest_version(self.dialect)
        with self._tx() as db:
            has_meta = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hunter_meta'"
            ).fetchone()
            current = 0
            if has_meta:
                row = db.execute(
                    "SELECT value FROM hunter_meta WHERE key = 'schema_version'"
                ).fetchone()
                current = int(row[0]) if row else 0
            if current > latest:
                raise SchemaError(
                    f"{self.path} holds hunter schema {current}, newer than this hunter "
                    f"({latest}); upgrade hunter"
                )
            for version, _name, sql in queries.migrations(self.dialect):
                if version > current:
                    for statement in _statements(sql):
                        db.execute(statement)
            db.execute(
                "INSERT INTO hunter_meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(latest),),
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
        jobs = jobs_document(listings, matched)
        ids = json.dumps([job["job_id"] for job in jobs])
        at = ts(now)
        counts: dict[str, int] = {}
        with self._tx() as db:
            row = db.execute(Q["source_primed"], {"source": source}).fetchone()
            primed = bool(row and row[0]) and not prime
            db.execute(Q["refresh_seen"], {"now": at, "ids": ids})
            if prime:
                db.execute(Q["prime_known"], {"ids": ids})
            unknown = 0
            if primed and flood > 0 and flood_notice is not None:
                unknown = db.execute(Q["count_unknown"], {"ids": ids}).fetchone()[0]
            flooded = unknown > flood
            if flooded and flood_notice is not None:
                payload = flood_notice.payload()
                payload["title"] = payload["title"] % unknown
                db.execute(
                    Q["insert_notice"],
                    {
                        "job_id": flood_notice.job_id,
                        "listing": json.dumps(payload),
                        "now": at,
                    },
                )
                counts["flood"] = unknown
            if prime or jobs:
                db.execute(Q["mark_primed"], {"source": source, "now": at})
            for (status,) in db.execute(
                Q["insert_new"],
                {
                    "source": source,
                    "primed": primed,
                    "flood": flooded,
                    "now": at,
                    "jobs": json.dumps(jobs),
                },
            ).fetchall():
                counts[status] = counts.get(status, 0) + 1
        return counts

    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        with self._tx() as db:
            cursor = db.execute(
                Q["claim_new"], {"worker": worker, "key": key, "limit": limit, "now": ts(now)}
            )
            return _claimed(cursor)

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        with self._tx() as db:
            cursor = db.execute(
                Q["claim_due"],
                {"worker": worker, "now": ts(now), "lease_before": ts(lease_before)},
            )
            return _claimed(cursor)

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        with self._tx() as db:
            db.execute(Q["save_batch"], {"key": key, "body": body, "now": ts(now)})

    def mark_sent(self, key: str, now: datetime) -> int:
        with self._tx() as db:
            db.execute(Q["mark_sent"], {"key": key, "now": ts(now)})
            db.execute(Q["forget_batch"], {"key": key})
            return db.execute(Q["requeue_parked"], {"now": ts(now)}).rowcount

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
        with self._tx() as db:
            moved = db.execute(
                Q["mark_failed"],
                {
                    "key": key,
                    "worker": worker,
                    "status": status,
                    "error_kind": error_kind,
                    "error": error,
                    "next_at": ts(next_at),
                    "count_attempt": int(count_attempt),
                },
            ).rowcount
            if status == "pending" and moved:  # the key is given up: LINE never took it
                db.execute(Q["forget_batch"], {"key": key})
            return moved

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        moved = 0
        with self._tx() as db:
            for new_key, ids in groups:
                moved += db.execute(
                    Q["split"],
                    {
                        "key": key,
                        "worker": worker,
                        "new_key": new_key,
                        "now": ts(now),
                        "ids": json.dumps(list(ids)),
                    },
                ).rowcount
            if moved:
                db.execute(Q["forget_batch"], {"key": key})
        return moved

    def note_sources(
        self, notes: Sequence[SourceNote], now: datetime, broken_after: int
    ) -> list[str]:
        at = ts(now)
        noticed = []
        with self._tx() as db:
            for note in sorted(notes, key=lambda n: n.name):
                document = note.document()
                document["not_before"] = ts(note.not_before)
                del document["broken_notice"], document["recovered_notice"]
                db.execute(Q["note_source"], {"name": note.name})
                streak, broken_at = db.execute(
                    Q["update_source"], {**document, "now": at}
                ).fetchone()
                notice = None
                if note.good is False and streak >= broken_after and broken_at is None:
                    db.execute(Q["set_broken"], {"name": note.name, "broken_at": at})
                    notice = note.broken_notice
                elif note.good and broken_at is not None:
                    db.execute(Q["set_broken"], {"name": note.name, "broken_at": None})
                    notice = note.recovered_notice
                if notice is not None:
                    db.execute(
                        Q["insert_notice"],
                        {
                            "job_id": notice.job_id,
                            "listing": json.dumps(notice.payload()),
                            "now": at,
                        },
                    )
                    noticed.append(note.name)
        return noticed

    def lease_sources(
        self, names: Sequence[str], worker: str, now: datetime, until: datetime
    ) -> set[str]:
        leased = set()
        with self._tx() as db:
            for name in sorted(names):
                db.execute(Q["note_source"], {"name": name})
                params = {"name": name, "worker": worker, "now": ts(now), "until": ts(until)}
                if db.execute(Q["lease_source"], params).fetchall():
                    leased.add(name)
        return leased

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        with self._tx() as db:
            return bool(
                db.execute(
                    Q["claim_prune"], {"now": ts(now), "due_before": ts(now - every)}
                ).fetchall()
            )

    def prune_batch(self, before: datetime, limit: int) -> int:
        with self._tx() as db:
            deleted = db.execute(Q["prune"], {"before": ts(before), "limit": limit}).rowcount
            db.execute(Q["prune_batches"], {"before": ts(before)})
            return deleted

    def enqueue(self, notice: Listing, now: datetime) -> bool:
        with self._tx() as db:
            return bool(
                db.execute(
                    Q["insert_notice"],
                    {
                        "job_id": notice.job_id,
                        "listing": json.dumps(notice.payload()),
                        "now": ts(now),
                    },
                ).rowcount
            )

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        with self._tx() as db:
            rows = db.execute(
                Q["retry_stuck"],
                {
                    "all": job_ids is None,
                    "ids": json.dumps(list(job_ids or [])),
                },
            ).fetchall()
        return sorted(r[0] for r in rows)

    def _fetch(self, name: str, **params: Any) -> list[tuple[Any, ...]]:
        return self._one(Q[name], params)

    def _param_time(self, value: datetime) -> Any:
        return ts(value)


def _claimed(cursor: sqlite3.Cursor) -> list[Claimed]:
    columns = [d[0] for d in cursor.description or ()]
    return claimed(dict(zip(columns, row, strict=True)) for row in cursor.fetchall())


def _statements(script: str) -> list[str]:
    """Split a migration on `;` at line ends (the schema files hold no triggers)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";")]
