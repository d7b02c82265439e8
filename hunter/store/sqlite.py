"""The SQLite adapter: a local file, the embedded default.

SQLite has one writer at a time: every multi-step operation runs in a BEGIN IMMEDIATE
transaction, so two processes on one file still split the work and never send a row twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hunter.errors import SchemaError, StoreError, StoreGone
from hunter.listing import Listing
from hunter.pace import Pace, PaceState
from hunter.states import RowStatus
from hunter.store import queries
from hunter.store.base import Store
from hunter.store.records import Claimed, Failure, SourceNote, claimed, jobs_document, pace_state
from hunter.store.rows import Row, flag, integer, optional_moment, text

Q = queries.load("sqlite")
EVENT_MEMORY = timedelta(days=7)  # as the PostgreSQL function forgets webhook events


def ts(value: datetime | None) -> str | None:
    """Fixed-width UTC text, so that times compare correctly as strings."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class SQLiteStore(Store):
    dialect = "sqlite"

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        if not create and not os.path.exists(self.path):
            raise StoreError(
                f"there is no hunter database at {self.path} yet (HUNTER_DB); `hunter run` or "
                "`hunter prime` creates it"
            )
        try:
            self._db = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.row_factory = _named
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=30000")
            self._file = SameFile(self.path)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the SQLite file {self.path}: {exc}; check HUNTER_DB"
            ) from exc

    def close(self) -> None:
        self._db.close()

    def check(self) -> None:
        """Raise StoreGone unless the file opened is still the one at its path."""
        self._file.check()

    def schema_version(self) -> int:
        with self._tx() as db:
            return _schema_version(db)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self.check()
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

    def _rows(self, name: str, **params: Any) -> list[Row]:
        self.check()
        try:
            return list(self._db.execute(Q[name], params).fetchall())
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite ({self.path}): {exc}") from exc

    def migrate(self) -> None:
        """Apply each migration this file lacks, one transaction each, in order. BEGIN
        IMMEDIATE takes SQLite's write lock first, so two processes starting together
        migrate one after the other, and the second finds nothing left to do."""
        for version, _name, sql in queries.migrations(self.dialect):
            with self._tx() as db:
                _migrate(db, self.path, version, sql)

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
        with self._tx() as db:
            return _record(db, source, jobs, ts(now), prime, flood, flood_notice)

    def claim_new(self, worker: str, key: str, limit: int, now: datetime) -> list[Claimed]:
        with self._tx() as db:
            return claimed(
                db.execute(
                    Q["claim_new"], {"worker": worker, "key": key, "limit": limit, "now": ts(now)}
                ).fetchall()
            )

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        with self._tx() as db:
            return claimed(
                db.execute(
                    Q["claim_due"],
                    {"worker": worker, "now": ts(now), "lease_before": ts(lease_before)},
                ).fetchall()
            )

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        with self._tx() as db:
            db.execute(Q["save_batch"], {"key": key, "body": body, "now": ts(now)})

    def mark_sent(self, key: str, now: datetime) -> int:
        with self._tx() as db:
            db.execute(Q["mark_sent"], {"key": key, "now": ts(now)})
            db.execute(Q["forget_batch"], {"key": key})
            return db.execute(Q["requeue_parked"], {"now": ts(now)}).rowcount

    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        with self._tx() as db:
            moved = db.execute(
                Q["mark_failed"],
                {
                    "key": key,
                    "worker": worker,
                    "status": str(failure.status),
                    "error_kind": None if failure.error_kind is None else str(failure.error_kind),
                    "error": failure.error,
                    "next_at": ts(failure.next_at),
                    "count_attempt": int(failure.count_attempt),
                },
            ).rowcount
            if failure.status is RowStatus.PENDING and moved:  # LINE never took the key
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
        with self._tx() as db:
            return [
                note.name
                for note in sorted(notes, key=lambda n: n.name)
                if _note(db, note, ts(now), broken_after)
            ]

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
            return _insert_notice(db, notice.job_id, notice.payload(), ts(now))

    def claim_push(self, pace: Pace, now: datetime) -> PaceState:
        params = {
            "month": pace.month,
            "now_active": pace.now,
            "interval": pace.interval,
            "tolerance": pace.tolerance,
            "cap": pace.cap,
            "notice": int(pace.notice),
            "at": ts(now),
        }
        with self._tx() as db:
            db.execute(Q["start_pace"], params)
            taken = db.execute(Q["take_push"], params).fetchone()
            return pace_state(taken or db.execute(Q["pace"]).fetchone(), taken is not None)

    def claim_event(self, event_id: str, now: datetime) -> bool:
        with self._tx() as db:
            db.execute(Q["forget_events"], {"before": ts(now - EVENT_MEMORY)})
            return bool(
                db.execute(Q["claim_event"], {"event_id": event_id, "now": ts(now)}).rowcount
            )

    def mute(self, word: str, until: datetime, now: datetime) -> None:
        with self._tx() as db:
            db.execute(Q["mute"], {"word": word, "until": ts(until), "now": ts(now)})

    def unmute(self, word: str) -> bool:
        with self._tx() as db:
            return bool(db.execute(Q["unmute"], {"word": word}).rowcount)

    def mark(self, job_id: str, mark: str, now: datetime) -> str | None:
        with self._tx() as db:
            row = db.execute(Q["job_listing"], {"job_id": job_id}).fetchone()
            if row is None:
                return None
            if mark == "dismissed":
                db.execute(Q["dismiss"], {"job_id": job_id})
            listing = text(row, "listing")
            params = {"job_id": job_id, "mark": mark, "listing": listing, "now": ts(now)}
            db.execute(Q["mark"], params)
            return str(json.loads(listing).get("title", ""))

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        with self._tx() as db:
            rows = db.execute(
                Q["retry_stuck"],
                {
                    "all": job_ids is None,
                    "ids": json.dumps(list(job_ids or [])),
                },
            ).fetchall()
        return sorted(text(row, "job_id") for row in rows)

    def _param_time(self, value: datetime) -> object:
        return ts(value)


def _named(cursor: sqlite3.Cursor, values: tuple[object, ...]) -> dict[str, object]:
    """sqlite3's row factory: every row read by column name, as the other adapters do."""
    return {column[0]: value for column, value in zip(cursor.description, values, strict=True)}


class SameFile:
    """Whether the file at a path is still the one opened (one stat, before every read and
    write). Deleted or replaced under a running hunter (a cleanup, a restore, a second
    checkout), hunter would write to a file nobody sees and, restarted, forget what it sent:
    better to stop and say so."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._identity = self._at_path()

    def _at_path(self) -> tuple[int, int]:
        status = os.stat(self.path)
        return status.st_dev, status.st_ino

    def check(self) -> None:
        try:
            same = self._at_path() == self._identity
        except OSError:
            same = False
        if not same:
            raise StoreGone(
                f"the SQLite file {self.path} was deleted or replaced while hunter ran; "
                "stopping so that no listing is alerted twice or missed: put the file back "
                "(or accept a fresh start) and start hunter again"
            )


def _migrate(db: sqlite3.Connection, path: str, version: int, sql: str) -> None:
    """Apply migration `version` unless the file has it (inside its transaction)."""
    current, latest = _schema_version(db), queries.latest_version("sqlite")
    if current > latest:
        raise SchemaError(
            f"{path} holds hunter schema {current}, newer than this hunter ({latest}); "
            "upgrade hunter"
        )
    if version <= current:
        return
    for statement in _statements(sql):
        db.execute(statement)
    db.execute(Q["set_schema_version"], {"version": str(version)})


def _schema_version(db: sqlite3.Connection) -> int:
    if not db.execute(Q["meta_exists"]).fetchone():
        return 0
    row = db.execute(Q["schema_version"]).fetchone()
    return integer(row, "value") if row else 0


def _record(
    db: sqlite3.Connection,
    source: str,
    jobs: list[dict[str, Any]],
    at: str | None,
    prime: bool,
    flood: int,
    flood_notice: Listing | None,
) -> dict[str, int]:
    """`Store.record` inside its transaction (see the port for what it means)."""
    ids = json.dumps([job["job_id"] for job in jobs])
    counts: dict[str, int] = {}
    row = db.execute(Q["source_primed"], {"source": source}).fetchone()
    primed = bool(row and flag(row, "primed")) and not prime
    db.execute(Q["refresh_seen"], {"now": at, "ids": ids})
    if prime:
        db.execute(Q["prime_known"], {"ids": ids})
    unknown = 0
    if primed and flood > 0 and flood_notice is not None:
        unknown = integer(db.execute(Q["count_unknown"], {"ids": ids}).fetchone(), "unknown")
    flooded = unknown > flood
    if flooded and flood_notice is not None:
        payload = flood_notice.payload()
        payload["title"] = payload["title"] % unknown
        _insert_notice(db, flood_notice.job_id, payload, at)
        counts["flood"] = unknown
    if prime or jobs:
        db.execute(Q["mark_primed"], {"source": source, "now": at})
    params = {"source": source, "primed": primed, "flood": flooded, "now": at}
    for row in db.execute(Q["insert_new"], {**params, "jobs": json.dumps(jobs)}).fetchall():
        status = text(row, "status")
        counts[status] = counts.get(status, 0) + 1
    return counts


def _note(db: sqlite3.Connection, note: SourceNote, at: str | None, broken_after: int) -> bool:
    """Write one source's note; True when it queued a broken or recovered notice."""
    document = note.document()
    document["not_before"] = ts(note.not_before)
    del document["broken_notice"], document["recovered_notice"]
    db.execute(Q["note_source"], {"name": note.name})
    row = db.execute(Q["update_source"], {**document, "now": at}).fetchone()
    streak, broken_at = integer(row, "fail_streak"), optional_moment(row, "broken_at")
    notice = None
    if note.good is False and streak >= broken_after and broken_at is None:
        db.execute(Q["set_broken"], {"name": note.name, "broken_at": at})
        notice = note.broken_notice
    elif note.good and broken_at is not None:
        db.execute(Q["set_broken"], {"name": note.name, "broken_at": None})
        notice = note.recovered_notice
    if notice is None:
        return False
    _insert_notice(db, notice.job_id, notice.payload(), at)
    return True


def _insert_notice(
    db: sqlite3.Connection, job_id: str, payload: dict[str, Any], at: str | None
) -> bool:
    params = {"job_id": job_id, "listing": json.dumps(payload), "now": at}
    return bool(db.execute(Q["insert_notice"], params).rowcount)


def _statements(script: str) -> list[str]:
    """Split a migration on `;` at line ends (the schema files hold no triggers)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";")]
