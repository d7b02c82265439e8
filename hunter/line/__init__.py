"""LINE: alerts rendered within LINE's limits (render.py), pushed with line-bot-sdk (push.py),
or printed to the terminal when no channel is configured (terminal.py)."""

from __future__ import annotations

from typing import Any, Protocol

from hunter.environment import Environment
from hunter.policy import PushResult


class Sender(Protocol):
    """Where alerts go. `push` never raises for a failed delivery: it returns what happened."""

    name: str

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        """Deliver `messages` (a batch as render.py made it) under `retry_key`, to the chat
        `to` (None: the sender's own, LINE_TO)."""
        ...

    def members(self, to: str) -> int:
        """How many recipients one push to `to` has: LINE counts one message for each.
        Raises LineError when LINE cannot tell."""
        ...

    def quota(self) -> tuple[int | None, int] | None:
        """(this month's message limit, None when unlimited; messages used), or None when
        the sender has no quota. Raises LineError when LINE cannot tell."""
        ...


def open_sender(
    env: Environment, push_deadline: float | None = None, chats: bool = False
) -> Sender:
    """LINE when LINE_CHANNEL_ACCESS_TOKEN is set with LINE_TO or [[chats]] (`chats`), else
    the terminal. A push gives up after `push_deadline` seconds (LINE's sender's default
    when None)."""
    if env.line_configured or (chats and env.line_token):
        from hunter.line.push import PUSH_DEADLINE_SECONDS, LineSender

        deadline = PUSH_DEADLINE_SECONDS if push_deadline is None else push_deadline
        return LineSender(env.line_token or "", env.line_to or "", env.line_api_url, deadline)
    from hunter.line.terminal import TerminalSender

    return TerminalSender()


__all__ = ["Sender", "open_sender"]
