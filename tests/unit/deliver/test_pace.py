"""The pace as a pure object: quiet hours, active time, the interval and the claim it makes.

The store applies the claims (tests/contract/test_pace_store.py); the deliverer's use of them
runs against a real SQLite store with a fake clock in tests/unit/deliver/test_paced_delivery.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from hunter.deliver.pace import LAST_CALL, MonthPlan, Pacer, describe_interval
from hunter.rules.calendar import DAY, Calendar, QuietHours
from hunter.store.records import PaceState

BANGKOK = ZoneInfo("Asia/Bangkok")
NIGHT = QuietHours.parse("23:00-07:00")
CALENDAR = Calendar("Asia/Bangkok", NIGHT)
PACER = Pacer(CALENDAR, timedelta(minutes=30))


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BANGKOK)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("23:00-07:00", "23:00", "07:00"),
        (" 9:30 - 12:00 ", "09:30", "12:00"),
        ("00:00-23:59", "00:00", "23:59"),
    ],
)
def test_quiet_hours_read(text: str, start: str, end: str) -> None:
    quiet = QuietHours.parse(text)
    assert (f"{quiet.start:%H:%M}", f"{quiet.end:%H:%M}") == (start, end)


@pytest.mark.parametrize("text", ["23:00", "25:00-07:00", "07:60-08:00", "07:00-07:00", "night"])
def test_bad_quiet_hours_say_the_form(text: str) -> None:
    with pytest.raises(ValueError, match=r"HH:MM|two different times"):
        QuietHours.parse(text)


@pytest.mark.parametrize(
    ("moment", "quiet", "until"),
    [
        (at(3, 22, 59), False, None),
        (at(3, 23, 0), True, at(4, 7)),
        (at(4, 2, 0), True, at(4, 7)),
        (at(4, 7, 0), False, None),
    ],
)
def test_quiet_hours_cross_midnight(moment: datetime, quiet: bool, until: datetime | None) -> None:
    assert CALENDAR.is_quiet(moment) is quiet
    assert CALENDAR.quiet_until(moment) == (until or moment)


def test_active_time_leaves_out_quiet_hours() -> None:
    assert CALENDAR.active_seconds(at(3, 22), at(4, 8)) == 2 * 3600  # 22-23 and 07-08
    assert CALENDAR.active_seconds(at(1, 0), at(2, 0)) == 16 * 3600
    moment = CALENDAR.active_moment(at(3, 22), 1.5 * 3600)
    assert abs((moment - at(4, 7, 30)).total_seconds()) <= 1


def test_the_interval_spreads_the_budget_over_the_active_time_left() -> None:
    plan = MonthPlan.of((200, 0), None, 10)
    pace = PACER.pace(plan, None, at(1, 8), notice=False)
    # 30 days of 16 active hours, 190 messages, one kept back for the month's last poll
    assert pace.interval == pytest.approx((30 * 16 * 3600 - 3600) / 189)
    assert describe_interval(pace.interval) == "~2 h 30 min"
    assert pace.cap == 190 and pace.month == "2026-11"
    assert pace.tolerance == 16 * 3600  # one day of active time


def test_what_others_spent_and_the_ceiling_shrink_the_budget() -> None:
    state = PaceState("2026-11", 0.0, pushes=20)
    shared = PACER.pace(MonthPlan.of((200, 70), None, 10), state, at(10, 9), notice=False)
    assert shared.cap == 200 - 50 - 10  # 70 used, 20 of them hunter's own
    lower = PACER.pace(MonthPlan.of((200, 0), 100, 10), None, at(10, 9), notice=False)
    assert lower.cap == 90
    notice = PACER.pace(MonthPlan.of((200, 0), None, 10), None, at(10, 9), notice=True)
    assert notice.cap == 200  # a notice may spend the reserve


def test_a_tiny_plan_keeps_a_tenth_of_itself() -> None:
    assert MonthPlan.of((20, 0), None, 10).reserve == 2
    assert MonthPlan.of((5, 0), None, 10).budget == 5
    assert MonthPlan.of((None, 0), None, 10).limit is None  # unlimited: nothing to pace


def test_the_last_poll_before_quiet_hours_may_borrow_and_the_months_last_spends_all() -> None:
    plan = MonthPlan.of((200, 0), None, 10)
    evening = PACER.pace(plan, None, at(3, 22, 30), notice=False)
    day = PACER.pace(plan, None, at(3, 15), notice=False)
    assert evening.tolerance == pytest.approx(day.tolerance + evening.interval)
    last = PACER.pace(plan, None, at(30, 22, 30), notice=False)
    assert last.tolerance == LAST_CALL


def test_next_push_is_now_when_allowed_and_at_the_tat_otherwise() -> None:
    plan = MonthPlan.of((200, 0), None, 10)
    now = at(10, 12)
    pace = PACER.pace(plan, None, now, notice=False)
    assert PACER.next_push(PaceState("2026-11", pace.now, 5), pace, now) == now
    ahead = PaceState("2026-11", pace.now + pace.tolerance + 3600, 5)
    assert abs((PACER.next_push(ahead, pace, now) - (now + timedelta(hours=1))).total_seconds()) < 2
    spent = PaceState("2026-11", pace.now, pace.cap)
    assert PACER.next_push(spent, pace, now) == at(1, 0, month=12)  # next month's first hour
    old_month = PaceState("2026-10", 9e9, 190)
    assert PACER.next_push(old_month, pace, now) == now


def test_without_quiet_hours_a_day_is_24_active_hours() -> None:
    pacer = Pacer(Calendar("UTC"), timedelta(minutes=30))
    pace = pacer.pace(
        MonthPlan.of((300, 0), None, 10), None, datetime(2026, 2, 1, tzinfo=UTC), False
    )
    assert pace.tolerance == DAY
    assert pace.interval == pytest.approx(28 * DAY / 289)
