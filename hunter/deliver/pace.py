"""Pacing: spend LINE's monthly messages evenly over the month, so that no listing waits weeks.

LINE counts one message per push (whatever it carries) and a free plan holds 200-300 a month.
Pushing once per poll that found something spends that by mid-month; from then on every alert
waits for the next month. So a new batch goes out only when the pace allows it:

- The budget is the month's plan (the lower of LINE's limit and `monthly_messages`) less a
  `reserve` kept for hunter's own notices, less what others used on the channel.
- The clock is *active* time: seconds outside quiet hours since the month began (in the
  config's timezone). The budget left is spread evenly over the active time left: one push per
  `interval`.
- The allowance is a GCRA (the "virtual scheduling" form of a token bucket) whose state is one
  number, the theoretical arrival time `tat`, kept in the store: a push is allowed when
  `tat - tolerance <= now`, and moves `tat` to `max(tat, now) + interval`. The tolerance is one
  day of active time, so credit unused in quiet stretches pays for later bursts the same day,
  and when listings are few nothing ever waits.
- The last poll before quiet hours may borrow one interval, so that the day's last listings do
  not wait all night; the month's last poll may spend whatever is left (one push is kept back
  for it), so that nothing waits for next month that this month could have carried.

Everything here is pure: the store applies a `Pace` in one locked statement (two replicas
never spend the same allowance), and tests drive it with a fake clock.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

DAY = 86400.0
DEFAULT_RESERVE = 10
LAST_CALL = 100 * 366 * DAY  # a tolerance no pace reaches: only the cap decides


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


@dataclass(frozen=True)
class Plan:
    """The month's messages as far as hunter knows them."""

    limit: int | None  # None: no limit (LINE says unlimited and no monthly_messages is set)
    used: int  # messages used this month on the channel, by anyone
    reserve: int = DEFAULT_RESERVE  # kept for notices: at most a tenth of the limit

    @classmethod
    def of(cls, line: tuple[int | None, int] | None, ceiling: int | None, reserve: int) -> Plan:
        """From LINE's (limit, used) answer, or None when LINE cannot tell, and the config's
        `monthly_messages` ceiling. A tiny plan keeps a tenth of itself, not the whole plan."""
        limit, used = line if line is not None else (None, 0)
        if ceiling is not None:
            limit = ceiling if limit is None else min(limit, ceiling)
        return cls(limit, used, reserve if limit is None else min(reserve, limit // 10))

    @property
    def budget(self) -> int | None:
        """Messages the month holds for listings: the limit less the reserve."""
        return None if self.limit is None else self.limit - self.reserve


@dataclass(frozen=True)
class Pace:
    """One claim of the allowance, as the store applies it (see `PaceStore.claim`)."""

    month: str
    now: float  # active seconds since the month began
    interval: float  # active seconds per push at the current pace
    tolerance: float  # active seconds of credit that may be spent ahead
    cap: int  # the most messages hunter may count this month (its own counter)
    notice: bool  # a notice of hunter's own waits: spend the reserve, not the pace
    cost: int = 1  # messages this push costs: LINE counts one per recipient (a group's members)


@dataclass(frozen=True)
class PaceState:
    """The pace as the store holds it: one row, shared by every replica."""

    month: str
    tat: float  # the theoretical arrival time of the next push, in active seconds
    pushes: int  # messages hunter's pushes cost this month (one per recipient of each)
    granted: bool = False  # the answer to the claim that returned this state


class Pacer:
    """Turns a plan, the clock and the store's pace row into the claim to make."""

    def __init__(self, calendar: Calendar, poll_every: timedelta) -> None:
        self.calendar = calendar
        self.poll_every = poll_every

    def pace(
        self, plan: Plan, state: PaceState | None, now: datetime, notice: bool, cost: int = 1
    ) -> Pace:
        """The claim for a push costing `cost` messages. The interval is per message: a push to
        a group of 4 moves the pace four intervals on."""
        month = self.calendar.month(now)
        start, end = self.calendar.month_bounds(now)
        pushes = state.pushes if state is not None and state.month == month else 0
        # What others spent on the channel (LINE's count lags ours at times: never below 0).
        others = max(0, plan.used - pushes)
        limit = math.inf if plan.limit is None else plan.limit
        # The month's last poll may spend the reserve too: nothing carries over, and a group's
        # push (several messages) must not be left waiting for want of the last few.
        last_call = self._last_poll_of_month(now, end)
        cap = limit - others - (0 if notice or last_call else plan.reserve)
        left = cap - pushes
        remaining = self.calendar.active_seconds(now, end)
        # One push is kept back for the month's last poll, which may spend whatever is left
        # (nothing carries over into the next month); with nothing left, the cap refuses every
        # claim and the interval only has to be finite.
        interval = 0.0 if plan.limit is None else remaining / max(left - cost, 1)
        tolerance = DAY - (self.calendar.quiet.seconds if self.calendar.quiet else 0.0)
        if last_call:
            tolerance = LAST_CALL
        elif self._before_pause(now):
            tolerance += interval
        return Pace(
            month=month,
            now=self.calendar.active_seconds(start, now),
            interval=interval,
            tolerance=tolerance,
            cap=2**31 - 1 if not math.isfinite(cap) else max(int(cap), 0),
            notice=notice,
            cost=cost,
        )

    def next_push(self, state: PaceState, pace: Pace, now: datetime) -> datetime:
        """When the pace allows the next new batch (now, if it allows one already)."""
        if state.month != pace.month or (
            state.pushes + pace.cost <= pace.cap and (state.tat - pace.tolerance <= pace.now)
        ):
            return now
        start, end = self.calendar.month_bounds(now)
        if state.pushes + pace.cost > pace.cap:
            return end  # this month's budget is spent: the next month's first hour
        moment = self.calendar.active_moment(start, state.tat - pace.tolerance)
        return min(moment, end)

    def _last_poll_of_month(self, now: datetime, end: datetime) -> bool:
        """Whether no poll after this one falls in the month's remaining active time."""
        return self.calendar.active_seconds(now + self.poll_every, end) <= 0

    def _before_pause(self, now: datetime) -> bool:
        """Whether the next poll falls in quiet hours or in the next month."""
        following = now + self.poll_every
        return self.calendar.is_quiet(following) or (
            self.calendar.month(following) != self.calendar.month(now)
        )


def describe_interval(seconds: float) -> str:
    """ "a push every ~2 h 30 min" style wording of a pace."""
    if not math.isfinite(seconds) or seconds <= 0:
        return "no pace"
    minutes = round(seconds / 60 / 10) * 10 if seconds >= 3600 else max(round(seconds / 60), 1)
    hours, minutes = divmod(int(minutes), 60)
    if hours and minutes:
        return f"~{hours} h {minutes} min"
    return f"~{hours} h" if hours else f"~{minutes} min"
