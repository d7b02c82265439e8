"""The error policy as tables: every status code, every backoff step, the give-up boundary."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hunter.channels.line import answers
from hunter.deliver.outcome import (
    BACKOFF_SECONDS,
    MAX_ATTEMPTS,
    Decision,
    Kind,
    PushResult,
    Scope,
    backoff,
    decide,
    key_expired,
    reply_interrupted,
    reply_unanswered,
    unconfirmed,
)
from hunter.store.states import ErrorKind, RowStatus

BOT_REFUSED = PushResult(Kind.AUTH, 401, "auth", scope=Scope.CHANNEL)  # LINE, Telegram


@pytest.mark.parametrize(
    ("failed", "seconds"), [(1, 1), (2, 5), (3, 30), (4, 120), (5, 300), (9, 300), (0, 1)]
)
def test_backoff_steps(failed: int, seconds: float) -> None:
    assert backoff(failed) == seconds


def transient(status: int | None = 500) -> PushResult:
    return PushResult(Kind.TRANSIENT, status, "boom")


@pytest.mark.parametrize(
    ("attempts_before", "status", "delay"),
    [(0, "retry", 1), (1, "retry", 5), (2, "retry", 30), (3, "retry", 120), (4, "stuck", 300)],
)
def test_transient_failures_back_off_then_park(
    attempts_before: int, status: str, delay: float
) -> None:
    decision = decide(transient(), attempts_before, 3)
    assert (decision.status, decision.delay, decision.count_attempt) == (status, delay, True)
    assert decision.error_kind == "transient"


def test_parking_happens_at_max_attempts() -> None:
    assert MAX_ATTEMPTS == 5 and len(BACKOFF_SECONDS) == 5
    assert decide(transient(), MAX_ATTEMPTS - 2, 1).status == "retry"
    parked = decide(transient(), MAX_ATTEMPTS - 1, 1)
    assert parked.status == "stuck" and "by itself" in (parked.error or "")


def test_retry_after_is_honoured() -> None:
    decision = decide(PushResult(Kind.TRANSIENT, 429, "rate", retry_after=60), 0, 1)
    assert decision.delay == 60 and decision.holds is Scope.CHAT


@pytest.mark.parametrize(
    ("result", "attempts_before", "holds"),
    [
        # a chat's rate limit holds that chat alone; the channel's own limit, all its chats
        (PushResult(Kind.TRANSIENT, 429, "slow down", retry_after=7), 0, Scope.CHAT),
        (PushResult(Kind.TRANSIENT, 429, "global", scope=Scope.CHANNEL), 0, Scope.CHANNEL),
        (PushResult(Kind.QUOTA, 429, "limit"), 0, Scope.CHANNEL),
        (BOT_REFUSED, 0, Scope.CHANNEL),  # a bot's token: every chat's
        (PushResult(Kind.AUTH, 401, "webhook token"), 0, Scope.CHAT),  # one Discord webhook's
        (PushResult(Kind.TRANSIENT, 503, "down"), MAX_ATTEMPTS - 1, Scope.CHANNEL),  # parked
        # what the next push would not meet holds nothing
        (PushResult(Kind.TRANSIENT, 500, "boom"), 0, None),
        (PushResult(Kind.REJECTED, 400, "bad"), 0, None),
        (PushResult(Kind.PERMANENT, 404, "x"), 0, None),
        (PushResult(Kind.GONE, 403, "blocked"), 0, None),
    ],
)
def test_whom_a_refusal_holds(
    result: PushResult, attempts_before: int, holds: Scope | None
) -> None:
    assert decide(result, attempts_before, 1).holds is holds


@pytest.mark.parametrize(
    ("result", "size", "status", "kind", "holds"),
    [
        (PushResult(Kind.SENT, 200), 5, "sent", None, None),
        (PushResult(Kind.REJECTED, 400, "bad"), 5, "split", None, None),
        (PushResult(Kind.REJECTED, 400, "bad"), 1, "stuck", "permanent", None),
        (BOT_REFUSED, 5, "stuck", "permanent", Scope.CHANNEL),
        (replace(BOT_REFUSED, status=403), 5, "stuck", "permanent", Scope.CHANNEL),
        (PushResult(Kind.PERMANENT, 404, "x"), 5, "stuck", "permanent", None),
        (PushResult(Kind.QUOTA, 429, "limit"), 5, "pending", None, Scope.CHANNEL),
        # Telegram's 403 "bot was blocked": unsent, the rows wait with the chat kept as gone
        (PushResult(Kind.GONE, 403, "Forbidden: bot was blocked by the user"), 1, "pending",
         None, None),
    ],
)  # fmt: skip
def test_decisions(
    result: PushResult, size: int, status: str, kind: str | None, holds: Scope | None
) -> None:
    decision = decide(result, 2, size)
    assert (decision.status, decision.error_kind, decision.holds) == (status, kind, holds)
    assert decision.count_attempt is False  # only transient failures burn attempts


def test_people_read_the_reasons() -> None:
    auth = decide(answers.result(401, "Authentication failed"), 0, 1).error or ""
    assert "LINE_CHANNEL_ACCESS_TOKEN" in auth and "401" not in auth
    rejected = decide(PushResult(Kind.REJECTED, 400, "May not be empty"), 0, 1).error or ""
    assert "May not be empty" in rejected


def test_backoff_steps_can_be_configured() -> None:
    steps = (0.1, 0.2, 0.3, 0.4, 0.5)
    assert decide(transient(), 0, 1, steps).delay == 0.1
    assert decide(transient(), 3, 1, steps).delay == 0.4
    assert decide(transient(), 4, 1, steps).delay == 0.5  # the parked batch's probe


def test_there_are_as_many_attempts_as_backoff_steps() -> None:
    steps = (1.0, 2.0, 3.0)
    assert decide(transient(), 1, 1, steps).status == "retry"
    assert decide(transient(), 2, 1, steps).status == "stuck"  # the third failure parks


def test_a_channel_without_a_retry_key_never_sends_what_may_have_arrived_and_never_parks() -> None:
    """Telegram: a lost answer is "delivery unknown", stuck; an answered failure (a 500, a 429)
    is retried, past the last step at the last step's pace, never parked (a parked batch is
    re-queued with its attempts from 0, which would hide an unanswered attempt)."""
    lost = PushResult(Kind.TRANSIENT, None, "ReadTimeout", maybe_delivered=True)
    assert decide(lost, 0, 1, dedupes=False) == unconfirmed(lost)
    assert decide(lost, 0, 1).status == "retry"  # LINE: resent under its retry key
    assert decide(transient(), 9, 1, dedupes=False).status == "retry"
    assert decide(transient(), 9, 1, dedupes=False).delay == 300.0
    assert decide(transient(), 9, 1).status == "stuck"
    busy = PushResult(Kind.TRANSIENT, 429, "Too Many Requests: retry after 7", retry_after=7)
    assert decide(busy, 0, 1, dedupes=False).delay == 7 and decide(busy, 0, 1).holds is Scope.CHAT
    token = PushResult(Kind.AUTH, 401, "Unauthorized", fix="check TELEGRAM_BOT_TOKEN")
    assert decide(token, 0, 1, dedupes=False).error == "check TELEGRAM_BOT_TOKEN"


@pytest.mark.parametrize(
    ("decision", "says"),
    [
        (key_expired(), "delivery unknown"),
        (unconfirmed(), "hunter stopped while it was sent"),
        (reply_interrupted(), "hunter stopped while a reply carried it"),
        (reply_unanswered(PushResult(Kind.TRANSIENT, None, "timed out")), "timed out"),
    ],
)
def test_what_may_have_arrived_waits_for_a_person_never_a_second_send(
    decision: Decision, says: str
) -> None:
    """A retry key LINE forgot, a reply cut short by a kill, a reply never answered: each
    may have shown its listings, so each is stuck with its reason, never sent again by itself."""
    assert decision.status is RowStatus.STUCK and decision.error_kind is ErrorKind.UNKNOWN
    assert says in (decision.error or "") and "hunter retry" in (decision.error or "")


def test_an_unanswered_push_says_no_answer_once() -> None:
    """A new user's find: "delivery unknown: no answer came (no answer: no answer from
    Telegram: ... did not answer in time)"."""
    lost = PushResult(
        Kind.TRANSIENT,
        detail="no answer from Telegram: api.telegram.org did not answer in time",
        maybe_delivered=True,
    )
    assert lost.summary == "no answer from Telegram: api.telegram.org did not answer in time"
    said = str(decide(lost, 0, 1, dedupes=False, channel="Telegram").error)
    assert said.count("no answer") == 1 and "delivery unknown: no answer from Telegram" in said
    assert PushResult(Kind.TRANSIENT, 503, "busy").summary == "HTTP 503: busy"
