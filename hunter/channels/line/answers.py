"""What LINE's answers mean, as a table (developers.line.biz, Messaging API reference, "Status
codes" and "Retry failed API requests"):

    2xx                         delivered
    409                         this X-Line-Retry-Key was already accepted: delivered before
    429 "You have reached your monthly limit."   the month's quota: wait, burn no attempts
    408, other 429s, 5xx        try again later (the same request, the same retry key); a 429
                                holds every chat of the channel (LINE limits a channel's
                                requests, not a chat's: "Rate limits", per channel)
    401, 403                    the token or the channel: stuck until a person fixes it
    400                         this request is refused: the batch is split to find the listing
    other 4xx                   refused for good
    no answer                   try again: the retry key makes a second delivery show once
"""

from __future__ import annotations

from hunter.deliver.outcome import Kind, PushResult, Scope
from hunter.errors import ChannelError

NAME = "LINE"


class LineError(ChannelError):
    """LINE could not be reached or refused a check (bot info, quota, a group's members)."""


MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit."
RETRY_KEY_WINDOW_SECONDS = 24 * 3600 - 600  # LINE keeps a retry key for 24 h; keep a margin


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


def result(status: int | None, message: str, retry_after: float | None = None) -> PushResult:
    """A PushResult of LINE's answer, with the fix in LINE's words for a refused token."""
    kind = classify(status, message)
    fix = auth_fix(status, message) if kind is Kind.AUTH else ""
    return PushResult(kind, status, message, retry_after, fix=fix, scope=Scope.CHANNEL)


def auth_fix(status: int | None, detail: str) -> str:
    if status == 401:
        return (
            "LINE rejected the channel access token: check LINE_CHANNEL_ACCESS_TOKEN (a long-lived "
            "token of a Messaging API channel), then run `hunter retry --all`"
        )
    return (
        f"LINE refused to push with this channel ({detail or 'forbidden'}): check that "
        "LINE_TO has added the bot as a friend (or the bot is in the group) and that the plan "
        "allows push messages, then run `hunter retry --all`"
    )
