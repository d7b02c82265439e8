"""The user's calendar: the timezone, quiet hours, and the month's active time, which the pace
spreads the paced channel's (LINE's) messages over (hunter/deliver/pace.py). Pure: no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

DAY = 86400.0
DEFAULT_RESERVE = 10  # messages of the paced channel's month kept for hunter's own notices


@dataclass(frozen=True)
class QuietHours:
    """A daily window (local time) in which nothing is pushed; it may cross midnight."""

    start: time
    end: time

    @classmethod
    def parse(cls, text: str) -> QuietHours:
        """ "23:00-07:00" -> QuietHours; ValueError naming the expected form otherwise."""
        match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*", text)
        if not match:
            raise ValueError(f'expected "HH:MM-HH:MM" such as "23:00-07:00", got {text!r}')
        h1, m1, h2, m2 = (int(g) for g in match.groups())
        if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59 or (h1, m1) == (h2, m2):
            raise ValueError(f"{text!r} is not a window of two different times of day")
        return cls(time(h1, m1), time(h2, m2))

    @property
    def seconds(self) -> float:
        """The window's length in seconds."""
        start = self.start.hour * 3600 + self.start.minute * 60
        end = self.end.hour * 3600 + self.end.minute * 60
        return (end - start) % DAY

    def __str__(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"


@dataclass(frozen=True)
class Calendar:
    """The month and its active time, in the user's timezone."""

    timezone: str
    quiet: QuietHours | None = None

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def month(self, at: datetime) -> str:
        return f"{at.astimezone(self.tz):%Y-%m}"

    def month_bounds(self, at: datetime) -> tuple[datetime, datetime]:
        local = at.astimezone(self.tz)
        start = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        following = (start + timedelta(days=32)).replace(day=1)
        return start, following

    def day_start(self, at: datetime) -> datetime:
        """The start of `at`'s day, in the user's timezone (a subscriber's messages a day)."""
        return at.astimezone(self.tz).replace(hour=0, minute=0, second=0, microsecond=0)

    def is_quiet(self, at: datetime) -> bool:
        if self.quiet is None:
            return False
        return self._quiet_overlap(at, at + timedelta(microseconds=1)) > 0

    def quiet_until(self, at: datetime) -> datetime:
        """The end of the quiet window `at` is in (`at` itself when it is in none)."""
        if self.quiet is None:
            return at
        day = at.astimezone(self.tz).date()
        for start in (day - timedelta(days=1), day):
            begin = datetime.combine(start, self.quiet.start, self.tz)
            finish = begin + timedelta(seconds=self.quiet.seconds)
            if begin <= at < finish:
                return finish
        return at

    def active_seconds(self, start: datetime, end: datetime) -> float:
        """Seconds between `start` and `end` outside quiet hours."""
        if end <= start:
            return 0.0
        return (end - start).total_seconds() - self._quiet_overlap(start, end)

    def active_moment(self, start: datetime, active: float) -> datetime:
        """The earliest moment with `active` seconds of active time since `start`."""
        low, high = start, start + timedelta(seconds=active)
        while self.active_seconds(start, high) < active:  # quiet hours push it later
            high += timedelta(days=1)
        while (high - low).total_seconds() > 1:
            middle = low + (high - low) / 2
            if self.active_seconds(start, middle) >= active:
                high = middle
            else:
                low = middle
        return high

    def _quiet_overlap(self, start: datetime, end: datetime) -> float:
        if self.quiet is None:
            return 0.0
        total = 0.0
        day = start.astimezone(self.tz).date() - timedelta(days=1)
        last = end.astimezone(self.tz).date()
        while day <= last:
            begin = datetime.combine(day, self.quiet.start, self.tz)
            finish = begin + timedelta(seconds=self.quiet.seconds)
            overlap = (min(end, finish) - max(start, begin)).total_seconds()
            total += max(overlap, 0.0)
            day += timedelta(days=1)
        return total
