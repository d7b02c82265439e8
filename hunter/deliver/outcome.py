"""What a push's outcome means for its rows: pure decisions, no I/O, tested with tables.

    permanent  4xx other than 408 and 429: LINE will never accept this request as it is
    auth       401/403, a permanent failure whose fix is the token or the channel, not the row
    quota      429 "You have reached your monthly limit.": wait, burn no attempts
    transient  5xx, 408, other 429s, timeouts, connection resets: try again later
    gone       the chat is not there for the bot (Telegram's 403 "bot was blocked"): its
               rows wait, unsent, and the owner is told once

A channel without a retry key (Telegram) cannot be asked again safely when its answer was
lost: such a batch is "delivery unknown", stuck for a person, never sent twice.

Transient failures back off 1 s, 5 s, 30 s, 120 s; the fifth (one attempt per backoff step)
parks the batch as `stuck` (so one bad batch never clogs the rest) with a probe every 300 s,
and LINE's next success re-queues every parked batch: an outage loses nothing and needs no
person.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Final, Literal

from hunter.store.records import Failure
from hunter.store.states import ErrorKind, RowStatus

# The waits after the 1st..nth failed attempt; the nth failure parks the batch, and the last
# wait paces the probes of a parked batch. The number of attempts is the number of steps.
BACKOFF_SECONDS = (1.0, 5.0, 30.0, 120.0, 300.0)
MAX_ATTEMPTS = len(BACKOFF_SECONDS)
RETRY_KEY_WINDOW_SECONDS = 24 * 3600 - 600  # LINE keeps a retry key for 24 h; keep a margin
MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit."


class Kind(Enum):
    SENT = "sent"
    REJECTED = "rejected"  # 400: something in the request; split the batch to find it
    AUTH = "auth"
    PERMANENT = "permanent"
    QUOTA = "quota"
    TRANSIENT = "transient"
    GONE = "gone"


@dataclass(frozen=True)
class PushResult:
    """What one push request came to."""

    kind: Kind
    status: int | None = None  # HTTP status, None when no answer arrived
    detail: str = ""  # LINE's own words, or what went wrong on the way
    retry_after: float | None = None
    # No answer, yet the request may have reached LINE (a timeout or a reset after it left).
    # A push is resent under its retry key, which LINE dedupes; a reply has no such key.
    maybe_delivered: bool = False
    fix: str = ""  # for an auth failure: what to do, in the channel's own words

    @property
    def summary(self) -> str:
        head = f"HTTP {self.status}" if self.status else "no answer"
        return f"{head}: {self.detail}" if self.detail else head


def classify(status: int | None, message: str = "") -> Kind:
    """The kind of a push outcome from LINE's status code and error message."""
    if status is None:
        return Kind.TRANSIENT
    if 200 <= status < 300 or status == 409:  # 409: this retry key was already accepted
        return Kind.SENT
    if status == 429 and MONTHLY_LIMIT_MESSAGE.lower() in message.lower():
        return Kind.QUOTA
    if status in (408, 429) or status >= 500:
        return Kind.TRANSIENT
    if status in (401, 403):
        return Kind.AUTH
    if status == 400:
        return Kind.REJECTED
    return Kind.PERMANENT


def backoff(failed_attempts: int, steps: tuple[float, ...] = BACKOFF_SECONDS) -> float:
    """Seconds to wait after the n-th failed attempt (1-based); the last step repeats."""
    index = min(max(failed_attempts, 1), len(steps)) - 1
    return steps[index]


SPLIT: Final = "split"  # not a row state: the batch is cut in two, each half due now


@dataclass(frozen=True)
class Decision:
    """What to do with a batch's rows after a push."""

    status: RowStatus | Literal["split"]  # sent, retry, stuck, pending, or split
    error_kind: ErrorKind | None = None
    delay: float = 0.0  # until the next attempt (retry, or the probe of a parked batch)
    count_attempt: bool = False
    error: str | None = None
    stop_delivery: bool = False  # the same answer would meet every other batch this poll


def decide(
    result: PushResult,
    attempts_before: int,
    batch_size: int,
    steps: tuple[float, ...] = BACKOFF_SECONDS,
    dedupes: bool = True,
) -> Decision:
    """The rows' next state after `result`, given how many attempts had already failed.
    `steps` are the waits after each failed attempt: there are as many attempts as steps,
    and the last one paces a parked batch. `dedupes`: the channel takes a resent batch once
    (LINE's retry key); without it, a push that may have arrived is never sent again."""
    kind = result.kind
    if kind is Kind.SENT:
        return Decision(RowStatus.SENT)
    if kind is Kind.GONE:
        return Decision(RowStatus.PENDING, error=f"the chat is gone: {result.detail}")
    if result.maybe_delivered and not dedupes:
        return unconfirmed(result)
    if kind is Kind.QUOTA:
        return Decision(
            RowStatus.PENDING,
            error="LINE's monthly message limit is reached; waiting for it to reset or be raised",
            stop_delivery=True,
        )
    if kind is Kind.REJECTED and batch_size > 1:
        return Decision(SPLIT)
    if kind is Kind.REJECTED:
        return _permanent(f"LINE rejected this listing: {result.detail}")
    if kind is Kind.AUTH:
        return _permanent(result.fix or auth_sentence(result), stop_delivery=True)
    if kind is Kind.PERMANENT:
        return _permanent(f"LINE refused it ({result.summary})")
    failed = attempts_before + 1
    retry_after = result.retry_after or 0.0
    # Parked batches are re-queued with their attempts counted from 0; a channel without a
    # retry key tells an unanswered attempt by its count (deliverer.py), so its batches
    # are never parked: they retry at the last step's pace instead.
    if failed >= len(steps) and dedupes:
        return Decision(
            RowStatus.STUCK,
            ErrorKind.TRANSIENT,
            delay=max(steps[-1], retry_after),
            count_attempt=True,
            error=f"LINE failed {failed} times (last: {result.summary}); it is sent again by "
            "itself once LINE accepts a push",
            stop_delivery=True,
        )
    return Decision(
        RowStatus.RETRY,
        ErrorKind.TRANSIENT,
        delay=max(backoff(failed, steps), retry_after),  # the last step repeats
        count_attempt=True,
        error=f"attempt {failed} failed: {result.summary}",
        stop_delivery=result.status == 429,
    )


def _permanent(error: str, stop_delivery: bool = False) -> Decision:
    return Decision(RowStatus.STUCK, ErrorKind.PERMANENT, error=error, stop_delivery=stop_delivery)


def key_expired() -> Decision:
    """A batch whose retry key LINE no longer remembers: resending could deliver it twice,
    so it waits for a person."""
    return Decision(RowStatus.STUCK, ErrorKind.UNKNOWN, error=DELIVERY_UNKNOWN)


def chat_removed(chat: str) -> Decision:
    """Rows of a chat no longer in hunter.toml, met waiting to be sent again: held where a
    person sees them, never pushed to another chat (which had those listings already)."""
    return Decision(
        RowStatus.STUCK,
        ErrorKind.PERMANENT,
        error=f"chat {chat!r} is no longer in hunter.toml: held, never sent elsewhere; put it "
        "back and `hunter retry JOB_ID`, or leave it to be pruned",
    )


# The key of a batch a reply carries ("งานใหม่"). Replies have no retry key, so this one is
# never sent to LINE: it marks the batch as a reply's, in case its worker dies mid-reply.
REPLY_KEY = "reply-"


def reply_interrupted() -> Decision:
    """A batch a reply was carrying when its worker died (kill -9, an out-of-memory kill):
    LINE may have shown it, and a push could show it twice, so it waits for a person."""
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error="delivery unknown: hunter stopped while a reply carried it, so it may or may not "
        "have arrived; `hunter retry JOB_ID` sends it again",
    )


def reply_unanswered(result: PushResult) -> Decision:
    """A reply that may have reached LINE but was never answered. Replies carry no retry key,
    so sending its listings again could show them twice: they wait for a person."""
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error="delivery unknown: LINE never answered the reply that carried it "
        f"({result.summary}), so it may or may not have arrived; `hunter retry JOB_ID` sends "
        "it again",
    )


def unconfirmed(result: PushResult | None = None) -> Decision:
    """A push of a channel without a retry key that may have arrived: its answer was lost, or
    hunter stopped while it was on its way. Sending it again could show it twice, so it waits
    for a person, visible and retryable."""
    why = f"no answer came ({result.summary})" if result else "hunter stopped while it was sent"
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error=f"delivery unknown: {why}, so it may or may not have arrived, and this channel "
        "has no retry key to send it again safely; `hunter retry JOB_ID` sends it again",
    )


def auth_sentence(result: PushResult) -> str:
    if result.status == 401:
        return (
            "LINE rejected the channel access token: check LINE_CHANNEL_ACCESS_TOKEN (a long-lived "
            "token of a Messaging API channel), then run `hunter retry --all`"
        )
    return (
        f"LINE refused to push with this channel ({result.detail or 'forbidden'}): check that "
        "LINE_TO has added the bot as a friend (or the bot is in the group) and that the plan "
        "allows push messages, then run `hunter retry --all`"
    )


DELIVERY_UNKNOWN = (
    "delivery unknown: LINE never confirmed this push within its 24 h retry window, so it may or "
    "may not have arrived; `hunter retry JOB_ID` sends it again"
)


def failure_of(decision: Decision, now: datetime) -> Failure:
    """The rows' outcome, as the store writes it, of a failed push's decision."""
    if decision.status not in (RowStatus.RETRY, RowStatus.STUCK, RowStatus.PENDING):
        raise ValueError(f"{decision.status} is not the outcome of a failed push")
    return Failure(
        status=RowStatus(decision.status),
        error_kind=decision.error_kind,
        error=decision.error,
        next_at=now + timedelta(seconds=decision.delay) if decision.delay else None,
        count_attempt=decision.count_attempt,
    )
