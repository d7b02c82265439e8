"""The reads room on every store (SQLite, PostgreSQL, Supabase): each read of each source is
kept for the status's history, read back newest first, and pruned (issue 36)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
