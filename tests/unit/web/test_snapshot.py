"""The status page's memory (hunter/web/snapshot.py): a report is gathered once for many
viewers a moment apart, and a slow channel call never holds a view (issue 45, finding 5)."""

from __future__ import annotations

import threading

import pytest

from hunter.errors import ChannelError
from hunter.web.snapshot import Latest, Snapshot


class Tick:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_report_is_gathered_once_a_moment_for_every_viewer() -> None:
    clock, gathered = Tick(), []
    snapshot = Snapshot(lambda: gathered.append(clock.now) or len(gathered), 2.0, clock)
    assert [snapshot.get() for _ in range(8)] == [1] * 8
    clock.now = 2.5
    assert snapshot.get() == 2 and gathered == [0.0, 2.5]


def test_a_slow_answer_never_holds_a_view_and_is_asked_again_when_it_moved() -> None:
    clock, moved, release = Tick(), [0], threading.Event()
    answers = iter([(300, 1), (300, 2)])

    def ask() -> tuple[int, int]:
        release.wait(10)  # LINE's quota API, slow
        return next(answers)

    latest = Latest(ask, every=300, moved=lambda: moved[0], clock=clock)
    with pytest.raises(ChannelError, match="not read yet"):
        latest.get()  # no wait: it is asked on a thread of its own
    release.set()
    for _ in range(200):
        try:
            assert latest.get() == (300, 1)
            break
        except ChannelError:
            threading.Event().wait(0.01)
    assert latest.get() == (300, 1)  # kept: not asked again within `every`
    moved[0] = 1  # a push spent the month
    latest.get()  # asks again, and answers what it knew meanwhile
    for _ in range(200):
        if latest.get() == (300, 2):
            break
        threading.Event().wait(0.01)
    assert latest.get() == (300, 2)


def test_a_failed_answer_is_said_and_asked_again_later() -> None:
    clock = Tick()

    def ask() -> tuple[int, int]:
        raise ChannelError("LINE's quota API answered 500")

    latest = Latest(ask, every=60, clock=clock)
    with pytest.raises(ChannelError):
        latest.get()
    for _ in range(200):
        try:
            latest.get()
        except ChannelError as exc:
            if "500" in str(exc):
                break
        threading.Event().wait(0.01)
    with pytest.raises(ChannelError, match="500"):
        latest.get()
