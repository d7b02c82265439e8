"""Pacing through the real deliverer and SQLite store, on a fake clock: what a user sees over
days and months. The two-replica case on PostgreSQL is in tests/contract/test_pace_store.py;
the month as a whole is bench/month.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from hunter.deliver.deliverer import Deliverer, Delivery
from hunter.rules import shape
from hunter.rules.listing import Listing
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from hunter.words import notices
from tests.support.scripted import Clock, ScriptedSender

BANGKOK = ZoneInfo("Asia/Bangkok")
SOURCE = {"name": "a", "url": "https://x.test/", "item": "li", "title": "a", "id": "@id"}


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BANGKOK)


def config(**settings: Any) -> Any:
    return parse_config({"sources": [SOURCE], "timezone": "Asia/Bangkok", **settings})


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    opened = SQLiteStore(tmp_path / "hunter.db")
    opened.migrate()
    opened.outbox.record(
        "a", [Listing("a:seed", "a", "seed", "https://x.test/seed")], set(), at(1, 0)
    )
    yield opened
    opened.close()


class Month:
    """A deliverer (a fresh one per poll, as `run --once` from cron makes) over one store."""

    def __init__(self, store: SQLiteStore, start: datetime, **settings: Any) -> None:
        self.store = store
        self.clock = Clock(start)
        self.sender = ScriptedSender()
        self.sender.quota_answer = (200, 0)
        self.config = config(**settings)
        self.count = 0

    def post(self, n: int = 1) -> list[str]:
        """`n` new matching listings appear and are recorded as the poller would."""
        new = []
        for _ in range(n):
            self.count += 1
            new.append(Listing(f"a:{self.count:04d}", "a", f"job {self.count}", "https://x.test/"))
        self.store.outbox.record("a", new, {x.job_id for x in new}, self.clock())
        return [x.title for x in new]

    def deliver(self) -> Delivery:
        deliverer = Deliverer(
            self.config,
            self.store,
            self.sender,
            self.clock,
            "w",
            threading.Event(),
            sleep=self.clock.advance,
        )
        return deliverer.deliver(self.config.max_alerts_per_poll)

    def titles(self) -> list[str]:
        out = []
        for _key, messages in self.sender.pushes:
            for message in messages:
                contents = message.get("contents", {})
                cards = (
                    contents.get("contents", [])
                    if contents.get("type") == "carousel"
                    else [contents]
                )
                out += [c["body"]["contents"][0]["text"] for c in cards if "body" in c]
        return out

    def notes(self) -> list[str]:
        return [m["text"] for _k, ms in self.sender.pushes for m in ms if m["type"] == "text"]


def test_few_listings_each_go_in_the_poll_that_found_them(store: SQLiteStore) -> None:
    month = Month(store, at(1, 8))
    for day in range(1, 31):  # 3 a day, at 09:00, 13:00 and 21:30, all month
        for hour in (9, 13, 21.5):
            month.clock.now = at(day, 0) + timedelta(hours=hour)
            posted = month.post()
            report = month.deliver()
            assert report.sent == 1 and month.titles()[-1] == posted[0], (day, hour)
    assert len(month.sender.pushes) == 90 and not month.notes()  # no pace note: nothing held


def test_a_busy_stream_is_held_in_order_and_the_push_says_when_the_next_goes(
    store: SQLiteStore,
) -> None:
    month = Month(store, at(10, 8))
    posted: list[str] = []
    held = []
    while month.clock.now < at(10, 23):  # two new listings every poll, 08:00 to 23:00
        posted += month.post(2)
        report = month.deliver()
        if report.held:
            held.append(report.held)
            assert report.next_push_at is not None and report.next_push_at > month.clock.now
        month.clock.advance(1800)
    pushes = len(month.sender.pushes)
    # 190 messages over 21 days of 16 active hours: one push per ~1 h 46 min, plus a day of
    # credit to start with; far fewer pushes than the 30 polls that found something.
    assert 8 <= pushes <= 18, pushes
    assert held, "the pace never held anything"
    assert month.titles() == posted[: len(month.titles())]  # nothing lost, nothing re-ordered
    assert any(note.startswith("Next alerts from ") for note in month.notes())


def test_the_pace_survives_a_restart(store: SQLiteStore) -> None:
    """Each poll is a new Deliverer (a new process): the credit spent stays spent."""
    month = Month(store, at(12, 9))
    for _ in range(30):
        month.post()
        month.deliver()
        month.clock.advance(60)  # thirty polls within half an hour: a crash loop, say
    first = len(month.sender.pushes)
    assert first < 30  # the burst credit runs out; a restart does not refill it
    month.clock.advance(6 * 3600)
    month.post()
    month.deliver()
    assert len(month.sender.pushes) == first + 1  # and it comes back with the time that passed


def test_a_new_months_allowance_is_used_from_its_first_hour(store: SQLiteStore) -> None:
    month = Month(store, at(30, 23, 31), monthly_messages=30)
    month.sender.quota_answer = None  # LINE cannot tell: the ceiling alone paces
    for _ in range(40):  # the month's last poll spends what is left, then holds the rest
        month.post()
        month.deliver()
        month.clock.advance(1)
    # All 30, the reserve of a tenth too: nothing carries over into December (issue 18: the
    # last messages must not be left unspent while a group's push waits for them).
    assert len(month.sender.pushes) == 30
    waiting = store.outbox.count_pending()
    assert waiting == 10
    month.clock.now = at(1, 0, 5, month=12)  # five minutes into December
    report = month.deliver()
    assert report.sent == waiting and len(month.sender.pushes) == 31
    state = store.pace.state()
    assert state is not None and (state.month, state.pushes) == ("2026-12", 1)


def test_nothing_is_pushed_in_quiet_hours_and_the_morning_push_carries_the_night(
    store: SQLiteStore,
) -> None:
    month = Month(store, at(5, 22, 30), quiet_hours="23:00-07:00")
    night = []
    while month.clock.now < at(6, 7):
        if month.clock.now >= at(5, 23):
            night += month.post()
            report = month.deliver()
            assert report.sent == 0 and report.held_by == "quiet hours"
            assert report.next_push_at == at(6, 7)
        month.clock.advance(1800)
    assert not month.sender.pushes
    report = month.deliver()  # 07:00
    assert report.sent == len(night) == 16 and len(month.sender.pushes) == 1
    assert month.titles() == night


def test_an_unlimited_plan_is_paced_by_monthly_messages_or_not_at_all(
    store: SQLiteStore,
) -> None:
    unpaced = Month(store, at(3, 9))
    unpaced.sender.quota_answer = (None, 0)  # LINE: no limit
    for _ in range(40):
        unpaced.post()
        assert unpaced.deliver().sent == 1
        unpaced.clock.advance(60)
    assert store.pace.state() is None  # nothing to pace, nothing claimed

    ceiling = Month(store, at(3, 12), monthly_messages=60)
    ceiling.sender.quota_answer = (None, 0)
    ceiling.count = 1000
    for _ in range(40):
        ceiling.post()
        ceiling.deliver()
        ceiling.clock.advance(60)
    assert 1 <= len(ceiling.sender.pushes) < 40
    state = store.pace.state()
    assert state is not None and state.pushes == len(ceiling.sender.pushes)


def test_when_lines_quota_cannot_be_read_the_ceiling_paces_or_nothing_waits(
    store: SQLiteStore, caplog: pytest.LogCaptureFixture
) -> None:
    month = Month(store, at(14, 9))
    month.sender.quota_error = "LINE quota check failed: HTTP 500"
    for _ in range(20):  # a burst no 200-message pace would let through
        month.post()
        assert month.deliver().sent == 1  # not knowing the plan never holds a listing back
        month.clock.advance(60)
    assert "could not read LINE's message quota: LINE quota check failed: HTTP 500" in caplog.text
    capped = Month(store, at(14, 12), monthly_messages=60)
    capped.sender.quota_error = "cannot reach LINE: timed out"
    capped.count = 1000
    for _ in range(20):
        capped.post()
        capped.deliver()
        capped.clock.advance(60)
    assert 1 <= len(capped.sender.pushes) < 20  # the configured ceiling still paces


def test_a_fields_notice_never_takes_a_listings_place_in_the_month(store: SQLiteStore) -> None:
    """Issue 37, medium 2: a month of 12 was spent by notices of a flapping board, and the next
    real listing waited for the next month. A field's notice alone is not pushed on a paced
    channel: it goes with the next listing's push, which it costs nothing."""
    month = Month(store, at(1, 8), monthly_messages=12)
    month.sender.quota_answer = (12, 0)
    source = SimpleNamespace(name="a", url="https://x.test/")
    change = [shape.Change("pay", shape.GONE)]
    for n in range(30):  # a notice a poll, 30 polls
        month.clock.advance(1800)
        notice = notices.shape_changed(source, change, n + 1, month.clock())
        assert store.outbox.enqueue(notice, month.clock())
        month.deliver()
    assert month.sender.pushes == []  # not one message spent
    month.clock.advance(1800)
    [title] = month.post()
    month.deliver()
    assert len(month.sender.pushes) == 1  # the listing, its notices beside it
    shown = month.titles()
    assert title in shown and sum("pay no longer found" in t for t in shown) == 30
    # With no listing for a day, a notice goes alone (the reserve pays for it).
    notice = notices.shape_changed(source, change, 31, month.clock())
    assert store.outbox.enqueue(notice, month.clock())
    month.deliver()
    assert len(month.sender.pushes) == 1
    month.clock.advance(86400 + 60)
    month.deliver()
    assert len(month.sender.pushes) == 2


def test_the_cards_of_strangers_who_ask_never_spend_the_owners_listings(
    store: SQLiteStore,
) -> None:
    """Issue 55, high 1: on a nearly spent LINE month, strangers asking to join all day (a
    card every four hours, asks.CARDS_EVERY) spend nothing; the owner's next listing goes,
    the cards beside it in the same push."""
    from hunter.chat import asks

    month = Month(store, at(1, 8), monthly_messages=300)
    month.sender.quota_answer = (300, 295)  # five messages left this month
    for n in range(6):  # a day of asks
        month.clock.advance(asks.CARDS_EVERY.total_seconds() - 60)
        chat = f"telegram:{900 + n}"
        store.subscribers.join(chat, True, 50, month.clock())
        assert asks.tell_owner(store, month.clock(), {chat: "Mallory"})
        month.deliver()
        month.clock.advance(60)
    assert month.sender.pushes == []  # not one of the five spent
    [title] = month.post()
    month.deliver()
    assert len(month.sender.pushes) == 1  # the listing, the six cards beside it
    shown = month.titles()
    assert title in shown and sum("asks to join" in t for t in shown) == 6
