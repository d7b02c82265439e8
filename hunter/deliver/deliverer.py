"""The deliverer: empties the outbox into each chat's channel, batch by batch, exactly once.

For each batch it claims rows in the store (the database decides who owns them), asks the
allowance whether a new push may go (allowance.py: the month's messages spread over the
month; nothing during quiet hours), renders the batch and writes the body down before the
first push, pushes with the batch's retry key, asks the pure policy what the answer means,
and writes that outcome. A channel without a retry key gets a mark written before
each attempt: a batch found with its attempt marked but never answered may have arrived, and
is held for a person instead of sent again. A batch the pace holds goes back to `pending`, in
order, for the next allowed push. A refusal that would meet the next push too (a rate limit,
the month's quota, a refused token) holds its chat, or its channel, for the rest of the
delivery (`Holds`); every other chat is served as usual. It owns nothing else: what is in
the outbox, and why, is the poller's business.

What it sent is edited by editor.py.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from hunter.deliver import outcome, rate
from hunter.deliver.allowance import Allowance, local_time
from hunter.deliver.channel import Channel, Channels, rendered
from hunter.deliver.holds import HOLD_SECONDS, Holds
from hunter.deliver.outcome import SPLIT, Decision
from hunter.deliver.turns import Turns
from hunter.errors import StoreError
from hunter.rules.destinations import Destinations
from hunter.settings.config import Config
from hunter.store import Claimed, Store
from hunter.store.records import Failure
from hunter.store.states import ErrorKind, RowStatus
from hunter.words import plural

log = logging.getLogger("hunter")

WAIT_FOR_RETRY = timedelta(seconds=10)  # a retry due this soon is waited for within the call
DELIVERY_BUDGET_SECONDS = 60.0  # waiting for retries within one call stops after this long
FINISH_RETRIES = (0.5, 2.0, 5.0)  # writing a push's outcome survives a short database blip


@dataclass
class Delivery:
    """What one call of `Deliverer.deliver` came to."""

    sent: int = 0
    pushes: int = 0
    accepted: int = 0  # pushes a paced channel took (each one message of the month's quota)
    # Each listing (chat, job id) whose push failed and that was not sent after: it waits in
    # retry or stuck. A set: a batch that fails three times in one delivery is one listing.
    failing: set[tuple[str, str]] = field(default_factory=set)
    # Of them, those whose delivery is unknown (a channel without a retry key that did not
    # answer): never sent again by itself; `hunter retry` is a person's call
    unknown: set[tuple[str, str]] = field(default_factory=set)
    stopped: str | None = None  # why a chat or a channel was held (the last), if one was
    refused: str | None = None  # a channel refused hunter's token: what to do (auth)
    held: int = 0  # listings left waiting by the pace or quiet hours
    held_by: str = "the pace"  # or "quiet hours"
    next_push_at: datetime | None = None  # when the pace allows the next new batch, if later
    to_subscribers: int = 0  # of `sent`: the subscribers' (not counted against `most`)

    @property
    def failed(self) -> int:
        """Listings left waiting after a failed push (once each, however often it failed)."""
        return len(self.failing)

    def waits_for_a_person(self, batch: list[Claimed], decision: Decision) -> None:
        """`batch` waits for a person without a push: an attempt that was never answered is
        delivery unknown (`unknown`)."""
        if decision.error_kind is ErrorKind.UNKNOWN:
            self.unknown |= {(c.chat, c.job_id) for c in batch}

    def failed_push(self, batch: list[Claimed], decision: Decision, refused: bool) -> None:
        """A push of `batch` failed as `decision` says; `refused`: its channel refused the
        token (the fix is the decision's error)."""
        self.failing |= {(c.chat, c.job_id) for c in batch}
        if decision.status is RowStatus.STUCK:
            self.waits_for_a_person(batch, decision)
        if decision.holds is not None:
            self.stopped = decision.error
        if refused:
            self.refused = decision.error


class Deliverer:
    def __init__(
        self,
        config: Config,
        store: Store,
        sender: Channel | Channels,
        clock: Callable[[], datetime],
        worker: str,
        stop: threading.Event,
        sleep: Callable[[float], object] | None = None,
        pacing: bool = True,
        actions: bool = False,
        destinations: Destinations | None = None,
    ) -> None:
        """`sender`: the channels (app/ builds the router), or one channel for every chat,
        whose cards carry the buttons when `actions`."""
        self.config = config
        self.channels = (
            sender
            if isinstance(sender, Channels)
            else Channels(sender, answering={sender.name: actions})
        )
        rate.share(self.channels.all, store)  # a bot's pace, kept with every replica's
        self.destinations = destinations or Destinations(None, config.chats)
        self.calendar = config.calendar
        self.allowance = Allowance(config, store, self.channels, clock, self.destinations, pacing)
        self.store = store
        self.clock = clock
        self.worker = worker
        self.stop = stop
        self.turns = Turns()  # the subscribers', round robin (turns.py)
        self.sleep = sleep or stop.wait  # waits for a retry or a database blip; a stop ends it

    def deliver(
        self, most: int, paused: frozenset[str] | None = None, looked: Looked | None = None
    ) -> Delivery:
        """Push what is due, batch by batch, until nothing is left, `most` listings went to
        hunter.toml's chats (subscribers' go within their day and a call's time: turns.py),
        or a stop is requested. A chat whose channel refused it (a rate limit), or every chat
        of a channel that refused itself (auth, quota, an outage), gets no more this time.
        The chats `paused` from their phone get no new push (None: read from the store).
        `looked`: what is known of the outbox (nothing was added: look once before any
        claim); None: something was added, claim at once."""
        report, lease = Delivery(), timedelta(seconds=self.config.lease_seconds)
        if looked is not None and not anything_due(self.store, self.clock(), lease, looked):
            return report
        if paused is None:
            rules = self.store.chat.rules(self.clock())
            paused = frozenset(c for c, r in rules.items() if r.paused)
        started = time.monotonic()
        self.allowance.begin()
        done: set[str] = set(paused)  # chats with nothing more to push in this delivery
        self.destinations, full = self.turns.begin(
            self.config, self.store, self.destinations, self.clock()
        )
        done |= full  # subscribers that had their day's messages
        self.allowance.destinations = self.destinations  # a subscriber gone leaves there
        holds = Holds()
        while not self.stop.is_set():
            now = self.clock()
            room = most - report.sent + report.to_subscribers  # hunter.toml's chats' room
            batch = self.store.outbox.claim_due(self.worker, now, now - lease) if room > 0 else []
            if batch and holds.keep(batch, self._channel_of(batch[0].chat).name):
                continue
            messages = stored_messages(self.store, batch) if batch else None
            if not batch and (room > 0 or self.turns.open):
                if self.calendar.is_quiet(now):
                    report.next_push_at = self.calendar.quiet_until(now)
                    report.held, report.held_by = self.store.outbox.count_pending(), "quiet hours"
                    break
                batch = self._claim_new(room, now, report, done, holds)
            if not batch:
                if room > 0 and wait_for_retry(self.store, self.clock, self.sleep, started):
                    continue
                break
            if messages is None:
                messages = self._new_messages(batch, room, most, report.next_push_at)
            self._push(batch, messages, report, holds)
        for key, failure in holds.hand_back(self._local):
            finish(lambda: self.store.outbox.mark_failed(key, self.worker, failure))  # noqa: B023
        if self.allowance.plan_read:
            self.allowance.warn_quota(report.accepted)
        return report

    def _claim_new(
        self, room: int, now: datetime, report: Delivery, done: set[str], holds: Holds
    ) -> list[Claimed]:
        """A new batch (of at most `room` listings, and what its chat's channel carries in one
        push) for the first chat that has one, is not held, whose channel reaches it (not one
        still unset on a host), and that the pace allows, the owner's first, then the chats
        that spent least this month, then the subscribers in turn; [] when none has."""
        configured = self.destinations.names()[: 1 + len(self.destinations.chats)]
        ordered = self.allowance.order(configured, now) if room > 0 else []
        for chat in [*ordered, *self.turns]:
            if chat in done:
                continue
            channel = self.channels.of(to := self.destinations.to_of(chat))
            if not self.channels.reaches(to) or holds.until(chat, channel.name) is not None:
                done.add(chat)
                continue
            limit = self.turns.size(chat, channel.max_per_push, channel.digest_max, room)
            batch = self.store.outbox.claim_new(self.worker, str(uuid.uuid4()), limit, now, chat)
            if not batch:
                done.add(chat)
                continue
            verdict = self.allowance.claim_for(batch, chat, to, channel)
            if verdict.next_push_at is not None:
                report.next_push_at = verdict.next_push_at
            if verdict.granted:
                if not self.turns.served(chat, len(batch)):
                    done.add(chat)  # its messages_per_day: the rest wait for tomorrow
                return batch
            unsent = Failure.unsent(verdict.why)  # what holds it, for status to say
            self.store.outbox.mark_failed(batch[0].retry_key, self.worker, unsent)
            done.add(chat)
            report.held = self.store.outbox.count_pending()
        return []

    def _channel_of(self, chat: str) -> Channel:
        return self.channels.of(self.destinations.to_of(chat))

    def _new_messages(
        self, batch: list[Claimed], room: int, most: int, next_push_at: datetime | None
    ) -> list[dict[str, Any]]:
        """Render a batch and write its body down before its first push. Its last line says
        what waits beyond it, and when the pace lets the next push go if that is not soon."""
        lines, room = [], len(batch) + 1 if self.turns.has(batch[0].chat) else room  # no cap
        if len(batch) >= room and (waiting := self.store.outbox.count_pending()):
            lines.append(
                f"{waiting} more new listings wait for the next poll "
                f"(max_alerts_per_poll = {most})."
            )
        to = self.destinations.to_of(batch[0].chat)
        channel = self.channels.of(to)
        if next_push_at is not None and channel.paced:  # the pace holds no other channel
            lines.append(
                f"Next alerts from {self._local(next_push_at)}: paced to "
                f"{self.allowance.plan().budget} {channel.name} messages this month."
            )
        listings, note = [c.listing for c in batch], "\n".join(lines) or None
        messages = rendered(channel, listings, note, self.channels.actions(to))
        self.store.outbox.save_batch(batch[0].retry_key, json.dumps(messages), self.clock())
        return messages

    def _local(self, moment: datetime) -> str:
        return local_time(moment, self.config.timezone, self.clock())

    def _push(
        self, batch: list[Claimed], messages: list[dict[str, Any]], report: Delivery, holds: Holds
    ) -> None:
        """Push one claimed batch and write down the outcome; a refusal that would meet the
        next push too holds its chat or its channel (`holds`)."""
        key = batch[0].retry_key
        to = self.destinations.to_of(batch[0].chat)
        channel = self.channels.of(to)
        held = unpushable(batch, self.destinations, self.store, channel, self.clock())
        if held is not None:
            self._fail(key, held)
            log.error("%s: %s", plural(len(batch), "listing"), held.error)
            report.waits_for_a_person(batch, held)
            return
        result = channel.push(messages, key, to)
        report.pushes += 1
        steps, name = self.config.backoff_seconds, channel.name
        decision = outcome.decide(
            result, batch[0].attempts, len(batch), steps, channel.dedupes, name
        )
        if decision.status is RowStatus.SENT:
            requeued = finish(lambda: self.store.outbox.mark_sent(key, self.clock(), result.ref))
            report.sent += len(batch)
            report.failing -= {(c.chat, c.job_id) for c in batch}
            report.unknown -= {(c.chat, c.job_id) for c in batch}
            report.to_subscribers += len(batch) if self.turns.has(batch[0].chat) else 0
            report.accepted += 1 if channel.paced else 0
            if requeued:
                log.info("%s accepts pushes again: %d parked listings re-queued", name, requeued)
            return
        if decision.status == SPLIT:
            ids = [c.job_id for c in batch]
            half = len(ids) // 2
            groups = [(str(uuid.uuid4()), ids[:half]), (str(uuid.uuid4()), ids[half:])]
            finish(lambda: self.store.outbox.split(key, self.worker, groups, self.clock()))
            why = f"{name} rejected a batch of {len(batch)} ({result.summary})"
            log.warning("%s; splitting it to find the listing", why)
            return
        if moved(self.store, self.destinations, batch, result, self.worker, self.clock()):
            return
        if result.kind is outcome.Kind.GONE and to is not None:
            # Its rows wait; the owner is told once, in the channel's words.
            self.allowance.gone(batch[0].chat, to, f"{name} says {result.detail}")
        report.failed_push(batch, decision, refused=result.kind is outcome.Kind.AUTH)
        self._fail(key, decision)
        _log_failed(len(batch), decision)
        if decision.holds is not None:
            wait = timedelta(seconds=decision.delay or HOLD_SECONDS)
            holds.add(decision.holds, batch[0].chat, name, self.clock() + wait)

    def _fail(self, key: str, decision: Decision) -> None:
        failure = outcome.failure_of(decision, self.clock())
        finish(lambda: self.store.outbox.mark_failed(key, self.worker, failure))


def _log_failed(count: int, decision: Decision) -> None:
    """ "2 listings stuck: ..." (an error), or "1 listing waits (retry): ..." (a warning)."""
    if decision.status is RowStatus.STUCK:
        log.error("%s stuck: %s", plural(count, "listing"), decision.error)
    else:
        verb = "waits" if count == 1 else "wait"
        log.warning(
            "%s %s (%s): %s", plural(count, "listing"), verb, decision.status, decision.error
        )


def moved(
    store: Store,
    destinations: Destinations,
    batch: list[Claimed],
    result: outcome.PushResult,
    worker: str,
    now: datetime,
) -> bool:
    """A subscriber whose chat is another now (a Telegram group became a supergroup, issue
    55): it, its words and its rows move to the new id, and this batch goes there next. False
    for a chat of hunter.toml's: its `to` is the user's to change."""
    chat = batch[0].chat
    if not result.moved_to or not destinations.subscriber(chat):
        return False
    if finish(lambda: int(store.subscribers.move(chat, result.moved_to or "", now))):
        log.info("a subscribed group became a supergroup: it moved to its new id")
    finish(lambda: store.outbox.mark_failed(batch[0].retry_key, worker, Failure.unsent()))
    return True


def stored_messages(store: Store, batch: list[Claimed]) -> list[dict[str, Any]] | None:
    """The body this batch was first pushed with: a retry sends it again, identical."""
    body = store.outbox.batch_body(batch[0].retry_key)
    return json.loads(body) if body else None


def finish(write: Callable[[], int]) -> int:
    """Write a push's outcome, retrying through a short database outage. If it stays down,
    the rows stay `sending` and the lease hands them, key and all, to the next call."""
    for pause in FINISH_RETRIES:
        try:
            return write()
        except StoreError as exc:
            log.warning("writing a push's outcome failed (%s); trying again", exc)
            time.sleep(pause)
    return write()


def unpushable(
    batch: list[Claimed], destinations: Destinations, store: Store, channel: Channel, now: datetime
) -> Decision | None:
    """Why this batch must not be pushed (it waits for a person instead), or None: its
    [[chats]] was removed, a reply carried it when its worker died, the channel forgot its
    retry key, or, for a channel without a retry key, an attempt at it was never answered."""
    key = batch[0].retry_key
    if not destinations.knows(batch[0].chat):
        return outcome.chat_removed(batch[0].chat)
    if key.startswith(outcome.REPLY_KEY):
        return outcome.reply_interrupted()
    window = channel.retry_window
    if window is not None and now - batch[0].retry_key_at > timedelta(seconds=window):
        return outcome.key_expired(channel.name, window)
    if channel.dedupes:
        return None
    # Written down before each attempt is made; every answered attempt counts in `attempts`,
    # so one written already is an attempt that may have arrived.
    if not store.outbox.note_attempt(key, batch[0].attempts + 1, now):
        return outcome.unconfirmed()
    return None


def wait_for_retry(
    store: Store, clock: Callable[[], datetime], sleep: Callable[[float], object], started: float
) -> bool:
    """Sleep until the next retry when it is due soon (and the delivery, begun at `started`
    by time.monotonic(), is within its budget); False when there is none to wait for."""
    due = store.outbox.next_due()
    if due is None or time.monotonic() - started > DELIVERY_BUDGET_SECONDS:
        return False
    wait = (due - clock()).total_seconds()
    if wait > WAIT_FOR_RETRY.total_seconds():
        return False
    sleep(max(wait, 0.0))
    return True


@dataclass(frozen=True)
class Looked:
    """What the caller knows of the outbox before a delivery: nothing yet (`claimable` None:
    the delivery asks the store once before any claim), or the store's answer already (a
    cron run's look: store.outbox.look's)."""

    claimable: bool | None = None
    next_due: datetime | None = None  # the next retry's time, when the answer is known


def anything_due(store: Store, now: datetime, lease: timedelta, looked: Looked) -> bool:
    """Whether a claim could find something now, or a retry comes soon enough to wait: one
    look instead of a claim of each kind (a quiet cron run over Supabase: one call, not 3),
    or the one made already."""
    claimable, due = looked.claimable, looked.next_due
    if claimable is None:
        claimable, due = store.outbox.look(now, now - lease)
    return claimable or (due is not None and due - now <= WAIT_FOR_RETRY)
