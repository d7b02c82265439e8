"""The outbox on SQLite (see hunter/store/outbox.py for what each operation means)."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from hunter.rules.listing import Listing
from hunter.store.columns import flag, integer, text
from hunter.store.outbox import OutboxStore
from hunter.store.records import ChatMatches, Claimed, Failure, claimed, jobs_document
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts
from hunter.store.states import RowStatus

CHAT_ROWS_AT_ONCE = 2_000  # chats' rows written by one statement (a record's slice)


class SQLiteOutbox(OutboxStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

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
        jobs = jobs_document(listings, matched, chats)
        with self._database.tx() as db:
            return _record(db, source, jobs, ts(now), prime, flood, flood_notice)

    def claim_new(
        self, worker: str, key: str, limit: int, now: datetime, chat: str = ""
    ) -> list[Claimed]:
        params = {"worker": worker, "key": key, "limit": limit, "now": ts(now), "chat": chat}
        with self._database.tx() as db:
            return claimed(db.execute(Q["claim_new"], params).fetchall())

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        params = {"worker": worker, "now": ts(now), "lease_before": ts(lease_before)}
        with self._database.tx() as db:
            return claimed(db.execute(Q["claim_due"], params).fetchall())

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        with self._database.tx() as db:
            db.execute(Q["save_batch"], {"key": key, "body": body, "now": ts(now)})

    def mark_sent(self, key: str, now: datetime, ref: str | None = None) -> int:
        with self._database.tx() as db:
            db.execute(Q["mark_sent"], {"key": key, "now": ts(now), "ref": ref})
            db.execute(Q["forget_batch"], {"key": key})
            return db.execute(Q["requeue_parked"], {"now": ts(now)}).rowcount

    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        params = {
            "key": key,
            "worker": worker,
            "status": str(failure.status),
            "error_kind": None if failure.error_kind is None else str(failure.error_kind),
            "error": failure.error,
            "next_at": ts(failure.next_at),
            "count_attempt": int(failure.count_attempt),
        }
        with self._database.tx() as db:
            moved = db.execute(Q["mark_failed"], params).rowcount
            if failure.status is RowStatus.PENDING and moved:  # the channel never took the key
                db.execute(Q["forget_batch"], {"key": key})
            return moved

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        moved = 0
        with self._database.tx() as db:
            for new_key, ids in groups:
                params = {"key": key, "worker": worker, "new_key": new_key, "now": ts(now)}
                moved += db.execute(Q["split"], {**params, "ids": json.dumps(list(ids))}).rowcount
            if moved:
                db.execute(Q["forget_batch"], {"key": key})
        return moved

    def enqueue(self, notice: Listing, now: datetime, chat: str = "") -> bool:
        with self._database.tx() as db:
            if not chat:
                return insert_notice(db, notice.job_id, notice.payload(), ts(now))
            params = {"job_id": notice.job_id, "chat": chat, "now": ts(now)}
            params["listing"] = json.dumps(notice.payload())
            return bool(db.execute(Q["insert_notice_for"], params).rowcount)

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        params = {"all": job_ids is None, "ids": json.dumps(list(job_ids or []))}
        with self._database.tx() as db:
            rows = db.execute(Q["retry_stuck"], params).fetchall()
        return sorted(text(row, "job_id") for row in rows)

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        with self._database.tx() as db:
            return claim_prune_in(db, now, every)

    def prune_batch(self, before: datetime, limit: int) -> int:
        with self._database.tx() as db:
            deleted = db.execute(Q["prune"], {"before": ts(before), "limit": limit}).rowcount
            db.execute(Q["prune_batches"], {"before": ts(before)})
            return deleted


def _record(
    db: sqlite3.Connection,
    source: str,
    jobs: list[dict[str, Any]],
    at: str | None,
    prime: bool,
    flood: int,
    flood_notice: Listing | None,
) -> dict[str, int]:
    """`record` inside its transaction (see the port for what it means)."""
    ids = json.dumps([job["job_id"] for job in jobs])
    counts: dict[str, int] = {}
    row = db.execute(Q["source_primed"], {"source": source}).fetchone()
    primed = bool(row and flag(row, "primed")) and not prime
    db.execute(Q["refresh_seen"], {"now": at, "ids": ids})
    if prime:  # waiting alerts a person's prime dropped: said
        unsent = db.execute(Q["prime_known"], {"ids": ids}).rowcount
        if unsent > 0:
            counts["unsent"] = unsent
    unknown = 0
    if primed and flood > 0 and flood_notice is not None:
        unknown = integer(db.execute(Q["count_unknown"], {"ids": ids}).fetchone(), "unknown")
    # A flood is a board that renumbered: more new listings than `flood`, and none of what
    # the read shows seen before. New listings above ones still there are a burst.
    shown = len({job["job_id"] for job in jobs})
    flooded = unknown > flood and unknown == shown
    if flooded and flood_notice is not None:
        payload = flood_notice.payload()
        payload["title"] = payload["title"] % unknown
        insert_notice(db, flood_notice.job_id, payload, at)
        counts["flood"] = unknown
    if prime or jobs:
        db.execute(Q["mark_primed"], {"source": source, "now": at})
    params = {"source": source, "primed": primed, "flood": flooded, "now": at}
    # The listings alone: the chats' rows go in flat, below.
    document = json.dumps([{k: v for k, v in job.items() if k != "chats"} for job in jobs])
    new = set()
    for row in db.execute(Q["insert_new"], {**params, "jobs": document}).fetchall():
        status = text(row, "status")
        counts[status] = counts.get(status, 0) + 1
        new.add(text(row, "job_id"))
    if primed and not flooded and new and any("chats" in job for job in jobs):
        rows = (
            {
                "job_id": job["job_id"],
                "chat": match["chat"],
                "listing": match.get("listing")
                or {**job["listing"], "keywords": match.get("keywords", [])},
            }
            for job in jobs
            if job["job_id"] in new
            for match in sorted(job.get("chats", ()), key=lambda m: str(m["chat"]))
        )
        # In slices, in this one transaction: 50 listings for 10,000 subscribers are 54,000
        # rows, whose document at once was 60 MB of text held twice (hunter run
        # within 256 MB); a slice's is 2 MB.
        for_chats = 0
        while chunk := list(itertools.islice(rows, CHAT_ROWS_AT_ONCE)):
            chat_params = {"source": source, "now": at, "rows": json.dumps(chunk)}
            for_chats += len(db.execute(Q["insert_for_chats"], chat_params).fetchall())
        if for_chats:
            counts["chats"] = for_chats
    return counts


def insert_notice(
    db: sqlite3.Connection, job_id: str, payload: dict[str, Any], at: str | None
) -> bool:
    """Queue a notice of hunter's own (inside the caller's transaction)."""
    params = {"job_id": job_id, "listing": json.dumps(payload), "now": at}
    return bool(db.execute(Q["insert_notice"], params).rowcount)


def claim_prune_in(db: sqlite3.Connection, now: datetime, every: timedelta) -> bool:
    """`claim_prune` inside a transaction of the caller's (a cron run's look too)."""
    params = {"now": ts(now), "due_before": ts(now - every)}
    return bool(db.execute(Q["claim_prune"], params).fetchall())
