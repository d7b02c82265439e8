"""A bot's pace kept by every sender together (deliver/rate.py): the moments one sender gets,
taken from a real SQLite store in blocks, with a fake clock. The race of processes on one
PostgreSQL is tests/contract/test_pace_store.py's; three replicas delivering to the Telegram
stand-in without a 429, tests/integration/deliver/test_fan_out.py's."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from hunter.deliver.rate import ALONE_SECONDS, SharedRate
from hunter.store.sqlite import SQLiteStore

GAP = 1 / 28  # Telegram's 28 a second: blocks of 7


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "rate.db") as opened:
        opened.migrate()
        yield opened


def test_one_sender_sends_a_gap_apart_and_asks_the_store_once_a_block(store: SQLiteStore) -> None:
    takes: list[float] = []

    def take(channel: str, count: int, gap: float, now: float) -> float:
        takes.append(now)
        return store.pace.take_slots(channel, count, gap, now)

    clock = Clock()
    rate = SharedRate(take, "Telegram", 28.0, clock)
    delays = []
    for _ in range(14):
        delays.append(rate.delay())
        clock.now += delays[-1]  # it sends at its moment
    assert delays[0] == 0.0
    assert delays[1:] == pytest.approx([GAP] * 13)
    assert len(takes) == 4  # blocks of 1, 2, 4 and 7: it takes what it sends


def test_two_senders_never_share_a_moment(store: SQLiteStore) -> None:
    clock = Clock()
    senders = [SharedRate(store.pace.take_slots, "Telegram", 28.0, clock) for _ in range(2)]
    moments = []
    for n in range(56):  # each asks in turn, at the same instant: two seconds' worth
        moments.append(clock.now + senders[n % 2].delay())
    moments.sort()
    assert len(set(moments)) == 56
    assert min(b - a for a, b in itertools.pairwise(moments)) >= GAP - 1e-9
    assert moments[-1] - moments[0] == pytest.approx(55 * GAP)  # no moment lost between them


def test_moments_gone_by_are_not_sent_on(store: SQLiteStore) -> None:
    clock = Clock()
    rate = SharedRate(store.pace.take_slots, "Telegram", 28.0, clock)
    rate.delay()  # a block taken, one moment used
    clock.now += 10  # idle: the block's other moments went by
    assert rate.delay() == 0.0
    assert rate.delay() == pytest.approx(GAP)  # from now on, at the pace
    other = SharedRate(store.pace.take_slots, "Telegram", 28.0, clock)
    assert other.delay() > GAP  # the store holds the moments the first took


def test_a_store_that_cannot_be_reached_leaves_the_pace_to_the_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    down = SQLiteStore(tmp_path / "down.db")
    down.migrate()
    down.close()
    up = SQLiteStore(tmp_path / "up.db")
    up.migrate()
    stores = [down]
    takes: list[float] = []

    def take(channel: str, count: int, gap: float, now: float) -> float:
        takes.append(now)
        return stores[0].pace.take_slots(channel, count, gap, now)

    clock = Clock()
    rate = SharedRate(take, "Telegram", 28.0, clock)
    with caplog.at_level(logging.INFO, logger="hunter"):
        delays = []
        for _ in range(28):
            delays.append(rate.delay())
            clock.now += delays[-1]
        assert delays[1:] == pytest.approx([GAP] * 27)  # the pace kept alone
        assert len(takes) == 1 and not rate.shared  # not asked again for every message
        clock.now += ALONE_SECONDS
        stores[0] = up
        rate.delay()
        assert len(takes) == 2 and rate.shared
    said = [r.getMessage() for r in caplog.records]
    assert sum("kept by this process alone" in line for line in said) == 1
    assert sum("shared with the other replicas again" in line for line in said) == 1
    up.close()


def test_answers_now_and_then_take_only_what_they_send(store: SQLiteStore) -> None:
    """Issue 55, medium 8: each chat answer took a block of 7 moments and used 1; 3.6 answers
    a second cut delivery from 28 to about 15 messages a second. A delivery at full pace and
    a chat answering 3.6 times a second, over ten seconds of the bot's pace."""
    clock = Clock()
    start = clock.now
    delivery = SharedRate(store.pace.take_slots, "Telegram", 28.0, clock)
    chat = SharedRate(store.pace.take_slots, "Telegram", 28.0, clock)
    sent, answered = 0, 0
    delivery_at, answer_at = start, start + 0.1
    while min(delivery_at, answer_at) < start + 10:
        if delivery_at <= answer_at:
            clock.now = delivery_at
            delivery_at += delivery.delay()  # sent at its moment, and asks for the next
            sent += 1
        else:
            clock.now = answer_at
            chat.delay()
            answered += 1
            answer_at += 1 / 3.6
    assert answered == 36
    assert sent / 10 >= 28 - 3.6 - 1, sent  # the bot's 28 a second, less the answers'
