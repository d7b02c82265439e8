"""One poll, composed: the poller reads and records, the deliverer empties the outbox, and the
daily prune runs when it is due.

`Hunter` holds no state between polls that matters: everything that must survive a restart
(what was seen, what is in flight, when the last prune ran) is in the store. A stop request
(`stop` event, set on SIGTERM) is checked before every claim, so no new push starts after it.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hunter.deliver.channel import Channel, Channels
from hunter.deliver.deliverer import Deliverer, Delivery, Looked, anything_due
from hunter.deliver.editor import edit_merged
from hunter.errors import StoreError
from hunter.poll import timetable
from hunter.poll.poller import Poller, SourcePoll, noted_reads
from hunter.rules.destinations import Destinations
from hunter.settings.config import Config
from hunter.sources.spec import SourceConfig
from hunter.store import Store
from hunter.store.sources import PollLook
from hunter.store.states import RowStatus
from hunter.words import plural

log = logging.getLogger("hunter")

PRUNE_EVERY = timedelta(hours=24)
ASKS_LOOK = timedelta(minutes=5)  # how often a process looks for asks to tell the owner of
REMOVALS_KEPT = timedelta(days=1)  # of two commands said at once, the later wins until then


def utcnow() -> datetime:
    return datetime.now(UTC)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass(frozen=True)
class PollReport:
    sources: list[SourcePoll]
    delivery: Delivery
    pruned: int | None = None
    seconds: float = 0.0
    not_due: int = 0  # sources not read: not due yet, or read by another replica
    timezone: str = "UTC"  # the config's: a time the line says is the user's clock's

    @property
    def all_sources_failed(self) -> bool:
        return bool(self.sources) and all(s.error for s in self.sources)

    @property
    def primed(self) -> int:
        """Listings recorded as seen and not sent: a source read for the first time."""
        return sum(s.count(RowStatus.PRIMED) for s in self.sources)

    def held_until(self, shape: str) -> str:
        """When what the pace or quiet hours held may go, on the user's clock ("07:00
        Asia/Bangkok" for "%H:%M"); "" when nothing was held."""
        at = self.delivery.next_push_at
        if not self.delivery.held or at is None:
            return ""
        return f"{at.astimezone(ZoneInfo(self.timezone)):{shape}} {self.timezone}"

    def line(self) -> str:
        reads = [s.read for s in self.sources]
        new = sum(s.count(RowStatus.PENDING) for s in self.sources)
        # The other chats' alerts of new listings (a [[chats]]'s, a subscriber's): a poll that
        # brought one only to them said "0 new matching" (a new user's find)
        others = sum(s.recorded.get("chats", 0) for s in self.sources)
        matching = f"{new} new matching" + (f" (+{others} for the other chats)" if others else "")
        if others and not new:  # no owner, or none for it: "0 new matching" read as none
            matching = f"{others} new matching for the chats"
        primed = self.primed
        failed = [r.name for r in reads if r.error and not r.stopped]  # a stop is no failure
        stopped = sum(r.stopped for r in reads)
        unchanged = sum(r.unchanged for r in reads)
        parts = [
            f"poll: {plural(len(reads), 'source')}, "
            f"{plural(sum(len(r.listings) for r in reads), 'listing')}, {matching}, "
            f"{primed} primed",
            f"{self.delivery.sent} sent in {plural(self.delivery.pushes, 'push', 'pushes')}",
        ]
        if waiting := len(self.delivery.failing - self.delivery.unknown):
            parts.append(f"{waiting} waiting after a failed push")
        if self.delivery.unknown:
            parts.append(f"{len(self.delivery.unknown)} stuck, delivery unknown")
        if until := self.held_until("%Y-%m-%d %H:%M"):
            parts.append(f"{self.delivery.held} held by {self.delivery.held_by} until {until}")
        if unchanged:
            parts.append(f"{unchanged} unchanged (304)")
        if self.not_due:
            parts.append(f"{self.not_due} not due yet")
        if failed:
            parts.append(f"failed sources: {', '.join(failed)}")
        if stopped:
            parts.append(f"{plural(stopped, 'source')} not read: stopped")
        if self.pruned is not None:
            parts.append(f"pruned {self.pruned}")
        parts.append(f"{self.seconds:.1f} s")
        return "; ".join(parts)


class Hunter:
    """A poller and a deliverer over one store, as `hunter run` and `run --once` use them."""

    def __init__(
        self,
        config: Config,
        store: Store,
        sender: Channel | Channels,
        clock: Callable[[], datetime] = utcnow,
        worker: str | None = None,
        stop: threading.Event | None = None,
        pacing: bool = True,
        actions: bool = False,
        line_to: str | None = None,
    ) -> None:
        """`sender`: the channels (hunter.channels.open_channels builds them from the
        environment), or one channel for every chat, whose cards carry the buttons when
        `actions`. `line_to`: the owner's chat (LINE_TO; None: the first [[chats]])."""
        self.config = config
        self.store = store
        self.clock = clock
        self.worker = worker or worker_name()
        self.stop = stop or threading.Event()
        self.destinations = Destinations(line_to, config.chats)
        self.paced_pushes = 0  # pushes the paced channel took since start: its month moved
        self.more_to_send = False  # the last delivery left subscribers' listings for the next
        self._asks_look_at = 0.0  # time.monotonic() before which no look at the asks
        self._nudged = threading.Event()  # a notice a person waits on was queued: poll now
        # Each source's next read as the last poll left it: what `hunter run` sleeps until.
        self._next_reads: dict[str, datetime | None] = {}
        self.poller = Poller(config, store, clock, self.worker, self.stop, self.destinations)
        self.deliverer = Deliverer(
            config,
            store,
            sender,
            clock,
            self.worker,
            self.stop,
            pacing=pacing,
            actions=actions,
            destinations=self.destinations,
        )

    @property
    def channels(self) -> Channels:
        return self.deliverer.channels

    def poll(
        self, ahead: float = math.inf, fixed_now: bool = False, look: PollLook | None = None
    ) -> PollReport:
        """Read the sources that are due (a scheduled read up to `ahead` seconds early; by
        default every source but what `every` or the site holds), deliver what waits, and
        prune when it is due. `look`: what a cron run looked at first (poll_once), so that
        none of it is asked again."""
        started = time.monotonic()
        self._nudged.clear()  # what the chat queued until now goes with this delivery
        states = look.states if look is not None else None
        polled = self.poller.poll(ahead, fixed_now, states)
        self._next_reads = polled.next_reads
        sources = polled.sources
        told = self.config.subscribers.asks and not self.stop.is_set() and self._tell_owner()
        if any(s.recorded.get("merged") for s in sources) and not self.stop.is_set():
            # The first alerts of jobs seen again: "also on <board>"; before the delivery, so
            # that a copy an alert cannot show (LINE, a message deleted) goes with it.
            d = self.deliverer
            edit_merged(self.store, d.channels, d.destinations, self.clock, self.stop)
        # The run's look answers for the outbox only when the poll wrote nothing that could
        # wait there: no new row, no notice (a flood, a source broken), no copy told apart.
        looked = None if polled.added else Looked()
        if look is not None and not polled.wrote and not told and looked is not None:
            looked = Looked(look.claimable, look.next_due)
        delivery = self.deliverer.deliver(self.config.max_alerts_per_poll, polled.paused, looked)
        self.paced_pushes += delivery.accepted
        # Its time on subscribers was up with more waiting: deliver again at once (not when
        # it pushed nothing at all: that would only spin).
        self.more_to_send = self.deliverer.turns.cut_short and delivery.pushes > 0
        pruned = None
        if look is not None:
            due = look.prune and not self.stop.is_set()  # its turn taken by the look
        else:
            due = not self.stop.is_set() and self.store.outbox.claim_prune(
                self.clock(), PRUNE_EVERY
            )
        if due:
            pruned = self.prune()
        seconds = time.monotonic() - started
        report = PollReport(
            sources, delivery, pruned, seconds, polled.not_due, self.config.timezone
        )
        log.info(report.line())
        return report

    def nudge(self) -> None:
        """The chat queued a notice a person waits on: the next poll comes at once (and one
        running now polls again after it)."""
        self._nudged.set()

    def _tell_owner(self) -> bool:
        """The card of the chats that asked to join since the last one, once it is due (at
        most every asks.CARDS_EVERY: read at most every ASKS_LOOK of this process); whether
        one was queued."""
        now = time.monotonic()
        if now < self._asks_look_at:
            return False
        self._asks_look_at = now + ASKS_LOOK.total_seconds()
        from hunter.chat import asks  # only where strangers ask: a quiet run imports no chat

        try:
            return asks.tell_owner(self.store, self.clock())
        except StoreError as exc:
            log.warning("the chats that ask to join wait for the next poll: %s", exc)
            return False

    def poll_once(self) -> PollReport:
        """A cron's run (`run --once`): its time kept to learn the cron's gap, and the
        sources read that are due before the next run is expected. Most runs of a cron
        find nothing to do: the quiet run ends on the one look it made (`quiet_run`)."""
        started = time.monotonic()
        now, lease = self.clock(), timedelta(seconds=self.config.lease_seconds)
        look = self.store.sources.look(now, timetable.TICKS_KEPT, now - lease, PRUNE_EVERY)
        ahead = timetable.ahead(timetable.gap(look.ticks), self.config)
        if self._quiet(look, ahead, now, lease):
            return self.quiet_run(look, time.monotonic() - started)
        return self.poll(ahead, fixed_now=True, look=look)

    def _quiet(self, look: PollLook, ahead: float, now: datetime, lease: timedelta) -> bool:
        """Whether the run's one look says there is nothing to do: no source due, nothing to
        send now or soon, no prune due, no chat that asks to join to tell of, no notice a
        person waits on. Replicas that share the sources lease them first: never quiet."""
        if self.config.share_sources or self.config.subscribers.asks or look.prune:
            return False
        if self._nudged.is_set():
            return False
        looked = Looked(look.claimable, look.next_due)
        if anything_due(self.store, now, lease, looked):
            return False
        sources = list(self.config.sources)
        return not timetable.due(sources, look.states, self.config, now, ahead, fixed_now=True)

    def quiet_run(self, look: PollLook, seconds: float) -> PollReport:
        """A cron run with nothing to do: no source read, no claim, no HTTP client, nothing
        written but the run's tick (kept by its look); said in one line, as every poll."""
        self._next_reads = noted_reads(self.config.sources, look.states)
        report = PollReport([], Delivery(), None, seconds, len(self.config.sources))
        log.info(report.line())
        return report

    def next_wake(self) -> datetime:
        """When `hunter run` polls next (the earliest next read, within an interval)."""
        now = self.clock()
        if self.more_to_send or self._nudged.is_set():  # something waits to go: at once
            return now
        return max(timetable.next_wake(self._next_reads, self.config, now), now)

    def prime(self, sources: Sequence[SourceConfig]) -> list[SourcePoll]:
        """Record everything these sources show now as seen, and send nothing."""
        return self.poller.prime(sources)

    def prune(self, days: float | None = None) -> int:
        """The daily prune (prune_store), of rows not seen for `days` (prune_after_days)."""
        days = self.config.prune_after_days if days is None else days
        return prune_store(self.store, self.config, self.clock(), days)


def prune_store(store: Store, config: Config, now: datetime, days: float) -> int:
    """Delete the outbox's rows done and not seen for `days` (how many), the history of reads
    and the likeness of listings older than that, forget the chats' removals of words older
    than a day (hunter.toml's words aside, whose removal stays in force), and forget wholly
    the subscribers gone (left, or never let in) for `days`: the daily prune, and `hunter
    prune` by hand."""
    before = now - timedelta(days=days)
    store.chat.drop_removals(now - REMOVALS_KEPT, configured_words(config))
    store.reads.prune(before)
    store.likeness.prune(before)  # beyond what a later copy is compared with
    forgotten = store.subscribers.prune(before)
    if forgotten:
        log.info("forgot %d chats gone for %g days", len(forgotten), days)
    return store.outbox.prune(before)


def configured_words(config: Config) -> set[str]:
    """Every include word of hunter.toml's, case-folded: the global [filter], each source's
    and each [[chats]]'s."""
    filters = [config.filter, *(s.filter for s in config.sources)]
    filters += [chat.filter_for(config.filter) for chat in config.chats]
    return {word.casefold() for f in filters for word in f.include}
