"""The states of an outbox row and the kinds of error a stuck or retried row carries.

One StrEnum each, used by the policy, the deliverer and every store adapter alike. The SQL
schema spells the same values in its CHECK constraint (sql/*/001_init.sql); a test checks that
the two agree, so a new state cannot be added on one side only.
"""

from __future__ import annotations

from enum import StrEnum


class RowStatus(StrEnum):
    """Where a listing's row stands: primed or ignored (seen, never sent), pending (waits to
    be claimed), sending (claimed, the push in flight, its retry key fixed), retry (a
    transient failure, tried again after next_attempt_at), sent (its channel took it), stuck
    (refused for good, five failures, or delivery unknown: `hunter retry` sends it again)."""

    PRIMED = "primed"  # seen while its source was primed; never sent
    IGNORED = "ignored"  # seen, did not match the filters
    PENDING = "pending"  # matched, waiting to be claimed
    SENDING = "sending"  # claimed by a worker, push in flight, retry key fixed
    RETRY = "retry"  # a transient failure; claimed again after next_attempt_at
    SENT = "sent"  # its channel accepted it
    STUCK = "stuck"  # waits for a person, or (transient) for its channel to accept a push again


class ErrorKind(StrEnum):
    """Why a row waits in `retry` or `stuck`."""

    TRANSIENT = "transient"  # 5xx, timeouts, rate limits: comes back by itself
    PERMANENT = "permanent"  # the channel refused this request as it is: `hunter retry`
    UNKNOWN = "unknown"  # no confirmation within the retry window (LINE's retry key: 24 h)


# Rows that are not done: what `hunter status` and /healthz count.
OUTBOX = (RowStatus.PENDING, RowStatus.SENDING, RowStatus.RETRY, RowStatus.STUCK)
