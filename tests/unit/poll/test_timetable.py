"""The timetable (hunter/poll/timetable.py): which sources a poll reads, how a cron's gap is
learned, and what holds a source beyond its schedule (`every`, Retry-After, 429 and 503)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from hunter.poll import timetable
from hunter.rules.listing import Listing
from hunter.settings.config import Config, parse_config
from hunter.sources.reader import SourceRead
from hunter.store.records import SourceState
from tests.support.board import html_source

NOW = datetime(2026, 12, 2, 5, 0, tzinfo=UTC)  # 12:00 in Bangkok


def config(**top: object) -> Config:
    sources = [html_source("a", "https://a.test/"), html_source("b", "https://b.test/")]
    return parse_config({"sources": sources, "timezone": "Asia/Bangkok", **top})


def state(name: str, minutes: float | None, reason: str | None = "busy") -> SourceState:
    at = None if minutes is None else NOW + timedelta(minutes=minutes)
    return SourceState(name=name, not_before=at, read_reason=reason)


@pytest.mark.parametrize(
    ("minutes", "reason", "ahead", "due"),
    [
        (None, None, 0.0, True),  # never read
        (-1, "busy", 0.0, True),
        (2, "busy", 0.0, False),
        (2, "busy", 150.0, True),  # a 5-minute cron reads what is due before its next run
        (2, "quiet", math.inf, True),  # a 30-minute cron: every run
        (2, "every", math.inf, False),  # never early: the site's terms
        (2, "site", math.inf, False),  # never early: the site asked
        (-1, "site", 0.0, True),
        (60 * 24 * 30, "busy", 0.0, True),  # a month ahead: the clock went back
    ],
)
def test_which_sources_are_due(
    minutes: float | None, reason: str | None, ahead: float, due: bool
) -> None:
    chosen = timetable.due(
        config().sources, {"a": state("a", minutes, reason)}, config(), NOW, ahead
    )
    assert ("a" in chosen) is due
    assert "b" in chosen  # never read: due, with no next read to claim against
    assert chosen["b"] is None


def test_a_fixed_schedule_is_read_every_cron_run_and_at_a_start() -> None:
    fixed = config(schedule="fixed")
    states = {"a": state("a", 20, "fixed"), "b": state("b", 20, "every")}
    assert timetable.due(fixed.sources, states, fixed, NOW, 0.0) == {}
    assert set(timetable.due(fixed.sources, states, fixed, NOW, 0.0, fixed_now=True)) == {"a"}


@pytest.mark.parametrize(
    ("minutes", "gap"),
    [
        ([], None),
        ([0], None),
        ([0, 5, 10, 15, 20], 300.0),
        ([0, 5, 10, 11, 16, 21], 300.0),  # a run by hand in between moves it little
        ([0, 5, 10, 2000, 2005], 300.0),  # a day's outage is not the cron
        ([0, 30, 60], 1800.0),
    ],
)
def test_the_cron_gap_is_the_median_of_the_last_runs(
    minutes: list[float], gap: float | None
) -> None:
    assert timetable.gap([NOW + timedelta(minutes=m) for m in minutes]) == gap


@pytest.mark.parametrize(
    ("gap", "ahead"), [(None, 0.0), (300.0, 150.0), (1800.0, math.inf), (1700.0, math.inf)]
)
def test_a_cron_reads_half_a_gap_ahead_or_all_when_it_is_no_faster_than_the_interval(
    gap: float | None, ahead: float
) -> None:
    assert timetable.ahead(gap, config()) == ahead


def read(source: int = 0, **fields: object) -> SourceRead:
    listing = Listing(job_id="a:1", source="a", title="python", url="https://a.test/1")
    return SourceRead(config().sources[source], listings=[listing], **fields)  # type: ignore[arg-type]


def test_every_holds_a_source_beyond_its_schedule() -> None:
    every = config(sources=[html_source("a", "https://a.test/") | {"every": "6h"}])
    planned = timetable.plan(SourceRead(every.sources[0]), None, 0, every, NOW, jitter=0.0)
    assert planned["read_reason"] == "every"
    assert planned["not_before"] == NOW + timedelta(hours=6)


def test_retry_after_holds_a_source_beyond_its_schedule() -> None:
    planned = timetable.plan(read(status=429, retry_after=7200.0), None, None, config(), NOW, 0.0)
    assert planned["read_reason"] == "site"
    assert planned["not_before"] == NOW + timedelta(hours=2)


@pytest.mark.parametrize(("streak", "minutes"), [(0, 10), (1, 20), (3, 80), (9, 180)])
def test_a_429_or_503_without_a_time_backs_off_doubling_to_the_slowest(
    streak: int, minutes: float
) -> None:
    """5 min (fastest) doubled per refusal in a row, never before the schedule's next read
    (10 min for a source not watched yet at noon in Bangkok: the rest of the day's budget),
    at most the slowest (3 h)."""
    before = SourceState(name="a", fail_streak=streak)
    for status in (429, 503):
        planned = timetable.plan(read(status=status), before, None, config(), NOW, 0.0)
        assert planned["read_reason"] == "site"
        assert planned["not_before"] == NOW + timedelta(minutes=minutes)


def test_the_next_wake_is_the_earliest_next_read_within_an_interval() -> None:
    c = config()

    def reads(**minutes: float) -> dict[str, datetime | None]:
        return {name: NOW + timedelta(minutes=m) for name, m in minutes.items()}

    assert timetable.next_wake(reads(a=7, b=90), c, NOW) == NOW + timedelta(minutes=7)
    assert timetable.next_wake(reads(a=45, b=90), c, NOW) == NOW + timedelta(minutes=30)
    assert timetable.next_wake({**reads(a=45), "b": None}, c, NOW) == NOW  # b never read
    # b is not in this replica's reads (share_sources: another one holds it): not its wake
    assert timetable.next_wake(reads(a=45), c, NOW) == NOW + timedelta(minutes=30)


def test_every_read_counts_against_the_days_budget_failed_ones_too() -> None:
    """Issue 56: the reads of a source's calendar day (in `timezone`) are counted, a 500 as
    much as a good read, and the count starts again at local midnight."""
    cfg, before = config(), None
    for minutes, status, new in ((0, 200, 0), (15, 500, None), (30, 200, 1)):
        now = NOW + timedelta(minutes=minutes)
        planned = timetable.plan(read(status=status), before, new, cfg, now, 0.0)
        before = SourceState(name="a", cadence=planned["cadence"])
    assert before is not None and before.cadence["reads"] == 3
    midnight = datetime(2026, 12, 2, 17, 0, tzinfo=UTC)  # 00:00 of the 3rd in Bangkok
    planned = timetable.plan(read(), before, 0, cfg, midnight, 0.0)
    assert planned["cadence"]["reads"] == 1
