"""The poller: read the sources, judge each one's health once, record what a good read found,
and note every source's poll in the store. It sends nothing: what it records as `pending` waits
in the outbox for the deliverer.

Recording is the store's single statement per source: new listings inserted, known ones
refreshed, a never-primed source primed silently, a flood recorded quietly with one notice.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from hunter.errors import StoreError
from hunter.poll import health, timetable
from hunter.poll.health import HealthVerdict
from hunter.poll.merging import Copies, same_page, with_page
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER, Destinations
from hunter.rules.fanout import Fanout, Judge
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import Judgement, judge
from hunter.rules.listing import Listing
from hunter.settings.config import Config
from hunter.sources.spec import SourceConfig
from hunter.store import Store
from hunter.store.records import ReadRow, SourceState
from hunter.store.states import RowStatus
from hunter.words import notices, plural

if TYPE_CHECKING:
    from hunter.sources.reader import SourceRead

log = logging.getLogger("hunter")

# The states a listing never seen before is recorded in (a flood's count is not one).
NEW_ROWS = (RowStatus.PENDING, RowStatus.IGNORED, RowStatus.PRIMED)
# The arrivals a read teaches the schedule: what is new, but not what a first read primes
# (it was there before hunter looked), nor a flood (a board renumbered, not 500 arrivals).
ARRIVED = (RowStatus.PENDING, RowStatus.IGNORED)
LEASE_SHARE = 0.9  # of an interval: a source's lease runs out just before its next poll


@dataclass(frozen=True)
class SourcePoll:
    """One source's part of a poll: what was read, the verdict, and what was recorded."""

    read: SourceRead
    verdict: HealthVerdict
    recorded: dict[str, int] = field(default_factory=dict)  # new rows per status, and "flood"

    @property
    def name(self) -> str:
        return self.read.name

    @property
    def error(self) -> str | None:
        return self.read.error

    def count(self, status: RowStatus) -> int:
        return self.recorded.get(status, 0)


@dataclass(frozen=True)
class Polled:
    """What one poll did: each source's part, and what the delivery and the schedule after
    it need to know of it."""

    sources: list[SourcePoll]
    # Chats paused from their chat, as the poll read them; None: it read no rules (nothing new
    # to judge), and the delivery reads them if anything waits.
    paused: frozenset[str] | None = frozenset()
    noticed: bool = False  # a source's notice was queued (broken, recovered, a flood)
    not_due: int = 0  # sources not read: not due yet, or another replica's
    # Each of this replica's sources' next read as the poll left it: `hunter run` sleeps until
    # the earliest without reading the store again.
    next_reads: dict[str, datetime | None] = field(default_factory=dict)

    @property
    def added(self) -> bool:
        """A new listing waits to be sent."""
        return any(s.count(RowStatus.PENDING) for s in self.sources)

    @property
    def wrote(self) -> bool:
        """Anything was written that could wait in the outbox: a row, a notice, a copy."""
        return self.noticed or any(any(s.recorded.values()) for s in self.sources)


def noted_reads(
    sources: Sequence[SourceConfig], states: Mapping[str, SourceState]
) -> dict[str, datetime | None]:
    """Each source's next read as the store noted it (None: never read)."""
    return {s.name: states[s.name].not_before if s.name in states else None for s in sources}


class Poller:
    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Callable[[], datetime],
        worker: str,
        stop: threading.Event | None = None,
        destinations: Destinations | None = None,
    ) -> None:
        self.config = config
        self.destinations = destinations or Destinations(None, config.chats)
        self.store = store
        self.clock = clock
        self.worker = worker
        self.stop = stop or threading.Event()  # set: fetches in flight are cancelled

    def poll(
        self,
        ahead: float = math.inf,
        fixed_now: bool = False,
        states: dict[str, SourceState] | None = None,
    ) -> Polled:
        """Read this replica's sources that are due (a scheduled read up to `ahead` seconds
        early; by default all but what `every` or the site holds), each claimed in the store
        first, and record what they show. `fixed_now`: see timetable.due. `states`: the
        sources' rows as the caller read them just now (a cron run's look), else read."""
        states = self.store.sources.states() if states is None else states
        now = self.clock()
        sources = self._my_sources(now)
        due = timetable.due(sources, states, self.config, now, ahead, fixed_now)
        until = timetable.claim_until(self.config, now)
        claimed = self.store.sources.claim(due, until) if due else set()
        # This replica's sources only: one another replica holds (share_sources) is its
        # wake, not ours, even one it has not read yet; a dead replica's lease is looked at
        # again within interval_minutes.
        next_reads = noted_reads(sources, states)
        next_reads.update(dict.fromkeys(due, until))  # ours, or another replica's claim
        # A source whose host's turn did not come last time is read first (its thread asks
        # its host's gate first).
        mine = [s for s in sources if s.name in claimed]
        mine.sort(key=lambda s: states[s.name].read_reason != WAITED if s.name in states else True)
        not_due = len(self.config.sources) - len(mine)
        # A cron run with nothing due loads no HTTP client and no reader
        reads = _read(self, mine, states, now, until) if mine else []
        polled = self._take(reads, states, now, prime=False, next_reads=next_reads)
        return replace(polled, not_due=not_due)

    def prime(self, sources: Sequence[SourceConfig]) -> list[SourcePoll]:
        """Record everything these sources show now as seen; nothing will be sent for it."""
        states = self.store.sources.states()
        now = self.clock()
        from hunter.sources.reader import read_sources

        timeout = self.config.fetch_timeout_seconds
        reads = read_sources(sources, states, timeout, now, conditional=False, stop=self.stop)
        return self._take(reads, states, now, prime=True).sources

    def _my_sources(self, now: datetime) -> list[SourceConfig]:
        """Every source, or with share_sources the ones this replica holds the lease of: one
        replica polls each source per interval, and a dead replica's leases run out."""
        sources = list(self.config.sources)
        if not self.config.share_sources:
            return sources
        until = now + timedelta(minutes=LEASE_SHARE * self.config.interval_minutes)
        mine = self.store.sources.lease([s.name for s in sources], self.worker, now, until)
        if len(mine) < len(sources):
            log.info(
                "polling %d of %d sources; other replicas hold the rest", len(mine), len(sources)
            )
        return [s for s in sources if s.name in mine]

    def _take(
        self,
        reads: list[SourceRead],
        states: dict[str, SourceState],
        now: datetime,
        prime: bool,
        next_reads: dict[str, datetime | None] | None = None,
    ) -> Polled:
        """Record what each good read found, and note every source's poll and health: what
        the poll did, with each source's next read (`next_reads`, as noted)."""
        polls, notes = [], []
        # A page shown again as it was recorded is not recorded again (same_page), nor one
        # the site says is as before (304): a quiet poll judges nothing, so it reads neither
        # the chats' rules nor who joined.
        keep = self.config.prune_after_days
        again = {r.name for r in reads if same_page(r.listings, states.get(r.name), now, keep)}
        judging = not prime and any(
            r.listings and not (r.stopped or r.unchanged) and r.name not in again for r in reads
        )
        rules = self.store.chat.rules(now) if judging else {}
        paused = frozenset(c for c, r in rules.items() if r.paused) if judging else None
        if judging and self.config.subscribers.open:  # who joined, as of now
            joined = [s.chat for s in self.store.subscribers.all() if s.active]
            self.destinations = self.destinations.with_subscribers(joined)
        judges_of = Judging(rules, self.destinations)
        for read in reads:
            if read.stopped:  # cut short by a stop request: nothing to record or note
                polls.append(SourcePoll(read, HealthVerdict(None)))
                continue
            state = states.get(read.name)
            judged = health.assess(read, state, self.config, now)
            recorded: dict[str, int] = {}
            try:
                if prime and judged.verdict.good is not False:  # a person asked: empty counts
                    recorded = self.store.outbox.record(
                        read.name, read.listings, set(), now, prime=True
                    )
                elif judged.verdict.good and read.name not in again:
                    recorded = self._record(read, now, judges_of, state)
            except StoreError as exc:
                # This source's listings could not be written; the others still are. It
                # counts as a failed poll of this source, with the database's reason.
                read = replace(read, error=f"recording its listings failed: {exc}")
                judged = health.assess(read, state, self.config, now)
            _warn(read, judged.verdict, state)
            if read.cut:
                log.warning("source %s: %s", read.name, read.cut)
            polls.append(SourcePoll(read, judged.verdict, recorded))
            if read.waited:  # due again at once, first in line; its health and validators kept
                waited = replace(judged.note, not_before=now, keep_validators=True)
                notes.append(replace(waited, read_reason=WAITED))
                continue
            new = None if not judged.verdict.good else _arrived(recorded)
            schedule = timetable.plan(read, state, new, self.config, now)
            kept = judged.verdict.good and read.name not in again
            schedule = with_page(schedule, read.listings if kept else None, state, now)
            notes.append(replace(judged.note, **schedule))
        # The reads kept for the history go with the notes: one round trip.
        rows = history(polls, now) if not prime else []
        broken_after = self.config.broken_after
        noted = self.store.sources.note(notes, now, broken_after, rows) if notes else []
        next_reads = {**(next_reads or {}), **{note.name: note.not_before for note in notes}}
        for name in noted:
            log.warning("source %s: health notice queued for the owner's chat", name)
        # A notice was queued (`noticed`): the delivery looks again.
        return Polled(polls, paused, bool(noted), next_reads=next_reads)

    def _record(
        self,
        read: SourceRead,
        now: datetime,
        judges_of: Judging,
        state: SourceState | None,
    ) -> dict[str, int]:
        """Judge each listing for the owner's chat and each [[chats]] reading this source (each
        with its own rules, what it changed from its chat and its mutes), and record it with
        the chats it matches. A read whose listings were posted since the last good one is a
        burst, never a flood, however many are new."""
        source = read.source
        listings, matched = [], set()
        (_owner, owner_filter, owner_mutes), fanout = judges_of.source(source)
        for_chats: dict[str, list[tuple[str, Listing]]] = {}
        last = state.cadence if state else None  # its last page's listings are no copies
        copies = Copies.of(
            read.listings, source, self.store, self.config, self.destinations, now, last=last
        )
        owner_reads = self.destinations.owner_reads
        for listing, likeness in copies.listings:
            new = listing.job_id not in copies.shown_before  # held back: counted once
            listing, first = copies.decide(listing, likeness)
            wanted = list(fanout.judge(listing, new)) if len(fanout) else []
            owner = judge(listing, owner_filter, owner_mutes) if owner_reads else None
            wanting = {n for n, _ in wanted} | ({OWNER} if owner and owner.matched else set())
            merged = copies.merged_for(first, wanting, listing)  # got its first: no second
            if sent := marked_for(listing, wanted, merged):
                for_chats.setdefault(listing.job_id, []).extend(sent)
            if owner and owner.matched and OWNER not in merged:
                matched.add(listing.job_id)
                listing = owner.marked(listing)
            if merged:
                log.info("source %s: %s is %s", source.name, listing.url, listing.same_why)
            copies.add(listing, likeness, wanting - merged, first)
            listings.append(listing)
            if new:  # what its places, languages, taps held back, once a listing
                fanout.count(OWNER, owner)
        flood = self.config.flood_limit(source)
        recorded = self.store.outbox.record(
            source.name,
            listings,
            matched,
            now,
            flood=0 if fresh_burst(read.listings, flood, state) else flood,
            flood_notice=notices.flood(source, [x.title for x in read.listings], now),
            chats=for_chats,
        )
        _log_recorded(source.name, recorded)
        count_held(self.store, fanout.take_held(), now)
        if copies.also:  # the first alerts gain "also on <board>" (deliver/editor.py)
            self.store.edits.add(copies.also, now)
        return {**recorded, "merged": copies.merged} if copies.merged else recorded


def marked_for(
    listing: Listing, wanted: Sequence[tuple[str, Judgement]], merged: Collection[str]
) -> list[tuple[str, Listing]]:
    """Each chat that wants `listing` (but those that got its first copy) with the listing as
    its verdict marks it. Chats of one verdict share one marked listing: a read of 50 for
    10,000 subscribers made 52,218, most of them alike (bench/community.py's memory)."""
    alike: dict[tuple[tuple[str, ...], str, str, str], Listing] = {}
    out = []
    for name, verdict in wanted:
        if name not in merged:
            key = (verdict.keywords, verdict.like, verdict.kin, verdict.near)
            if (chosen := alike.get(key)) is None:
                chosen = alike[key] = verdict.marked(listing)
            out.append((name, chosen))
    return out


def count_held(store: Store, held: Mapping[str, Mapping[str, int]], now: datetime) -> None:
    """Add what each chat's places, languages and taps held back of a read to its counts:
    a write only when something was. A count is for people to look at: a database
     that refuses it fails no poll."""
    rows = {chat: dict(layers) for chat, layers in held.items() if any(layers.values())}
    if not rows:
        return
    try:
        store.chat.count_held(rows, now)
    except StoreError as exc:
        log.warning("the listings held back for %d chats were not counted: %s", len(rows), exc)


def history(polls: list[SourcePoll], now: datetime) -> list[ReadRow]:
    """Each source read this poll, as the status's history keeps it (with the sources'
    notes). The history is for people to look at: a database that refuses it fails no poll."""
    return [
        ReadRow(
            source=poll.name,
            read_at=now,
            listings=0 if poll.error else len(poll.read.listings),
            new=sum(poll.count(status) for status in NEW_ROWS),
            matching=poll.count(RowStatus.PENDING),
            merged=poll.recorded.get("merged", 0),
            error=poll.error,
            seconds=round(poll.read.seconds, 3),
        )
        for poll in polls
        if not (poll.read.stopped or poll.read.waited)  # never asked: no read to keep
    ]


def _log_recorded(source: str, recorded: Mapping[str, int]) -> None:
    if recorded.get(RowStatus.PRIMED) and not recorded.get("flood"):
        log.info(
            "source %s primed silently: %s recorded, none sent",
            source,
            plural(recorded[RowStatus.PRIMED], "listing"),
        )
    if recorded.get("flood"):
        log.warning(
            "source %s showed %d new listings at once: recorded silently, one notice queued",
            source,
            recorded["flood"],
        )


WAITED = "waited"  # the read_reason of a source whose host's turn did not come

# A board's posted time may trail its page by this much (a clock, a cache) and still be new.
POSTED_SLACK = timedelta(hours=1)


def fresh_burst(listings: Sequence[Listing], flood: int, state: SourceState | None) -> bool:
    """More listings than `flood` say they were posted since the source's last good read:
    arrivals, not a board that renumbered (whose listings keep their old times), even when
    the burst fills the whole page and nothing seen before is left on it."""
    since = state.last_good_at if state else None
    if not flood or since is None:
        return False
    after = (since - POSTED_SLACK).astimezone(UTC).isoformat(timespec="seconds")
    return sum(1 for x in listings if x.posted and x.posted >= after) > flood


def _read(
    poller: Poller,
    mine: list[SourceConfig],
    states: dict[str, SourceState],
    now: datetime,
    until: datetime,
) -> list[SourceRead]:
    """Read the sources a poll claimed until `until`. What a stop cut short (Ctrl-C, a
    deploy's SIGTERM) is due again at once, not when the claim runs out: the next `run
    --once` said "not due yet" for a minute."""
    from hunter.sources.reader import read_sources

    timeout = poller.config.fetch_timeout_seconds
    try:
        reads = read_sources(mine, states, timeout, now, stop=poller.stop)
    except KeyboardInterrupt:  # `run --once` in a terminal: Python's own Ctrl-C
        _release([s.name for s in mine], until, poller.store, now)
        raise
    _release([r.name for r in reads if r.stopped], until, poller.store, now)
    return reads


def _release(stopped: list[str], until: datetime, store: Store, now: datetime) -> None:
    """The sources whose read a stop cut short: due at `now`, as the claim was taken (a
    compare-and-set: a claim that is no longer this poll's, until `until`, stays)."""
    if stopped:
        with contextlib.suppress(StoreError):  # the claim runs out by itself then
            store.sources.claim(dict.fromkeys(stopped, until), now)


def _warn(read: SourceRead, verdict: HealthVerdict, state: SourceState | None) -> None:
    """The log's word on a read: a failure's reason; or, for a read that answered and found
    nothing of a source that never found a listing, that too: no failure (a search may have
    no result yet), and no silence either (a selector's typo)."""
    answered = not (read.error or read.unchanged or read.stopped or read.waited)
    if verdict.good is False:
        log.warning("source %s: %s", read.name, verdict.reason)
    elif answered and not read.listings and not (state and state.last_good_at):
        log.warning(
            "source %s: no listing found on its page yet; if the page shows some, its "
            "selectors find none: `hunter check` shows what they find",
            read.name,
        )


def _arrived(recorded: Mapping[str, int]) -> int:
    return 0 if recorded.get("flood") else sum(recorded.get(s, 0) for s in ARRIVED)


class Judging:
    """Who judges each source's listings in one poll: the owner's chat, and every other chat
    indexed by its words (rules/fanout.py). Made once for the sources of one filter and one
    set of [[chats]] reading them, not once a source: with 10,000 subscribers the making
    takes about a third of a second of CPU, paid again by every source with news."""

    def __init__(self, rules: Mapping[str, ChatRules], destinations: Destinations) -> None:
        self._rules, self._destinations = rules, destinations
        self._made: list[tuple[FilterConfig, tuple[str, ...], Judge, Fanout]] = []

    def source(self, source: SourceConfig) -> tuple[Judge, Fanout]:
        """The owner's chat's judge of `source`'s listings, and the others' index."""
        readers = tuple(c.name for c in self._destinations.chats if c.reads(source.name))
        for filter_, names, owner, fanout in self._made:
            if names == readers and filter_ == source.filter:
                fanout.take_held()  # a read whose recording failed left its count: not ours
                return owner, fanout
        owner, *others = judges(self._rules, self._destinations, source)
        fanout = Fanout(others)
        self._made.append((source.filter, readers, owner, fanout))
        return owner, fanout


def judges(
    rules: Mapping[str, ChatRules], destinations: Destinations, source: SourceConfig
) -> list[Judge]:
    """Who judges `source`'s listings, the owner's chat first, then each [[chats]] that reads
    it, then each subscriber that has set a keyword (one that has not gets none: it was told
    how): its name, its filter as the poll judges with it, and its mutes in force."""
    names = [OWNER, *(c.name for c in destinations.chats if c.reads(source.name))]
    found = [(name, *destinations.rules_for(name, source.filter, rules)) for name in names]
    for chat in sorted(destinations.subscribers):
        if chat in rules and rules[chat].added:
            filter_, mutes = destinations.rules_for(chat, source.filter, rules)
            if filter_.include:
                found.append((chat, filter_, mutes))
    return found
