"""One poll: fetch -> parse -> filter -> record -> (claim -> push -> finish)* -> prune when due.

`Hunter` holds no state between polls that matters: everything that must survive a restart
(what was seen, what is in flight, when the last prune ran) is in the store. A stop request
(`stop` event, set on SIGTERM) is checked before every claim, so no new push starts after it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from hunter import notices, policy, source_health
from hunter.config import Config, SourceConfig
from hunter.errors import LineError, StoreError
from hunter.filters import matches
from hunter.line import Sender, render
from hunter.line.render import MAX_PER_PUSH
from hunter.sources.reader import SourceRead, read_sources
from hunter.store import Claimed, Store
from hunter.store.base import SourceState

log = logging.getLogger("hunter")

PRUNE_EVERY = timedelta(hours=24)
LEASE_SHARE = 0.9  # of an interval: a source's lease runs out just before its next poll
QUOTA_WARNING = 0.8  # share of the month's LINE messages that earns one warning
WAIT_FOR_RETRY = timedelta(seconds=10)  # a retry due this soon is waited for within the poll
DELIVERY_BUDGET_SECONDS = 60.0  # in-poll waiting for retries stops after this long
FINISH_RETRIES = (0.5, 2.0, 5.0)  # writing a push's outcome survives a short database blip


def utcnow() -> datetime:
    return datetime.now(UTC)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class Delivery:
    sent: int = 0
    pushes: int = 0
    failed: int = 0  # listings whose push failed this poll (they wait in retry or stuck)
    stopped: str | None = None  # why delivery stopped early, if it did


@dataclass
class PollReport:
    sources: list[SourceRead]
    delivery: Delivery
    pruned: int | None = None
    seconds: float = 0.0

    @property
    def all_sources_failed(self) -> bool:
        return bool(self.sources) and all(s.error for s in self.sources)

    def line(self) -> str:
        new = sum(s.new.get("pending", 0) for s in self.sources)
        primed = sum(s.new.get("primed", 0) for s in self.sources)
        failed = [s.name for s in self.sources if s.error]
        unchanged = sum(s.unchanged for s in self.sources)
        waiting = [s.name for s in self.sources if s.waiting_until]
        parts = [
            f"poll: {len(self.sources)} sources, {sum(len(s.listings) for s in self.sources)} "
            f"listings, {new} new matching, {primed} primed",
            f"{self.delivery.sent} sent in {self.delivery.pushes} pushes",
        ]
        if self.delivery.failed:
            parts.append(f"{self.delivery.failed} waiting after a failed push")
        if unchanged:
            parts.append(f"{unchanged} unchanged (304)")
        if waiting:
            parts.append(f"waiting as asked (Retry-After): {', '.join(waiting)}")
        if failed:
            parts.append(f"failed sources: {', '.join(failed)}")
        if self.pruned is not None:
            parts.append(f"pruned {self.pruned}")
        parts.append(f"{self.seconds:.1f} s")
        return "; ".join(parts)


class Hunter:
    def __init__(
        self,
        config: Config,
        store: Store,
        sender: Sender,
        clock: Callable[[], datetime] = utcnow,
        worker: str | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.sender = sender
        self.clock = clock
        self.worker = worker or worker_name()
        self.stop = stop or threading.Event()

    def poll(self) -> PollReport:
        started = time.monotonic()
        config = self.config
        states = self.store.source_states()
        now = self.clock()
        reads = read_sources(self._my_sources(now), states, config.fetch_timeout_seconds, now)
        self._take(reads, states, now, prime=False)
        delivery = self.deliver()
        if delivery.sent:
            self.warn_quota()
        pruned = None
        if not self.stop.is_set() and self.store.claim_prune(self.clock(), PRUNE_EVERY):
            pruned = self.prune()
        report = PollReport(reads, delivery, pruned, time.monotonic() - started)
        log.info(report.line())
        return report

    def _my_sources(self, now: datetime) -> list[SourceConfig]:
        """Every source, or with share_sources the ones this replica holds the lease of: one
        replica polls each source per interval, and a dead replica's leases run out."""
        sources = list(self.config.sources)
        if not self.config.share_sources:
            return sources
        until = now + timedelta(minutes=LEASE_SHARE * self.config.interval_minutes)
        mine = self.store.lease_sources([s.name for s in sources], self.worker, now, until)
        if len(mine) < len(sources):
            log.info(
                "polling %d of %d sources; other replicas hold the rest", len(mine), len(sources)
            )
        return [s for s in sources if s.name in mine]

    def _record(self, read: SourceRead, now: datetime) -> None:
        source = read.source
        matched = {x.job_id for x in read.listings if matches(x, source.filter)}
        notice = notices.flood(source, [x.title for x in read.listings], now)
        read.new = self.store.record(
            source.name,
            read.listings,
            matched,
            now,
            flood=self.config.flood_limit(source),
            flood_notice=notice,
        )
        if read.new.get("primed") and not read.new.get("flood"):
            log.info(
                "source %s primed silently: %d listings recorded, none sent",
                source.name,
                read.new["primed"],
            )
        if read.new.get("flood"):
            log.warning(
                "source %s showed %d new listings at once: recorded silently, one notice queued",
                source.name,
                read.new["flood"],
            )

    def prime(self, sources: Sequence[SourceConfig]) -> list[SourceRead]:
        """Record everything these sources show now as seen, and send nothing."""
        states = self.store.source_states()
        now = self.clock()
        reads = read_sources(
            sources, states, self.config.fetch_timeout_seconds, now, conditional=False
        )
        self._take(reads, states, now, prime=True)
        return reads

    def _take(
        self, reads: list[SourceRead], states: dict[str, SourceState], now: datetime, prime: bool
    ) -> None:
        """Record what each good read found, and note every source's poll and health."""
        notes = []
        for read in reads:
            state = states.get(read.name)
            verdict = source_health.judge(read, state)
            if prime and verdict.good is not False:  # a person asked: empty pages count too
                read.new = self.store.record(read.name, read.listings, set(), now, prime=True)
            elif verdict.good:
                self._record(read, now)
            elif verdict.good is False:
                log.warning("source %s: %s", read.name, verdict.reason)
            notes.append(source_health.note(read, state, verdict, self.config, now))
        for name in self.store.note_sources(notes, now, self.config.broken_after):
            log.warning("source %s: health notice queued for LINE", name)

    def warn_quota(self) -> None:
        """When 80% of LINE's monthly messages are used, queue one notice for the month: it
        goes out with the next push, through the outbox like every alert."""
        try:
            quota = self.sender.quota()
        except LineError as exc:
            log.warning("could not read LINE's message quota: %s", exc)
            return
        if quota is None or quota[0] is None or quota[1] < QUOTA_WARNING * quota[0]:
            return
        limit, used = quota
        notice = notices.quota(used, limit, self.clock(), self.config.timezone)
        if self.store.enqueue(notice, self.clock()):
            log.warning("%s: a notice goes out with the next push", notice.title)

    def prune(self, days: float | None = None) -> int:
        days = self.config.prune_after_days if days is None else days
        return self.store.prune(self.clock() - timedelta(days=days))

    # -- delivery ----------------------------------------------------------------------------
    def deliver(self) -> Delivery:
        """Push what is due, batch by batch, until nothing is left, the poll's cap is reached,
        LINE says stop (auth, quota, rate limit, outage), or a stop is requested."""
        report = Delivery()
        started = time.monotonic()
        lease = timedelta(seconds=self.config.lease_seconds)
        while not self.stop.is_set():
            now = self.clock()
            room = self.config.max_alerts_per_poll - report.sent
            batch = self.store.claim_due(self.worker, now, now - lease) if room > 0 else []
            messages = self._stored_messages(batch) if batch else None
            if not batch and room > 0:
                batch = self.store.claim_new(
                    self.worker, str(uuid.uuid4()), min(room, MAX_PER_PUSH), now
                )
            if not batch:
                if room > 0 and self._wait_for_retry(started):
                    continue
                break
            if messages is None:
                messages = self._new_messages(batch, room)
            if not self._push(batch, messages, report):
                break
        return report

    def _stored_messages(self, batch: list[Claimed]) -> list[dict[str, Any]] | None:
        """The body this batch was first pushed with: a retry sends it again, identical."""
        body = self.store.batch_body(batch[0].retry_key)
        return json.loads(body) if body else None

    def _new_messages(self, batch: list[Claimed], room: int) -> list[dict[str, Any]]:
        """Render a batch and write its body down before its first push."""
        note = None
        if len(batch) >= room and (waiting := self.store.count_pending()):
            note = (
                f"{waiting} more new listings wait for the next poll "
                f"(max_alerts_per_poll = {self.config.max_alerts_per_poll})."
            )
        messages = render.messages([c.listing for c in batch], note)
        self.store.save_batch(batch[0].retry_key, json.dumps(messages), self.clock())
        return messages

    def _wait_for_retry(self, started: float) -> bool:
        """Sleep until the next retry when it is due soon; False when there is none."""
        due = self.store.next_due()
        if due is None or time.monotonic() - started > DELIVERY_BUDGET_SECONDS:
            return False
        wait = (due - self.clock()).total_seconds()
        if wait > WAIT_FOR_RETRY.total_seconds():
            return False
        self.stop.wait(max(wait, 0.0))
        return True

    def _push(self, batch: list[Claimed], messages: list[dict[str, Any]], report: Delivery) -> bool:
        """Push one claimed batch and write down the outcome. False: stop delivering."""
        key = batch[0].retry_key
        now = self.clock()
        if now - batch[0].retry_key_at > timedelta(seconds=policy.RETRY_KEY_WINDOW_SECONDS):
            self._finish(
                lambda: self.store.mark_failed(
                    key, self.worker, "stuck", "unknown", policy.DELIVERY_UNKNOWN, None, False
                )
            )
            log.error("%d listings: %s", len(batch), policy.DELIVERY_UNKNOWN)
            return True
        result = self.sender.push([c.listing for c in batch], messages, key)
        report.pushes += 1
        decision = policy.decide(result, batch[0].attempts, len(batch), self.config.backoff_seconds)
        if decision.status == "sent":
            requeued = self._finish(lambda: self.store.mark_sent(key, self.clock()))
            report.sent += len(batch)
            if requeued:
                log.info("LINE accepts pushes again: %d parked listings re-queued", requeued)
            return True
        report.failed += len(batch)
        if decision.status == "split":
            ids = [c.job_id for c in batch]
            half = len(ids) // 2
            groups = [(str(uuid.uuid4()), ids[:half]), (str(uuid.uuid4()), ids[half:])]
            self._finish(lambda: self.store.split(key, self.worker, groups, self.clock()))
            report.failed -= len(batch)
            log.warning(
                "LINE rejected a batch of %d (%s); splitting it to find the listing",
                len(batch),
                result.summary,
            )
            return True
        next_at = self.clock() + timedelta(seconds=decision.delay) if decision.delay else None
        self._finish(
            lambda: self.store.mark_failed(
                key,
                self.worker,
                decision.status,
                decision.error_kind,
                decision.error,
                next_at,
                decision.count_attempt,
            )
        )
        if decision.status == "stuck":
            log.error("%d listings stuck: %s", len(batch), decision.error)
        else:
            log.warning("%d listings wait (%s): %s", len(batch), decision.status, decision.error)
        if decision.stop_delivery:
            report.stopped = decision.error
        return not decision.stop_delivery

    def _finish(self, write: Callable[[], int]) -> int:
        """Write a push's outcome, retrying through a short database outage. If it stays down,
        the rows stay `sending` and the lease hands them, key and all, to the next poll."""
        for pause in (*FINISH_RETRIES, None):
            try:
                return write()
            except StoreError as exc:
                if pause is None:
                    raise
                log.warning("writing a push's outcome failed (%s); trying again", exc)
                time.sleep(pause)
        raise AssertionError("unreachable")
