"""What the last days say of each source, for the status: how fresh its
listings reached the chats (posted -> found, posted -> sent), how many went each day, and its
reads (new matches and failed reads each day, reads today). Pure: rows in, numbers out."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hunter.store.reads import DayOfReads
from hunter.store.records import SentTimes

FRESH_DAYS = 7  # the freshness of the last days' listings


@dataclass(frozen=True)
class Spread:
    median_s: float
    p90_s: float


@dataclass(frozen=True)
class Freshness:
    """How long a source's sent listings took from posted (first seen where the board states
    no time) to found and to sent, over FRESH_DAYS days."""

    sent: int
    posted_times: int  # of them, with a time the board stated
    posted_to_found: Spread
    posted_to_sent: Spread


@dataclass(frozen=True)
class LastDays:
    """A source's last FRESH_DAYS days, the oldest first: new listings, those that matched a
    chat, failed reads, new listings merged with an earlier copy of their job (one alert per
    job); and its reads today."""

    new: list[int] = field(default_factory=lambda: [0] * FRESH_DAYS)
    matching: list[int] = field(default_factory=lambda: [0] * FRESH_DAYS)
    failed: list[int] = field(default_factory=lambda: [0] * FRESH_DAYS)
    reads_today: int = 0
    merged: list[int] = field(default_factory=lambda: [0] * FRESH_DAYS)  # copies of a job


def freshness(sent: list[SentTimes]) -> dict[str, Freshness]:
    """Per source, how long its sent listings took from posted (by the board; first seen
    where it states no time) to found, and to sent: the median and the 90th percentile in
    seconds, and how many listings that is (the figure users feel most)."""
    by_source: dict[str, list[SentTimes]] = {}
    for row in sent:
        by_source.setdefault(row.source, []).append(row)
    found: dict[str, Freshness] = {}
    for source, rows in sorted(by_source.items()):
        to_found, to_sent, stated = [], [], 0
        for row in rows:
            said = _moment(row.posted)
            stated += said is not None
            posted = said or row.found
            to_found.append(max(0.0, (row.found - posted).total_seconds()))
            to_sent.append(max(0.0, (row.sent - posted).total_seconds()))
        found[source] = Freshness(len(rows), stated, _spread(to_found), _spread(to_sent))
    return found


def days_of(
    now: datetime, timezone: str, days: int = FRESH_DAYS
) -> list[tuple[datetime, datetime]]:
    """The user's last `days` days, the oldest first, today last: each [start, end) in time
    (a day of summer time's change is 23 or 25 hours)."""
    tz = ZoneInfo(timezone)
    today = now.astimezone(tz).date()
    spans = []
    for back in range(days - 1, -1, -1):
        day = today - timedelta(days=back)
        start = datetime.combine(day, time(), tz)
        end = datetime.combine(day + timedelta(days=1), time(), tz)
        spans.append((start.astimezone(UTC), end.astimezone(UTC)))
    return spans


def merged_text(merged: int) -> str:
    """ "3 copies of jobs already alerted, merged in 7 days": what every render says of a
    source's merges."""
    copies = "1 copy" if merged == 1 else f"{merged:,} copies"
    return f"{copies} of jobs already alerted, merged in {FRESH_DAYS} days"


def history(days: list[DayOfReads]) -> dict[str, LastDays]:
    """Per source, its last FRESH_DAYS days (as `days_of` gave them to the store, the oldest
    first): new listings each day, those of them that matched a chat, reads that failed, and
    how often it was read today."""
    found: dict[str, LastDays] = {}
    today: dict[str, int] = {}
    for row in days:
        if not 0 <= row.day < FRESH_DAYS:
            continue
        source = found.setdefault(row.source, LastDays())
        source.new[row.day] += row.new
        source.matching[row.day] += row.matching
        source.failed[row.day] += row.failed
        source.merged[row.day] += row.merged
        if row.day == FRESH_DAYS - 1:
            today[row.source] = today.get(row.source, 0) + row.reads
    return {name: replace(days, reads_today=today.get(name, 0)) for name, days in found.items()}


def _moment(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def _spread(seconds: list[float]) -> Spread:
    ranked = sorted(seconds)
    p90 = ranked[min(len(ranked) - 1, math.ceil(0.9 * len(ranked)) - 1)]
    return Spread(round(statistics.median(ranked)), round(p90))


def spread_text(spread: Spread) -> str:
    """ "median 14 min, p90 27 min": a freshness spread as a person reads it."""
    return f"median {duration(spread.median_s)}, p90 {duration(spread.p90_s)}"


def duration(seconds: float) -> str:
    """ "under a minute", "14 min", "2 h 5 min", "3 d 4 h": how long, as a person says it."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min"


def ago(then: datetime | None, now: datetime) -> str:
    """ "5 min ago", "in 2 h", "never": a moment as the status says it."""
    if then is None:
        return "never"
    seconds = (now - then).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            text = f"{seconds / size:.0f} {unit}"
            break
    else:
        text = f"{seconds:.0f} s"
    return f"in {text}" if future else f"{text} ago"
