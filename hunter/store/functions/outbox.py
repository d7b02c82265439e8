"""The outbox over hunter's PostgreSQL functions (see hunter/store/outbox.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from hunter.rules.listing import Listing
from hunter.store.columns import integer, text, whole_number
from hunter.store.functions.carrier import Document, FunctionCarrier, JsonText
from hunter.store.outbox import OutboxStore
from hunter.store.records import ChatMatches, Claimed, Failure, claimed, jobs_json


def notice_document(listing: Listing | None) -> Document | None:
    if listing is None:
        return None
    return Document({"job_id": listing.job_id, "listing": listing.payload()})


class FunctionOutbox(OutboxStore):
    def __init__(self, database: FunctionCarrier) -> None:
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
        result = self._database.table(
            "hunter_record",
            source=source,
            jobs=Document(JsonText(jobs_json(listings, matched, chats))),
            now=now,
            prime=prime,
            flood=flood,
            notice=notice_document(flood_notice),
        )
        return {text(row, "status"): integer(row, "n") for row in result}

    def claim_new(
        self, worker: str, key: str, limit: int, now: datetime, chat: str = ""
    ) -> list[Claimed]:
        rows = self._database.table(
            "hunter_claim_chat", worker=worker, key=key, limit=limit, now=now, chat=chat
        )
        return claimed(rows)

    def claim_due(self, worker: str, now: datetime, lease_before: datetime) -> list[Claimed]:
        rows = self._database.table(
            "hunter_claim_due", worker=worker, now=now, lease_before=lease_before
        )
        return claimed(rows)

    def save_batch(self, key: str, body: str, now: datetime) -> None:
        self._database.value("hunter_save_batch", key=key, body=body, now=now)

    def mark_sent(self, key: str, now: datetime, ref: str | None = None) -> int:
        sent = self._database.value("hunter_mark_sent", key=key, now=now, ref=ref)
        return whole_number(sent)

    def mark_failed(self, key: str, worker: str, failure: Failure) -> int:
        moved = self._database.value(
            "hunter_mark_failed",
            key=key,
            worker=worker,
            status=str(failure.status),
            error_kind=None if failure.error_kind is None else str(failure.error_kind),
            error=failure.error,
            next_at=failure.next_at,
            count_attempt=failure.count_attempt,
        )
        return whole_number(moved)

    def split(
        self, key: str, worker: str, groups: Sequence[tuple[str, Sequence[str]]], now: datetime
    ) -> int:
        document = Document([{"key": k, "ids": list(ids)} for k, ids in groups])
        moved = self._database.value(
            "hunter_split", key=key, worker=worker, groups=document, now=now
        )
        return whole_number(moved)

    def enqueue(self, notice: Listing, now: datetime, chat: str = "") -> bool:
        listing = Document(notice.payload())
        if chat:
            queued = self._database.value(
                "hunter_enqueue_for", chat=chat, job_id=notice.job_id, listing=listing, now=now
            )
        else:
            queued = self._database.value(
                "hunter_enqueue", job_id=notice.job_id, listing=listing, now=now
            )
        return bool(queued)

    def retry_stuck(self, job_ids: Sequence[str] | None) -> list[str]:
        ids = None if job_ids is None else list(job_ids)
        rows = self._database.table("hunter_retry_stuck", "job_id", ids=ids)
        return sorted(text(row, "job_id") for row in rows)

    def claim_prune(self, now: datetime, every: timedelta) -> bool:
        return bool(self._database.value("hunter_claim_prune", now=now, every=every))

    def prune_batch(self, before: datetime, limit: int) -> int:
        return whole_number(self._database.value("hunter_prune", before=before, limit=limit))
