"""How fresh a source's listings reach the chat, as `hunter status` and สถานะ say it: per
source, posted -> found and posted -> sent over the last 7 days, the median and p90 (the
board's posted time; the first-seen time where it states none). Pure: a table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hunter.status.history import Freshness, Spread, duration, freshness
from hunter.store.records import SentTimes

T0 = datetime(2026, 11, 30, 9, tzinfo=UTC)


def sent(source: str, posted_ago: float | None, found_after: float, sent_after: float) -> SentTimes:
    """A listing posted `posted_ago` minutes before T0 (None: not stated), found and sent
    minutes after T0."""
    posted = "" if posted_ago is None else (T0 - timedelta(minutes=posted_ago)).isoformat()
    found = T0 + timedelta(minutes=found_after)
    return SentTimes(source, posted, found, T0 + timedelta(minutes=sent_after))


def test_median_and_p90_per_source() -> None:
    rows = [sent("a", minutes, 0, 1) for minutes in range(1, 11)]  # 1..10 min before
    rows += [sent("b", None, 0, 30)]  # states no time: from first seen, sent 30 min after
    fresh = freshness(rows)
    assert fresh["a"].sent == 10 and fresh["a"].posted_times == 10
    assert fresh["a"].posted_to_found == Spread(330, 540)
    assert fresh["a"].posted_to_sent == Spread(390, 600)
    assert fresh["b"] == Freshness(1, 0, Spread(0, 0), Spread(1800, 1800))


def test_a_board_clock_ahead_never_makes_a_negative_wait() -> None:
    fresh = freshness([sent("a", -5, 0, 0)])  # "posted" 5 min after it was found
    assert fresh["a"].posted_to_sent == Spread(0, 0)


def test_durations_as_a_person_says_them() -> None:
    assert [duration(s) for s in (20, 60, 840, 3600, 7500, 86400, 97200)] == [
        "under a minute",
        "1 min",
        "14 min",
        "1 h",
        "2 h 5 min",
        "1 d",
        "1 d 3 h",
    ]
