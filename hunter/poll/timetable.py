"""The sources' timetable: which are read now, when each is read next and why, and
when `hunter run` wakes. Pure but for the jitter's random draw: states and times in, times out.

A source's next read is kept in the store (`not_before`, with `read_reason`): its schedule
(cadence.py: busy, quiet, or fixed), or later when its own `every` or the site holds it
(Retry-After, a 429 or 503: "every", "site"). `hunter run` reads a source when it is due;
`run --once` (a cron) also reads those due before its next run is expected (half a gap
ahead, learned from the times of its last runs), and everything its schedule holds when
the cron comes no more often than interval_minutes: a 30-minute cron is never slower than
reading every source every run. What a site or `every` holds is never read early.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from hunter.poll.cadence import Bounds, Cadence, Seen, next_read
from hunter.rules.listing import Listing
from hunter.settings.config import Config
from hunter.sources.spec import MAX_WAIT_SECONDS, SourceConfig
from hunter.store.records import SourceState

if TYPE_CHECKING:  # the reader (httpx) is imported only by a poll that reads something
    from hunter.sources.reader import SourceRead

HELD = ("every", "site")  # reasons never read ahead of time
TICKS_KEPT = 12  # run times kept to learn a cron's gap
GAP_MAX = 86400.0  # a longer pause between runs is an outage, not the cron
CLAIM_MARGIN = 60.0  # seconds a claimed read may take beyond its fetch timeout
REFUSED = (429, 503)  # a site saying "too many" or "come back later" without a time


def due(
    sources: Sequence[SourceConfig],
    states: Mapping[str, SourceState],
    config: Config,
    now: datetime,
    ahead: float = 0.0,
    fixed_now: bool = False,
) -> dict[str, datetime | None]:
    """The sources to read now, each with the next read its state holds (for the claim).
    `ahead`: seconds a scheduled read may come early (a cron's half gap; inf: all of them).
    `fixed_now`: a `schedule = "fixed"` source is read now whatever its next read, as before
    the schedule: on every `run --once`, and on the first poll of a `hunter run`."""
    chosen: dict[str, datetime | None] = {}
    for source in sources:
        state = states.get(source.name)
        if state is None or state.not_before is None:
            chosen[source.name] = None  # never read: due, nothing to claim against
            continue
        fixed, _fastest, slowest = config.schedule_of(source)
        wait = (state.not_before - now).total_seconds()
        if wait > max(slowest, source.every_seconds, MAX_WAIT_SECONDS) + 3600:
            chosen[source.name] = state.not_before  # no schedule sets that: the clock went back
        elif state.read_reason in HELD:  # never early: the site's terms, or its refusal
            if wait <= 0:
                chosen[source.name] = state.not_before
        elif wait <= (math.inf if fixed_now and fixed else ahead):
            chosen[source.name] = state.not_before
    return chosen


def claim_until(config: Config, now: datetime) -> datetime:
    """How long a claimed read holds its source: its deadline and a margin. A replica that
    dies reading it leaves it to the others after this."""
    return now + timedelta(seconds=config.fetch_timeout_seconds + CLAIM_MARGIN)


def gap(ticks: Sequence[datetime]) -> float | None:
    """The cron's gap in seconds: the median of the gaps between the last runs (a run by
    hand in between moves it little); None until there are two."""
    times = sorted(t.timestamp() for t in ticks)
    gaps = sorted(b - a for a, b in itertools.pairwise(times) if 0 < b - a <= GAP_MAX)
    if not gaps:
        return None
    middle = len(gaps) // 2  # the median by hand: `statistics` is 4 ms of every cron run
    return gaps[middle] if len(gaps) % 2 else (gaps[middle - 1] + gaps[middle]) / 2


def ahead(cron_gap: float | None, config: Config) -> float:
    """How far ahead a `run --once` reads what its schedule holds: half the cron's gap, or
    everything when the cron comes no more often than interval_minutes. With no gap known
    yet (a first run, or runs by hand a moment apart) only what is due now: a cron's second
    run knows its gap."""
    if cron_gap is None:
        return 0.0
    if cron_gap >= 0.9 * config.interval_minutes * 60:
        return math.inf
    return cron_gap / 2


def next_wake(next_reads: Mapping[str, datetime | None], config: Config, now: datetime) -> datetime:
    """When `hunter run` polls next: the earliest next read of the sources it reads (None:
    never read, so now), and at least every interval_minutes (a retry waiting in the outbox
    goes then at the latest)."""
    latest = now + timedelta(minutes=config.interval_minutes)
    times = list(next_reads.values())
    if any(t is None for t in times):
        return now
    return min([latest, *(t for t in times if t is not None)])


def plan(
    read: SourceRead,
    state: SourceState | None,
    new: int | None,
    config: Config,
    now: datetime,
    jitter: float | None = None,
) -> dict[str, Any]:
    """The source's next read after this one, as SourceNote fields: what its reads taught of
    its hours (learned from a good read: `new` listings recorded, None when it was not one),
    when it is read next, and why."""
    source = read.source
    tz = ZoneInfo(config.timezone)
    cadence = Cadence.load(state.cadence if state else None)
    if new is not None:
        seen = Seen(_posted(read.listings), new)
        cadence = cadence.learn(seen, now.timestamp(), tz)
    cadence = cadence.counted(now.timestamp(), tz)  # a failed read costs the site one too
    fixed, fastest, slowest = config.schedule_of(source)
    bounds = Bounds(fastest, slowest, config.interval_minutes * 60.0, fixed)
    draw = random.uniform(-1.0, 1.0) if jitter is None else jitter
    chosen = next_read(cadence, now.timestamp(), tz, bounds, draw)
    at, reason = datetime.fromtimestamp(chosen.at, UTC), chosen.reason
    # What the site or `every` holds is never read early: its reason says so (timetable.due).
    held = wait_until(read, now)
    if held is not None:
        by_site = (read.retry_after or 0) >= source.every_seconds
        at, reason = max(at, held), "site" if by_site else "every"
    if read.status in REFUSED and not read.retry_after:  # back off, doubling, to the slowest
        streak = (state.fail_streak if state else 0) + 1
        backoff = now + timedelta(seconds=min(slowest, fastest * 2 ** min(streak, 16)))
        at, reason = max(at, backoff), "site"
    document = {**cadence.document(), "rate": round(chosen.rate, 3)}  # its hour's, for status
    if chosen.budget is not None:  # for status: the reads a day it may make
        document["budget"] = math.floor(chosen.budget)
    return {"not_before": at, "read_reason": reason, "cadence": document}


def wait_until(read: SourceRead, now: datetime) -> datetime | None:
    """When the source may be read again: when the site asked us to come back (Retry-After),
    or its own pace (`every`) after a read, whichever is later; None: its schedule decides."""
    waits = [read.retry_after or 0.0, 0.0 if read.stopped else read.source.every_seconds]
    return now + timedelta(seconds=max(waits)) if max(waits) > 0 else None


def _posted(listings: Sequence[Listing]) -> tuple[float, ...]:
    times = []
    for listing in listings:
        if listing.posted:
            try:
                times.append(datetime.fromisoformat(listing.posted).timestamp())
            except ValueError:
                continue
    return tuple(times)
