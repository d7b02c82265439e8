"""The deliverer's fast tier: a real SQLite store, a scripted sender and a fake clock drive
every path of the policy (sent, retry, parked, split, quota, auth, expired key) in milliseconds.
The end-to-end delivery tests run the same paths through the CLI, PostgreSQL and the LINE
stand-in; these pin down what the deliverer itself does with each answer.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta

import pytest

from hunter.channels.line import answers
from hunter.channels.line.answers import MONTHLY_LIMIT_MESSAGE
from hunter.deliver.deliverer import Deliverer
from hunter.deliver.outcome import Kind, PushResult
from hunter.rules.listing import Listing
from hunter.settings.config import Config, parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
SOURCE = {"name": "a", "url": "https://x.test/", "item": "li", "title": "a", "id": "@id"}
CONFIG = parse_config({"sources": [SOURCE], "lease_seconds": 60})


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def sender() -> ScriptedSender:
    return ScriptedSender()


def deliverer(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock, config: Config = CONFIG
) -> Deliverer:
    return Deliverer(config, store, sender, clock, "w", threading.Event(), sleep=clock.advance)


def waiting(store: SQLiteStore, *titles: str) -> list[str]:
    """Prime source "a", then show these listings as new and matching: rows in `pending`."""
    store.outbox.record("a", [Listing("a:seed", "a", "seed", "https://x.test/seed")], set(), T0)
    new = [Listing(f"a:{n}", "a", t, f"https://x.test/{n}") for n, t in enumerate(titles)]
    store.outbox.record("a", new, {x.job_id for x in new}, T0)
    return [x.job_id for x in new]


def states(store: SQLiteStore) -> dict[str, str]:
    return {k: v for k, v in store.outbox.job_states().items() if k != "a:seed"}


def error_of(store: SQLiteStore, job_id: str) -> str:
    return next(r.last_error or "" for r in store.status(T0).rows if r.job_id == job_id)


def test_a_batch_goes_out_in_one_push(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one", "two", "three")
    report = deliverer(store, sender, clock).deliver(48)
    assert (report.sent, report.pushes, report.failed) == (3, 1, 0)
    assert states(store) == dict.fromkeys(ids, "sent")
    [(_key, messages)] = sender.pushes
    assert [m["type"] for m in messages] == ["flex"]


def test_a_transient_failure_is_retried_with_the_same_key_and_body(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one", "two")
    sender.script = [PushResult(Kind.TRANSIENT, 500, "boom")]
    report = deliverer(store, sender, clock).deliver(48)
    assert (report.sent, report.pushes, report.failed) == (2, 2, 0)  # none left waiting
    first, second = sender.pushes
    assert first == second  # the same X-Line-Retry-Key and byte-identical messages
    assert clock.now == T0 + timedelta(seconds=1)  # waited the first backoff step
    assert states(store) == dict.fromkeys(ids, "sent")


def test_a_listing_that_fails_again_within_a_delivery_is_one_left_waiting(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    """A new user's find: the poll's line said "3 waiting after a failed push" of one
    listing tried three times; it says each listing once."""
    waiting(store, "one")
    sender.script = [PushResult(Kind.TRANSIENT, 500, "boom")] * 3
    report = deliverer(store, sender, clock).deliver(48)
    assert (report.sent, report.pushes, report.failed) == (0, 3, 1)


def test_five_transient_failures_park_the_batch_until_line_accepts_again(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one")
    sender.script = [PushResult(Kind.TRANSIENT, 503, "down")] * 5
    run = deliverer(store, sender, clock)
    while len(sender.pushes) < 5:
        run.deliver(48)
        clock.advance(120)
    assert states(store) == {ids[0]: "stuck"}
    assert "by itself" in error_of(store, ids[0])
    clock.advance(300)  # the parked batch's probe is due
    assert run.deliver(48).sent == 1 and states(store) == {ids[0]: "sent"}


def test_a_rejected_listing_is_found_by_splitting_and_the_others_go_out(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "fine 1", "fine 2", "BAD", "fine 3")
    sender.reject_title = "BAD"
    report = deliverer(store, sender, clock).deliver(48)
    assert report.sent == 3
    assert states(store) == {ids[0]: "sent", ids[1]: "sent", ids[2]: "stuck", ids[3]: "sent"}
    assert "May not be empty" in error_of(store, ids[2])


def test_the_monthly_limit_burns_no_attempt_and_stops_delivery(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one", "two")
    sender.script = [PushResult(Kind.QUOTA, 429, MONTHLY_LIMIT_MESSAGE)]
    report = deliverer(store, sender, clock).deliver(48)
    assert report.sent == 0 and "monthly message limit" in (report.stopped or "")
    assert states(store) == dict.fromkeys(ids, "pending")
    again = store.outbox.claim_new("w", "next", 10, clock())
    assert [c.attempts for c in again] == [0, 0]  # nothing burned, a fresh key


def test_a_rejected_token_stops_delivery_with_a_sentence_to_act_on(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one")
    sender.script = [answers.result(401, "Authentication failed")]  # as LINE says it
    report = deliverer(store, sender, clock).deliver(48)
    assert report.stopped and "LINE_CHANNEL_ACCESS_TOKEN" in report.stopped
    assert states(store) == {ids[0]: "stuck"}
    assert "hunter retry --all" in error_of(store, ids[0])


def test_a_batch_past_lines_retry_window_is_not_resent(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one")
    store.outbox.claim_new("dead worker", "old-key", 10, T0)  # claimed, then the worker died
    clock.advance(25 * 3600)
    report = deliverer(store, sender, clock).deliver(48)
    assert sender.pushes == [] and report.sent == 0
    assert states(store) == {ids[0]: "stuck"}
    assert "delivery unknown" in error_of(store, ids[0])


def test_a_lapsed_lease_is_resent_with_the_stored_key(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    waiting(store, "one")
    store.outbox.claim_new("dead worker", "kept-key", 10, T0)
    store.outbox.save_batch("kept-key", '[{"type": "text", "text": "as first sent"}]', T0)
    clock.advance(61)  # past lease_seconds
    assert deliverer(store, sender, clock).deliver(48).sent == 1
    assert sender.pushes == [("kept-key", [{"type": "text", "text": "as first sent"}])]


def test_the_cap_holds_back_the_rest_and_says_so(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    waiting(store, *(f"job {n}" for n in range(5)))
    report = deliverer(store, sender, clock).deliver(2)
    assert report.sent == 2
    [(_key, messages)] = sender.pushes
    assert messages[-1]["text"].startswith("3 more new listings wait")


def test_when_others_spent_the_month_the_warning_goes_out_from_the_reserve(
    store: SQLiteStore, sender: ScriptedSender, clock: Clock
) -> None:
    ids = waiting(store, "one")
    sender.quota_answer = (200, 190)  # someone else used the channel: only the reserve is left
    first = deliverer(store, sender, clock).deliver(48)
    assert (first.sent, first.held) == (0, 1)  # the listing waits: the pace has nothing left
    notices = [k for k in store.outbox.job_states() if k.startswith("hunter:quota")]
    assert len(notices) == 1
    second = deliverer(store, sender, clock).deliver(48)  # the notice spends the reserve
    assert (second.sent, second.pushes) == (2, 1)  # and carries the waiting listing with it
    assert states(store) == dict.fromkeys([*ids, *notices], "sent")
    assert [k for k in store.outbox.job_states() if k.startswith("hunter:quota")] == notices


def test_a_failed_push_of_one_listing_is_said_in_good_english(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A new user's find: "1 listing wait (retry): ..."."""
    from hunter.deliver.deliverer import _log_failed
    from hunter.deliver.outcome import Decision
    from hunter.store.states import RowStatus

    caplog.set_level(logging.WARNING)
    for count in (1, 2):
        _log_failed(count, Decision(RowStatus.RETRY, error="attempt 1 failed: a 500"))
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "1 listing waits (retry): attempt 1 failed: a 500",
        "2 listings wait (retry): attempt 1 failed: a 500",
    ]
