"""Pacing: spend the paced channel's (LINE's) monthly messages evenly over the month, so that
no listing waits weeks.

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
from dataclasses import dataclass
from datetime import datetime, timedelta

from hunter.rules.calendar import DAY, DEFAULT_RESERVE, Calendar
from hunter.store.records import Pace, PaceState

LAST_CALL = 100 * 366 * DAY  # a tolerance no pace reaches: only the cap decides


@dataclass(frozen=True)
class MonthPlan:
    """The month's messages as far as hunter knows them."""

    limit: int | None  # None: no limit (LINE says unlimited and no monthly_messages is set)
    used: int  # messages used this month on the channel, by anyone
    reserve: int = DEFAULT_RESERVE  # kept for notices: at most a tenth of the limit

    @classmethod
    def of(
        cls, line: tuple[int | None, int] | None, ceiling: int | None, reserve: int
    ) -> MonthPlan:
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


class Pacer:
    """Turns a plan, the clock and the store's pace row into the claim to make."""

    def __init__(self, calendar: Calendar, poll_every: timedelta) -> None:
        self.calendar = calendar
        self.poll_every = poll_every

    def pace(
        self, plan: MonthPlan, state: PaceState | None, now: datetime, notice: bool, cost: int = 1
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
