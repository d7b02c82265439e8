"""The pace row as every store keeps it: the same claims answer the same on SQLite, PostgreSQL
and Supabase, and replicas racing on one PostgreSQL never spend more than the pace allows."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from hunter.pace import Pace
from hunter.store.base import Store
from tests.conftest import open_test_store

NOW = datetime(2026, 11, 12, 9, tzinfo=UTC)
HOUR = 3600.0


def pace(now: float, month: str = "2026-11", cap: int = 190, notice: bool = False) -> Pace:
    # a push every hour of active time, three hours of credit
    return Pace(month, now, interval=HOUR, tolerance=3 * HOUR, cap=cap, notice=notice)


def test_claims_follow_the_pace(store: Store) -> None:
    assert store.pace_state() is None
    granted = [store.claim_push(pace(100 * HOUR), NOW).granted for _ in range(6)]
    assert granted == [True, True, True, True, False, False]  # the credit, then the wait
    state = store.pace_state()
    assert state is not None and (state.month, state.pushes) == ("2026-11", 4)
    assert state.tat == 104 * HOUR
    assert not store.claim_push(pace(100.5 * HOUR), NOW).granted
    assert store.claim_push(pace(101 * HOUR), NOW).granted  # an hour on, one more


def test_a_notice_spends_the_reserve_without_moving_the_pace(store: Store) -> None:
    for _ in range(4):
        store.claim_push(pace(10 * HOUR), NOW)
    assert not store.claim_push(pace(10 * HOUR), NOW).granted
    notice = store.claim_push(pace(10 * HOUR, notice=True, cap=200), NOW)
    assert notice.granted and notice.pushes == 5 and notice.tat == 14 * HOUR


def test_the_cap_holds_whatever_the_credit(store: Store) -> None:
    granted = [store.claim_push(pace(HOUR * n, cap=3), NOW).granted for n in range(10)]
    assert granted.count(True) == 3


def test_a_new_month_starts_afresh(store: Store) -> None:
    for _ in range(4):
        store.claim_push(pace(700 * HOUR), NOW)
    december = store.claim_push(pace(0.1 * HOUR, month="2026-12"), NOW)
    assert december.granted and (december.month, december.pushes) == ("2026-12", 1)


def test_replicas_on_one_postgresql_never_exceed_the_pace_together(
    tmp_path: Path, pg_url: str
) -> None:
    """Four workers, each with its own connection (as separate processes have), claim at the
    same moment again and again: together they get exactly what one would."""
    workers = 4
    stores = [open_test_store("postgres", tmp_path, pg_url) for _ in range(workers)]
    start = threading.Barrier(workers)
    granted: list[int] = [0] * workers

    def claim(n: int) -> None:
        start.wait()
        for _ in range(25):
            if stores[n].claim_push(pace(50 * HOUR), NOW).granted:
                granted[n] += 1

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state = stores[0].pace_state()
    for opened in stores:
        opened.close()
    assert sum(granted) == 4  # 3 hours of credit plus the push due now
    assert state is not None and state.pushes == 4
