"""When to read a source next (issue 34): its arrival rate by hour of the day, learned from
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
`interval_minutes` implies by MEAN_PRIOR hours: a source nobody has watched yet is read as
the user configured, and an hour seen once is not believed alone.

Reading. For a fixed number of reads a day, reads spaced in proportion to 1/sqrt(rate)
minimise the average wait (the square-root rule). hunter's interval in an hour of `rate`
listings an hour (interval_at): one read per LISTINGS_PER_READ listings expected, never
further apart than interval_minutes in an hour it posts in (a listing an hour or more), and
never closer than the square-root rule's spacing; in quiet hours the square-root rule, never
closer than interval_minutes. Against the square-root rule alone (measured in
bench/fresh.py) this spends the reads a quiet night saves on the busy day, where most
listings wait. The reads' density is
integrated over the coming hours until one read is due, so the first read of a busy morning
comes early. Bounds: never faster than `fastest`, never slower than `slowest`.

A board's first days. What its first page and first reads showed is little: a busy morning the
first page did not reach is read at the mean. Until its hours are known, each is read as if
it posted somewhat more than learned, by how little it was watched (hopeful), within SPARE
more reads than the learned plan; no hour is read less than what was learned of it asks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

HOURS = 24
HALF_LIFE = 7 * 86400.0  # what a week ago showed counts half (Miniflux looks back a week)
PRIOR = 0.25  # hours of the source's mean an hour's own count is pulled by
MEAN_PRIOR = 6.0  # hours of the configured rate the source's mean is pulled by
# Of interval_minutes: the square-root rule's interval at one listing an hour, as a floor in
# busy hours and as the rule in quiet ones (bench/fresh.py measured both against the targets
# of issue 34: a board of 100 a day and one of 3 a day on a 5-minute cron)
BUSY_SQRT = 0.85
QUIET_SQRT = 0.75
LISTINGS_PER_READ = 1.1  # a busy hour's read finds about this many new listings
FIRST_WINDOW_MIN = 3600.0  # a first page all posted in the last minute is not 1000 an hour
FIRST_WINDOW_MAX = 14 * 86400.0  # older parts of a first page teach little after decay
BURST_PER_HOUR = 30.0  # arrivals one read may count per hour it watched
JITTER = 0.05  # of an interval, either way: replicas and sources do not read in step
CLOCK_SLACK = 60.0  # seconds a clock may step back before the window starts again
# A board's first days (issue 45, finding 11): while less than KNOWN_HOURS of it were watched
# (decayed: about three days), each hour is read as if it posted EXPLORE standard deviations
# more than learned (an hour never watched most), within SPARE more reads a day than the
# learned rates alone ask; both fade as the hours become known. Chosen on 24 simulated boards
# of 100 a day, started at 00:00, 10:00 and 18:00 (tests/unit/poll/test_cadence.py's first
# days, bench/fresh.py --first-days): day one's p90 about 14 -> 12 min at 90 -> 100 reads.
EXPLORE = 2.0
KNOWN_HOURS = 72.0
SPARE = 0.15
# A change of habits: a board posting CHANGE times more (or fewer) listings than learned, shown
# by CHANGE_EVIDENCE of log-likelihood (odds of 1000 to 1 over the learned rate), makes what
# was learned before count CHANGE_KEEP of itself.
CHANGE = 3.0
CHANGE_EVIDENCE = math.log(1000.0)
CHANGE_KEEP = 0.25


@dataclass(frozen=True)
class Bounds:
    """A source's limits, in seconds."""

    fastest: float
    slowest: float
    posting: float  # interval_minutes: the slowest in an hour it posts in; the fixed interval
    fixed: bool = False


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
        except (TypeError, ValueError):
            return cls()
        return cls(counts, watched, mark, at, drift)

    def document(self) -> dict[str, Any]:
        return {
            "counts": [round(x, 4) for x in self.counts],
            "watched": [round(x, 4) for x in self.watched],
            "mark": self.mark,
            "at": self.at,
            "drift": [round(x, 4) for x in self.drift],
        }

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
        return known._changed(sum(arrivals), watched)._add(arrivals, watched, now, mark)

    def _changed(self, came: float, watched: list[float]) -> Cadence:
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
        if max(up, down) < CHANGE_EVIDENCE:
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
    reason: str  # busy, quiet, new (not watched an hour yet), fixed; the caller's: every, site
    rate: float  # listings an hour expected in the hour of `now`


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
    fastest = min(bounds.fastest, posting)  # interval_minutes below fastest: the user's wish
    slowest = max(bounds.slowest, fastest)
    learned = _densities(rates, bounds.posting, fastest, slowest)
    hopeful = _densities(cadence.hopeful(configured), bounds.posting, fastest, slowest)
    densities = _spared(learned, hopeful, SPARE * (1 - cadence.known()) * sum(learned))
    need, t = 1.0, now
    for _ in range(int(slowest // 3600) + HOURS + 2):  # density >= 1/slowest: ends by then
        density = densities[_hour(t, tz)]
        end = _next_hour(t, tz)
        if density * (end - t) >= need:
            t += need / density
            break
        need -= density * (end - t)
        t = end
    interval = min(max((t - now) * (1 + JITTER * jitter), fastest), slowest)
    mean = sum(rates) / HOURS
    if sum(cadence.watched) < 1.0:  # less than an hour watched: what it posts is not known yet
        reason = "new"
    else:
        reason = "busy" if here >= mean and here > 0 else "quiet"
    return NextRead(now + interval, reason, here)


def interval_at(rate: float, posting: float) -> float:
    """Seconds between reads in an hour of `rate` listings an hour, before the bounds. In an
    hour it posts in (a listing an hour or more): one read per LISTINGS_PER_READ listings
    expected, never further apart than `posting` (the user's interval_minutes), and never
    closer than the square-root rule's spacing (BUSY_SQRT of `posting` at one an hour). In
    a quiet hour: the square-root rule (QUIET_SQRT of `posting` at one an hour), never
    closer than `posting`."""
    if rate <= 0:
        return math.inf
    if rate >= 1.0:
        root = BUSY_SQRT * posting / math.sqrt(rate)
        return max(root, min(posting, LISTINGS_PER_READ * 3600.0 / rate))
    return max(posting, QUIET_SQRT * posting / math.sqrt(rate))


def _densities(rates: list[float], posting: float, fastest: float, slowest: float) -> list[float]:
    """Reads a second in each local hour, within the bounds."""
    return [1 / min(max(interval_at(r, posting), fastest), slowest) for r in rates]


def _spared(learned: list[float], hopeful: list[float], spare: float) -> list[float]:
    """Reads a second in each hour: never fewer than the learned rates ask (exploring never
    holds back an hour known to be busy), and where the hopeful rates ask for more, the same
    share of each hopeful density, the largest share whose reads stay within `spare` (reads
    a second) more than the learned ones: the hours least known get the reads."""

    budget = sum(learned) + spare
    share = 1.0
    if sum(max(x, h) for x, h in zip(learned, hopeful, strict=True)) > budget:
        share = _largest_share(learned, hopeful, budget)
    return [max(x, share * h) for x, h in zip(learned, hopeful, strict=True)]


def _largest_share(learned: list[float], hopeful: list[float], budget: float) -> float:
    """The largest share s of [0, 1] with sum(max(x, s * h)) <= budget, exactly: the sum is
    linear between the shares where an hour's hopeful reads overtake its learned ones (x / h),
    so those are walked in order, each hour's hopeful density joining the slope once passed.
    (A bisection of 30 steps cost each source's plan 0.5 ms.)"""
    fixed, slope, share, end = sum(learned), 0.0, 0.0, 1.0  # the sum is fixed + slope * s
    overtaken = sorted((x / h, x, h) for x, h in zip(learned, hopeful, strict=True) if x < h)
    for turn, x, h in overtaken:
        if fixed + slope * turn > budget:
            end = turn
            break
        share, fixed, slope = turn, fixed - x, slope + h
    if slope > 0:
        share = min((budget - fixed) / slope, end)
    return max(0.0, min(share, 1.0))


def _hour(t: float, tz: ZoneInfo) -> int:
    return datetime.fromtimestamp(t, tz).hour


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


def _moment(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError("a time")
    return float(value)
