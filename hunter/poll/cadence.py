"""When to read a source next: its arrival rate by hour of the day, learned from
what its reads show, and the square-root rule. Pure: times in (epoch seconds), times out; no
clock, no store, no randomness of its own (the jitter is an argument). Tested with tables.

Learning. Each local hour of the day (in the config's timezone) keeps a count of arrivals and
the hours it was watched, both halved every HALF_LIFE (a board changes its habits; a burst is
forgotten). A read's arrivals are the listings the store found new: at the hour of their
posted time where it is newer than the newest counted before, else spread over the time
since the last read (first seen). A first read already teaches: its page shows when its
listings came (the window from its oldest to now). Times in the future are no times; a
flood (more new listings at once than flood_threshold) teaches nothing; one read counts at
most BURST_PER_HOUR arrivals per hour watched: nothing sends a source to the fastest pace
for weeks. A change of habits is tested for at each read (a CUSUM test each way: a board
posting CHANGE times more, or fewer, listings than learned): once its evidence is strong,
what was learned before counts CHANGE_KEEP of itself, so a board that falls silent, or comes
back busy after a silent week, is learned within a day or two instead of a week or more.

The rate of an hour is its count over its hours, each read with its neighbours (weights 1,
2, 1), pulled towards the source's mean by PRIOR hours of it, and the mean towards the rate
`interval_minutes` implies by MEAN_PRIOR hours: an hour seen once is not believed alone.

Reading. A source's reads a day are budgeted (READS_PER_INTERVAL times what interval_minutes
would read, 96 at the default 30 minutes, counted per calendar day in `timezone`). Its hours
ask for what their rates need (allotment.learned: a board of 3 a day asks far fewer than the
budget); a known board's reads go to its busiest hours at one interval (allotment.levelled),
a little known one's to every hour as it may post (allotment.explored). The reads' density
is integrated over the coming hours until one read is due, so the first read of a busy
morning comes early. Bounds: never faster than `fastest`, never slower than `slowest`.

A board's first days. What its first page and first reads showed is little: a busy morning the
first page did not reach is read at the mean. Until its hours are known, each is read as if
it posted somewhat more than learned, by how little it was watched (hopeful), and the whole
budget is spent (a source nobody has watched yet: every 15 minutes at the default 30); no
hour is read less than what was learned of it asks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hunter.poll import allotment
from hunter.poll.allotment import HOURS

HALF_LIFE = 7 * 86400.0  # what a week ago showed counts half (Miniflux looks back a week)
PRIOR = 0.25  # hours of the source's mean an hour's own count is pulled by
MEAN_PRIOR = 6.0  # hours of the configured rate the source's mean is pulled by
FIRST_WINDOW_MIN = 3600.0  # a first page all posted in the last minute is not 1000 an hour
FIRST_WINDOW_MAX = 14 * 86400.0  # older parts of a first page teach little after decay
BURST_PER_HOUR = 30.0  # arrivals one read may count per hour it watched
JITTER = 0.05  # of an interval, either way: replicas and sources do not read in step
CLOCK_SLACK = 60.0  # seconds a clock may step back before the window starts again
# A board's first days: while less than KNOWN_HOURS of it were
# watched (decayed: about two days), each hour is read as if it posted EXPLORE standard
# deviations more than learned (an hour never watched most), and the rest of today's budget
# may go up to SPEND_EARLY faster than planned (a board first read at 18:00 has the day's
# reads nearly whole for its last hours); both fade as the hours become known. Chosen on 12
# simulated boards of 100 a day started at 00:00, 10:00 and 18:00, read on time and by a
# 5-minute cron (tests/unit/poll/test_cadence.py's first days, bench/fresh.py --first).
EXPLORE = 1.0
KNOWN_HOURS = 48.0
SPEND_EARLY = 1.5
# The budget: a learned schedule reads a source at most READS_PER_INTERVAL times as often in a
# calendar day as interval_minutes would (96 reads at the default 30 minutes). A board little
# known spends it (its first page showed a quiet night, not the busy day to come); a known one
# spends what its hours ask, within it.
READS_PER_INTERVAL = 2.0
# Listings seen (decayed) before a board's hours are ranked for the budget (allotment.levelled):
# ten an hour of the day on average, an hour's count then within about a third. A board of 3
# a day never gets there: its hours, alike and little seen, keep the shape their rates ask.
LEVEL_EVIDENCE = 240.0
# A change of habits: a board posting CHANGE times more (or fewer) listings than learned, shown
# by CHANGE_EVIDENCE of log-likelihood (odds of 1000 to 1 over the learned rate), makes what
# was learned before count CHANGE_KEEP of itself.
CHANGE = 3.0
CHANGE_EVIDENCE = math.log(1000.0)
CHANGE_KEEP = 0.25
# In a board's first week the evidence asked is up to 1 + CHANGE_DOUBT times as much, fading
# over DOUBT_DAYS: an expectation learned in a few days is itself unsure, and its false alarms
# made a steady board's reads a day swing by a fifth (test_cadence.py's steady board)
CHANGE_DOUBT = 1.0
DOUBT_DAYS = 7.0


@dataclass(frozen=True)
class Bounds:
    """A source's limits, in seconds."""

    fastest: float
    slowest: float
    posting: float  # interval_minutes: the slowest in an hour it posts in; the fixed interval
    fixed: bool = False

    def limits(self) -> tuple[float, float]:
        """(fastest, slowest) as they hold: an interval_minutes below `fastest` is the user's
        wish, and the slowest is never faster than that."""
        fastest = min(self.fastest, self.posting)
        return fastest, max(self.slowest, fastest)


@dataclass(frozen=True)
class Seen:
    """What one good read showed, for the learning."""

    posted: tuple[float, ...]  # the listings' posted times (epoch s), where stated
    new: int  # listings the store recorded as new (none primed; 0 for a flood): at most
    # this many arrivals, and those without a fresh posted time count as first seen


@dataclass(frozen=True)
class Cadence:
    counts: tuple[float, ...] = (0.0,) * HOURS  # arrivals per local hour, decayed
    watched: tuple[float, ...] = (0.0,) * HOURS  # hours watched per local hour, decayed
    mark: float | None = None  # the newest posted time counted
    at: float | None = None  # when it last learned
    drift: tuple[float, float] = (0.0, 0.0)  # evidence of a change, up and down (CUSUM)
    day: float | None = None  # the local midnight that began the day `reads` counts
    reads: int = 0  # reads made that day, this one included: the budget's spent part
    since: float | None = None  # its first read: a board's first days explore

    @classmethod
    def load(cls, document: object) -> Cadence:
        """The stored document; anything malformed (an older hunter, a hand edit) starts over."""
        if not isinstance(document, Mapping):
            return cls()
        try:
            counts = _hours(document.get("counts"))
            watched = _hours(document.get("watched"))
            mark, at = _moment(document.get("mark")), _moment(document.get("at"))
            drift = _drift(document.get("drift", (0.0, 0.0)))
            day, reads = _moment(document.get("day")), _count(document.get("reads", 0))
            since = _moment(document.get("since"))
        except (TypeError, ValueError):
            return cls()
        return cls(counts, watched, mark, at, drift, day, reads, since)

    def document(self) -> dict[str, Any]:
        return {
            "counts": [round(x, 4) for x in self.counts],
            "watched": [round(x, 4) for x in self.watched],
            "mark": self.mark,
            "at": self.at,
            "drift": [round(x, 4) for x in self.drift],
            "day": self.day,
            "reads": self.reads,
            "since": self.since,
        }

    def counted(self, now: float, tz: ZoneInfo) -> Cadence:
        """The cadence after a read at `now`, good or not (each costs the site a request):
        the reads of its local day, counted against the budget."""
        day, since = _midnight(now, tz), self.since if self.since is not None else now
        return replace(self, day=day, reads=self.reads + 1 if day == self.day else 1, since=since)

    def _doubt(self, now: float) -> float:
        """How much more evidence a change needs: CHANGE_DOUBT on a board's first day, none
        after DOUBT_DAYS (an expectation learned in a few days is itself unsure)."""
        if self.since is None:
            return 0.0
        return CHANGE_DOUBT * max(0.0, 1.0 - (now - self.since) / (DOUBT_DAYS * 86400))

    def unknown(self, now: float) -> float:
        """How little of a board in its first days is known, 0 to 1 (1 - known); 0 once
        KNOWN_HOURS have passed since its first read, and for a board read by a hunter before
        when no first read is kept: a change of habits learns anew, it does not explore."""
        if self.since is None or now - self.since >= KNOWN_HOURS * 3600:
            return 0.0
        return 1.0 - self.known()

    def learn(self, seen: Seen, now: float, tz: ZoneInfo) -> Cadence:
        """The cadence after a good read at `now`."""
        if self.at is not None and now < self.at - CLOCK_SLACK:  # the clock went back
            mark = min(self.mark, now) if self.mark is not None else None
            return replace(self, at=now, mark=mark)
        known = self._decayed(now)
        # A time in the future is no time: the board's clock or timezone is wrong
        posted = sorted(min(p, now) for p in seen.posted if p <= now + CLOCK_SLACK)
        if known.at is None:  # the first read: its page shows when its listings came
            return known._first(posted, now, tz)
        fresh = [p for p in posted if known.mark is None or p > known.mark]
        # No more arrivals than listings the store found new: a board stamping every item
        # with the time of its page, or re-dating old ones, is not a flood of arrivals.
        fresh = fresh[len(fresh) - min(len(fresh), seen.new) :]
        watched = _windows(known.at, now, tz)
        # New listings without a fresh posted time came some time since the last read
        spread = _spread(seen.new - len(fresh), watched)
        arrivals = _capped(
            [a + b for a, b in zip(_by_hour(fresh, tz), spread, strict=True)], watched
        )
        marks = [m for m in (known.mark, *posted[-1:]) if m is not None]
        mark = max(marks, default=None)
        return known._changed(sum(arrivals), watched, now)._add(arrivals, watched, now, mark)

    def _changed(self, came: float, watched: list[float], now: float) -> Cadence:
        """Weigh this read's arrivals (`came`, over the hours `watched`) against what was
        learned (a CUSUM test each way): once the evidence says the board now posts CHANGE
        times more or fewer than learned, what was learned before counts for CHANGE_KEEP of
        itself, so a board busy again after a silent week is learned within hours."""
        expected = sum(r * w for r, w in zip(self.rates(1.0), watched, strict=True))
        if expected <= 0:
            return self
        log_change = math.log(CHANGE)
        up = max(0.0, self.drift[0] + came * log_change - (CHANGE - 1) * expected)
        down = max(0.0, self.drift[1] - came * log_change + (1 - 1 / CHANGE) * expected)
        # An expectation learned from few listings is itself unsure: the evidence asked grows
        if max(up, down) < CHANGE_EVIDENCE * (1 + self._doubt(now)):
            return replace(self, drift=(up, down))
        return replace(self._scaled(CHANGE_KEEP), drift=(0.0, 0.0))

    def _first(self, posted: list[float], now: float, tz: ZoneInfo) -> Cadence:
        if not posted:  # a first read tells nothing without posted times
            return replace(self, at=now)
        start = max(min(posted[0], now - FIRST_WINDOW_MIN), now - FIRST_WINDOW_MAX)
        window = _windows(start, now, tz)
        arrivals = _capped(_by_hour([p for p in posted if p >= start], tz), window)
        return self._add(arrivals, window, now, posted[-1])

    def _add(
        self, added: list[float], watched: list[float], now: float, mark: float | None
    ) -> Cadence:
        """Add a read's arrivals and the hours it watched."""
        return replace(
            self,
            counts=tuple(c + a for c, a in zip(self.counts, added, strict=True)),
            watched=tuple(w + x for w, x in zip(self.watched, watched, strict=True)),
            mark=mark,
            at=now,
        )

    def _decayed(self, now: float) -> Cadence:
        if self.at is None or now <= self.at:
            return self
        return self._scaled(0.5 ** ((now - self.at) / HALF_LIFE))

    def _scaled(self, keep: float) -> Cadence:
        """What was learned, counting `keep` of itself (time's decay, a change of habits)."""
        return replace(
            self,
            counts=tuple(c * keep for c in self.counts),
            watched=tuple(w * keep for w in self.watched),
        )

    def rates(self, configured: float) -> list[float]:
        """Listings an hour, per local hour of the day; `configured` is the rate the user's
        interval_minutes implies, believed until the source has been watched a while. Each
        hour is read with its neighbours (weights 1, 2, 1): a board posting 3 a day has
        hours with no listing yet that are no quieter than the ones around them."""
        mean = (sum(self.counts) + MEAN_PRIOR * configured) / (sum(self.watched) + MEAN_PRIOR)
        counts, watched = _smooth(self.counts), _smooth(self.watched)
        return [(c + PRIOR * mean) / (w + PRIOR) for c, w in zip(counts, watched, strict=True)]

    def known(self) -> float:
        """How much of the board is known, 0 to 1: its hours watched, decayed, of KNOWN_HOURS."""
        return min(1.0, sum(self.watched) / KNOWN_HOURS)

    def hopeful(self, configured: float) -> list[float]:
        """The rates to read by while the board is little known: each hour's rate plus
        EXPLORE of its uncertainty (a Poisson count's standard deviation over the hours it
        was watched), fading to the rate itself as the board becomes known. An hour never
        watched on the first day, a busy morning the first page did not reach, is read as
        the busy hour it may be instead of the mean, and learned in its first read or two."""
        rates, watched = self.rates(configured), _smooth(self.watched)
        if not any(watched):  # nothing watched yet: read as the user configured
            return rates
        bonus = EXPLORE * (1.0 - self.known())
        return [r + bonus * math.sqrt(r / (w + PRIOR)) for r, w in zip(rates, watched, strict=True)]


def _smooth(values: tuple[float, ...]) -> list[float]:
    return [(values[h - 1] + 2 * values[h] + values[(h + 1) % HOURS]) / 4 for h in range(HOURS)]


@dataclass(frozen=True)
class NextRead:
    at: float  # epoch seconds of the next read
    reason: str  # busy, quiet, new (not watched an hour yet), spent (today's budget), fixed;
    # the caller's: every, site
    rate: float  # listings an hour expected in the hour of `now`
    budget: float | None = None  # reads a day at most (None: a fixed schedule)


def next_read(
    cadence: Cadence, now: float, tz: ZoneInfo, bounds: Bounds, jitter: float
) -> NextRead:
    """When to read next, and why. `jitter` in [-1, 1] moves the interval by up to JITTER."""
    posting = bounds.posting
    configured = 1.0  # listings an hour: what interval_minutes reads well
    rates = cadence.rates(configured)
    here = rates[_hour(now, tz)]
    if bounds.fixed:
        return NextRead(now + posting * (1 + JITTER * jitter), "fixed", here)
    fastest, slowest = bounds.limits()
    per_day = READS_PER_INTERVAL * 86400 / posting  # the budget, in reads a day
    unknown = cadence.unknown(now)
    densities = _densities(cadence, rates, bounds, per_day / 3600, unknown)
    # What is left of today's budget: the plan for the rest of the day shrinks to fit it (a
    # read costs what it costs; what chance spent early is saved late, never overspent).
    midnight = _midnight(now, tz, days=1)
    spent = cadence.reads if cadence.day == _midnight(now, tz) else 0
    left = max(0.0, per_day - spent)
    # The reads planned for the rest of today: each hour's density over its part of it
    hours = _windows(now, midnight, tz)
    planned = sum(d * h * 3600 for d, h in zip(densities, hours, strict=True))
    early = 1 + (SPEND_EARLY - 1) * unknown
    today = min(early, left / planned) if planned > 0 else 1.0
    need, t = 1.0, now
    for _ in range(int(slowest // 3600) + 2 * HOURS + 2):  # density >= 1/slowest: ends by then
        end = _next_hour(t, tz)
        density = densities[_hour(t, tz)] * (today if t < midnight else 1.0)
        if density * (end - t) >= need:
            t += need / density
            break
        need -= density * (end - t)
        t = end
    interval = min(max((t - now) * (1 + JITTER * jitter), fastest), slowest)
    mean = sum(rates) / HOURS
    if left < 1.0:  # the day's budget is spent: read at the slowest, or tomorrow
        reason = "spent"
    elif sum(cadence.watched) < 1.0:  # less than an hour watched: what it posts is not known
        reason = "new"
    else:
        reason = "busy" if here >= mean and here > 0 else "quiet"
    return NextRead(now + interval, reason, here, per_day)


def _densities(
    cadence: Cadence, rates: list[float], bounds: Bounds, budget: float, unknown: float
) -> list[float]:
    """Reads a second in each local hour (`budget`: their most, summed over the hours):
    what the hours ask, within the budget, and the whole budget while the board is unknown;
    shared as a little known board explores, and as a known one's hours rank once they have
    shown enough to rank (allotment.py)."""
    fastest, slowest = bounds.limits()
    least, most = 1 / slowest, 1 / fastest
    asked = allotment.learned(rates, bounds.posting, fastest, slowest)
    hopeful = allotment.learned(cadence.hopeful(1.0), bounds.posting, fastest, slowest)
    total = min(sum(asked), budget) + (budget - min(sum(asked), budget)) * unknown
    densities = allotment.explored(asked, hopeful, total, least, most)
    trust = (1 - unknown) * min(1.0, sum(cadence.counts) / LEVEL_EVIDENCE)
    if trust <= 0:
        return densities
    level = allotment.levelled(rates, total, least, most)
    return [trust * x + (1 - trust) * y for x, y in zip(level, densities, strict=True)]


def _hour(t: float, tz: ZoneInfo) -> int:
    return datetime.fromtimestamp(t, tz).hour


def _midnight(t: float, tz: ZoneInfo, days: int = 0) -> float:
    """The local midnight that began the day of `t`, or `days` later."""
    local = datetime.fromtimestamp(t, tz).replace(hour=0, minute=0, second=0, microsecond=0)
    return (local + timedelta(days=days)).timestamp()


def _next_hour(t: float, tz: ZoneInfo) -> float:
    local = datetime.fromtimestamp(t, tz).replace(minute=0, second=0, microsecond=0)
    return max((local + timedelta(hours=1)).timestamp(), t + 1.0)


def _windows(start: float, end: float, tz: ZoneInfo) -> list[float]:
    """Hours of (start, end] that fall in each local hour of the day."""
    watched = [0.0] * HOURS
    start = max(start, end - FIRST_WINDOW_MAX)
    t = start
    while t < end:
        stop = min(_next_hour(t, tz), end)
        watched[_hour(t, tz)] += (stop - t) / 3600.0
        t = stop
    return watched


def _by_hour(times: list[float], tz: ZoneInfo) -> list[float]:
    """How many of `times` fall in each local hour of the day."""
    counts = [0.0] * HOURS
    for t in times:
        counts[_hour(t, tz)] += 1.0
    return counts


def _capped(added: list[float], watched: list[float]) -> list[float]:
    """A read's arrivals, at most BURST_PER_HOUR per hour it watched (scaled down alike)."""
    cap, total = BURST_PER_HOUR * max(1.0, sum(watched)), sum(added)
    return [a * cap / total for a in added] if total > cap else added


def _spread(new: int, watched: list[float]) -> list[float]:
    """`new` first-seen listings spread over the hours watched, as they could have come."""
    total = sum(watched)
    return [new * w / total for w in watched] if total > 0 else [0.0] * HOURS


def _hours(value: object) -> tuple[float, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != HOURS:
        raise ValueError("24 numbers")
    numbers = tuple(float(x) for x in value)
    if not all(math.isfinite(x) and x >= 0 for x in numbers):
        raise ValueError("finite and not negative")
    return numbers


def _drift(value: object) -> tuple[float, float]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise ValueError("two numbers")
    up, down = (float(x) for x in value)
    if not all(math.isfinite(x) and x >= 0 for x in (up, down)):
        raise ValueError("finite and not negative")
    return up, down


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("a count")
    return value


def _moment(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError("a time")
    return float(value)
