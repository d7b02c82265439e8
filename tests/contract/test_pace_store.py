"""The pace row as every store keeps it: the same claims answer the same on SQLite, PostgreSQL
and Supabase, and processes racing on one PostgreSQL never spend more than the pace allows."""

from __future__ import annotations

import itertools
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from hunter.store.records import Pace
from hunter.store.sqlite import SQLiteStore
from tests.support.pace_claims import claim_many, take_many

NOW = datetime(2026, 11, 12, 9, tzinfo=UTC)
HOUR = 3600.0


def pace(now: float, month: str = "2026-11", cap: int = 190, notice: bool = False) -> Pace:
    # a push every hour of active time, three hours of credit
    return Pace(month, now, interval=HOUR, tolerance=3 * HOUR, cap=cap, notice=notice)


def test_claims_follow_the_pace(store: Store) -> None:
    assert store.pace.state() is None
    granted = [store.pace.claim(pace(100 * HOUR), NOW).granted for _ in range(6)]
    assert granted == [True, True, True, True, False, False]  # the credit, then the wait
    state = store.pace.state()
    assert state is not None and (state.month, state.pushes) == ("2026-11", 4)
    assert state.tat == 104 * HOUR
    assert not store.pace.claim(pace(100.5 * HOUR), NOW).granted
    assert store.pace.claim(pace(101 * HOUR), NOW).granted  # an hour on, one more


def test_a_notice_spends_the_reserve_without_moving_the_pace(store: Store) -> None:
    for _ in range(4):
        store.pace.claim(pace(10 * HOUR), NOW)
    assert not store.pace.claim(pace(10 * HOUR), NOW).granted
    notice = store.pace.claim(pace(10 * HOUR, notice=True, cap=200), NOW)
    assert notice.granted and notice.pushes == 5 and notice.tat == 14 * HOUR


def test_the_cap_holds_whatever_the_credit(store: Store) -> None:
    granted = [store.pace.claim(pace(HOUR * n, cap=3), NOW).granted for n in range(10)]
    assert granted.count(True) == 3


def test_a_new_month_starts_afresh(store: Store) -> None:
    for _ in range(4):
        store.pace.claim(pace(700 * HOUR), NOW)
    december = store.pace.claim(pace(0.1 * HOUR, month="2026-12"), NOW)
    assert december.granted and (december.month, december.pushes) == ("2026-12", 1)


def test_processes_on_one_postgresql_never_exceed_the_pace_together(pg_url: str) -> None:
    """Four processes, each with its own connection, claim at the same moment again and
    again: together they get exactly what one would."""
    with PostgresStore(pg_url) as store:
        store.migrate()
    start_at = time.time() + 3  # once every process is up and connected
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=4, mp_context=spawn) as pool:
        claims = [pool.submit(claim_many, pg_url, pace(50 * HOUR), 25, start_at) for _ in range(4)]
        granted = [claim.result(timeout=120) for claim in claims]
    with PostgresStore(pg_url) as store:
        state = store.pace.state()
    assert sum(granted) == 4  # 3 hours of credit plus the push due now
    assert state is not None and state.pushes == 4


def test_a_push_to_a_group_spends_its_members_and_is_counted_to_its_chat(store: Store) -> None:
    group = Pace(
        month="2026-11", now=100.0, interval=10.0, tolerance=50.0, cap=9, notice=False, cost=4
    )
    first = store.pace.claim(group, NOW, "studio")
    assert first.granted and first.pushes == 4 and first.tat == 100.0 + 40.0
    second = store.pace.claim(replace(group, now=200.0), NOW, "studio")
    assert second.granted and second.pushes == 8
    third = store.pace.claim(replace(group, now=300.0, cost=1), NOW, "")
    assert third.granted and third.pushes == 9
    assert not store.pace.claim(replace(group, now=400.0), NOW, "studio").granted  # 9 + 4 > cap
    chats = store.pace.chats()
    assert (chats["studio"].spent, chats[""].spent) == (8, 1)
    store.pace.set_members("studio", "C" + "1" * 32, 4, NOW)
    assert store.pace.chats()["studio"].members_at == NOW
    store.pace.forget_members("C" + "1" * 32)
    kept = store.pace.chats()["studio"]
    assert (kept.members, kept.members_at, kept.spent) == (4, None, 8)


def test_moments_to_send_are_taken_in_blocks_that_never_overlap(store: Store) -> None:
    """A channel's moments (deliver/rate.py): the first block starts at the time asked, the
    next where it ended, one asked later starts then, and another channel's are its own. On
    PostgreSQL they are timed by its clock, and answered in the asker's: within a few ms."""
    gap, near = 0.25, {"abs": 0.1}  # an answer's moment is off by its call's latency at most
    take = store.pace.take_slots
    asked = time.time()
    first = take("Telegram", 4, gap, asked)
    assert first == pytest.approx(asked, **near)  # at once
    second = take("Telegram", 4, gap, time.time())
    assert second == pytest.approx(first + 1.0, **near)  # after the first block
    assert take("Telegram", 2, gap, time.time()) == pytest.approx(second + 1.0, **near)
    asked = time.time()
    assert take("Discord", 4, gap, asked) == pytest.approx(asked, **near)  # a channel its own


def test_moments_on_one_machine_idle_and_a_wrong_clock(tmp_path: Path) -> None:
    """SQLite's moments are its machine's clock's, exactly: one asked after an idle while
    starts then; a row more than a minute ahead was moved by a wrong clock: nobody waits."""
    with SQLiteStore(tmp_path / "slots.db") as store:
        store.migrate()
        assert store.pace.take_slots("Telegram", 4, 0.25, 1000.0) == 1000.0
        assert store.pace.take_slots("Telegram", 4, 0.25, 1010.0) == 1010.0  # idle: from now
        assert store.pace.take_slots("Telegram", 1000, 1.0, 1010.0) == 1011.0
        assert store.pace.take_slots("Telegram", 1, 0.25, 1012.0) == 1012.0


def test_a_replica_whose_clock_runs_fast_leaves_the_others_at_the_full_pace(
    store: Store, store_kind: str
) -> None:
    """Issue 55, medium 7: a replica 50 s fast took the moments 50 s ahead, and every other
    sender waited LONGEST_WAIT (5 s) a message: 28 messages a second fell to 0.2. Two
    senders, one 50 s fast, share the bot's 28 a second between them. (SQLite's file is one
    machine's, with one clock: its senders cannot disagree.)"""
    from hunter.deliver.rate import SharedRate

    if store_kind == "sqlite":
        pytest.skip("one SQLite file is one machine's: one clock")
    fast = SharedRate(store.pace.take_slots, "Telegram", 28.0, lambda: time.time() + 50)
    right = SharedRate(store.pace.take_slots, "Telegram", 28.0, time.time)
    waits = []
    for _ in range(28):  # a second's worth, taken in turn
        fast.delay()
        waits.append(right.delay())
    assert max(waits) < 2.5, waits  # about 28 moments in, 2 s at most: never the 5 s cap


def test_processes_on_one_postgresql_take_moments_no_other_holds(pg_url: str) -> None:
    """Four processes, each with its own connection, take blocks at the same moment again
    and again: every block starts where another ended, none overlaps."""
    with PostgresStore(pg_url) as store:
        store.migrate()
    start_at = time.time() + 3  # once every process is up and connected
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=4, mp_context=spawn) as pool:
        takes = [pool.submit(take_many, pg_url, 25, start_at) for _ in range(4)]
        firsts = sorted(f for take in takes for f in take.result(timeout=120))
    assert len(firsts) == 100
    # Blocks of 7 moments 1/28 s apart: 0.25 s each, back to back or later, never closer (by
    # the database's clock; each told in its process's from when it was asked, so earlier by
    # at most its call's time: a loaded machine's calls took over 20 ms).
    assert all(
        b - a >= 0.25 - b_took - 0.002 for (a, _), (b, b_took) in itertools.pairwise(firsts)
    ), firsts
