"""The reads room on every store (SQLite, PostgreSQL, Supabase): each read of each source is
kept for the status's history, read back newest first, and pruned (issue 36)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hunter.status.history import days_of, history
from hunter.store.base import Store
from hunter.store.records import ReadRow

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)


def read(source: str, minutes: int, error: str | None = None) -> ReadRow:
    listings = 0 if error else 20
    return ReadRow(source, T0 + timedelta(minutes=minutes), listings, 2, 1, error, 0.25)


def test_reads_are_kept_read_back_and_pruned(store: Store) -> None:
    store.reads.keep([read("a", 0), read("b", 0, "HTTP 503 from x")])
    store.reads.keep([read("a", 30), read("b", 30)])
    store.reads.keep([read("a", 30)])  # the same read again (a retried call): kept once
    store.reads.keep([])
    kept = store.reads.since(T0 - timedelta(days=1))
    assert [(r.source, r.read_at) for r in kept] == [
        ("a", T0 + timedelta(minutes=30)),
        ("b", T0 + timedelta(minutes=30)),
        ("a", T0),
        ("b", T0),
    ]
    failed = kept[-1]
    assert (failed.listings, failed.error, failed.seconds) == (0, "HTTP 503 from x", 0.25)
    assert (kept[0].listings, kept[0].new, kept[0].matching) == (20, 2, 1)
    assert len(store.reads.since(T0 - timedelta(days=1), limit=3)) == 3
    assert store.reads.prune(T0 + timedelta(minutes=10)) == 2
    assert [r.read_at for r in store.reads.since(T0 - timedelta(days=1))] == [
        T0 + timedelta(minutes=30)
    ] * 2


def test_the_last_days_of_reads_are_summed_by_the_users_day(store: Store) -> None:
    """New matches and failed reads per day (the user's days, oldest first), reads today,
    summed by the store."""
    now = datetime(2026, 11, 30, 20, tzinfo=UTC)  # 03:00 on 1 Dec in Bangkok

    def at(hours_ago: float, matching: int, error: str | None = None) -> ReadRow:
        return ReadRow("a", now - timedelta(hours=hours_ago), 20, matching, matching, error, 0.1)

    store.reads.keep([at(1, 2), at(2, 1), at(5, 0, "HTTP 503"), at(30, 4), at(24 * 9, 7)])
    days = history(store.reads.by_day(days_of(now, "Asia/Bangkok")))["a"]
    # Today in Bangkok began at 17:00 UTC: the reads 1 and 2 h ago are today's, the failed
    # one 5 h ago yesterday's (22:00), 30 h ago two days back; 9 days ago is out of the week.
    assert days.matching == [0, 0, 0, 0, 4, 0, 3]
    assert days.failed == [0, 0, 0, 0, 0, 1, 0]
    assert days.reads_today == 2


def test_a_week_of_200_sources_is_summed_whole(store: Store) -> None:
    """Issue 45, finding 9: the history read only the newest 20,000 reads, two days of 200
    sources read every 30 minutes, so the week's chart showed [0,0,0,0,5,18,4] for a true
    [13,10,7,11,7,18,4] and lost the older failed reads. Summed by the store, by day, the
    whole week is there (here read every hour: 33,600 reads)."""
    now = datetime(2026, 11, 30, 16, 30, tzinfo=UTC)  # 23:30 in Bangkok: the day is full
    truth = [13, 10, 7, 11, 7, 18, 4]
    start = days_of(now, "Asia/Bangkok")[0][0]
    reads = []
    for hour in range(7 * 24):
        day, at = hour // 24, start + timedelta(hours=hour, minutes=10)
        for s in range(200):
            matching = 1 if s == 0 and hour % 24 < truth[day] else 0
            error = "HTTP 503" if s == 0 and hour % 24 == 23 else None
            reads.append(ReadRow(f"s{s:03}", at, 20, matching, matching, error, 0.1))
    for chunk in range(0, len(reads), 5_000):
        store.reads.keep(reads[chunk : chunk + 5_000])
    days = history(store.reads.by_day(days_of(now, "Asia/Bangkok")))
    assert len(days) == 200
    assert days["s000"].matching == truth
    assert days["s000"].failed == [1] * 7
    assert days["s199"].matching == [0] * 7 and days["s199"].reads_today == 24
