"""What a push's outcome means for its rows: pure decisions, no I/O, tested with tables.

    rejected   this request is refused (a 400): split the batch to find the listing
    permanent  the channel will never accept this request as it is
    auth       a permanent failure whose fix is the token or the channel, not the row
    quota      the channel's monthly limit is reached: wait, burn no attempts
    transient  5xx, timeouts, rate limits, connection resets: try again later
    gone       the chat is not there for the bot (blocked, removed, a deleted webhook): its
               rows wait, unsent, and the owner is told once

Each channel classifies its own answers into these kinds (its status codes and words, in its
folder under hunter/channels/) and names itself in the words a person reads here: "Telegram
rejected this listing: ...". A channel without a retry key cannot be asked again safely when
its answer was lost: such a batch is "delivery unknown", stuck for a person, never sent twice.

Transient failures back off 1 s, 5 s, 30 s, 120 s; the fifth (one attempt per backoff step)
parks the batch as `stuck` (so one bad batch never clogs the rest) with a probe every 300 s,
and the channel's next success re-queues every parked batch: an outage loses nothing and needs
no person.

A refusal that the next push would meet too holds, for the rest of a delivery, only whom it
is about (`Decision.holds`): a chat's rate limit (Telegram's 429, one Discord webhook's) holds
that chat, and every other chat is served; a limit or a failure of the channel as a whole
(LINE's monthly quota or its per-channel rate limit, a refused token, an outage that parked a
batch, Discord's global limit) holds that channel's chats, and every other channel is served.
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


class Scope(Enum):
    """Whom a refusal holds until it is over."""

    CHAT = "chat"  # this recipient alone: the channel serves its other chats
    CHANNEL = "channel"  # every recipient of this channel


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
    detail: str = ""  # the channel's own words, or what went wrong on the way
    retry_after: float | None = None
    # No answer, yet the request may have reached the channel (a timeout or a reset after it
    # left). A push is resent under its retry key where the channel dedupes; a reply has none.
    maybe_delivered: bool = False
    fix: str = ""  # for an auth failure: what to do, in the channel's own words
    # Whom a rate limit (429) is about: the chat it was sent to, or the whole channel (LINE
    # limits a channel's requests; Discord says when a limit is global).
    scope: Scope = Scope.CHAT
    ref: str | None = None  # the channel's id of the message it took, where it gives one
    # The chat is another now: its new `to` (a Telegram group that became a supergroup).
    moved_to: str | None = None

    @property
    def summary(self) -> str:
        head = f"HTTP {self.status}" if self.status else "no answer"
        if not self.status and self.detail.startswith(head):  # said once, not twice
            return self.detail
        return f"{head}: {self.detail}" if self.detail else head


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
    # The same answer would meet the next push to this chat, or to any chat of this channel:
    # they get none for the rest of this delivery (other chats and channels are served).
    holds: Scope | None = None


def decide(
    result: PushResult,
    attempts_before: int,
    batch_size: int,
    steps: tuple[float, ...] = BACKOFF_SECONDS,
    dedupes: bool = True,
    channel: str = "the channel",
) -> Decision:
    """The rows' next state after `result`, given how many attempts had already failed.
    `steps` are the waits after each failed attempt: there are as many attempts as steps,
    and the last one paces a parked batch. `dedupes`: the channel takes a resent batch once
    (under its retry key); without it, a push that may have arrived is never sent again.
    `channel` is its name, in the words a person reads."""
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
            error=f"{channel}'s monthly message limit is reached; waiting for it to reset or be "
            "raised",
            holds=Scope.CHANNEL,
        )
    if kind is Kind.REJECTED and batch_size > 1:
        return Decision(SPLIT)
    if kind is Kind.REJECTED:
        return _permanent(f"{channel} rejected this listing: {result.detail}")
    if kind is Kind.AUTH:
        fix = result.fix or f"{channel} refused the credentials ({result.summary})"
        return _permanent(fix, holds=result.scope)  # a token: the channel's, or one chat's
    if kind is Kind.PERMANENT:
        return _permanent(f"{channel} refused it ({result.summary})")
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
            error=f"{channel} failed {failed} times (last: {result.summary}); it is sent again "
            f"by itself once {channel} accepts a push",
            holds=Scope.CHANNEL,
        )
    return Decision(
        RowStatus.RETRY,
        ErrorKind.TRANSIENT,
        delay=max(backoff(failed, steps), retry_after),  # the last step repeats
        count_attempt=True,
        error=f"attempt {failed} failed: {result.summary}",
        holds=result.scope if result.status == 429 else None,
    )


def _permanent(error: str, holds: Scope | None = None) -> Decision:
    return Decision(RowStatus.STUCK, ErrorKind.PERMANENT, error=error, holds=holds)


def key_expired(channel: str = "the channel", window: float = 24 * 3600) -> Decision:
    """A batch whose retry key the channel no longer remembers (`window` seconds after it was
    made): resending could deliver it twice, so it waits for a person."""
    hours = f"{window / 3600:.0f} h"
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error=f"delivery unknown: {channel} never confirmed this push within its {hours} retry "
        "window, so it may or may not have arrived; `hunter retry JOB_ID` sends it again",
    )


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
# never sent to a channel: it marks the batch as a reply's, in case its worker dies mid-reply.
REPLY_KEY = "reply-"


def reply_interrupted() -> Decision:
    """A batch a reply was carrying when its worker died (kill -9, an out-of-memory kill):
    the channel may have shown it, and a push could show it twice, so it waits for a person."""
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error="delivery unknown: hunter stopped while a reply carried it, so it may or may not "
        "have arrived; `hunter retry JOB_ID` sends it again",
    )


def reply_unanswered(result: PushResult, channel: str = "the channel") -> Decision:
    """A reply that may have reached the channel but was never answered. Replies carry no
    retry key, so sending its listings again could show them twice: they wait for a person."""
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error=f"delivery unknown: {channel} never answered the reply that carried it "
        f"({result.summary}), so it may or may not have arrived; `hunter retry JOB_ID` sends "
        "it again",
    )


def unconfirmed(result: PushResult | None = None) -> Decision:
    """A push of a channel without a retry key that may have arrived: its answer was lost, or
    hunter stopped while it was on its way. Sending it again could show it twice, so it waits
    for a person, visible and retryable."""
    why = "hunter stopped while it was sent"
    if result is not None:  # its summary may say "no answer" already (a new user's find)
        said = result.summary
        why = said if said.startswith("no answer") else f"no answer came ({said})"
    return Decision(
        RowStatus.STUCK,
        ErrorKind.UNKNOWN,
        error=f"delivery unknown: {why}, so it may or may not have arrived, and this channel "
        "has no retry key to send it again safely; `hunter retry JOB_ID` sends it again",
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
