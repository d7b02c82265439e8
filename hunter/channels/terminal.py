"""Alerts printed to the terminal: what hunter does when no LINE channel is configured.

It prints what LINE would show of each message: a card's lines and its link, a text as is.
"""

from __future__ import annotations

import sys
from typing import Any

from hunter.channels.line.render import LineCards, plain_lines
from hunter.deliver.channel import Recipient
from hunter.deliver.outcome import Kind, PushResult


class TerminalSender(LineCards):
    """What LINE would show, as text: the same cards, rendered as LINE's are."""

    name = "terminal"
    retry_window: float | None = None  # nothing to resend, nothing to forget

    def recipient(self, to: str | None) -> Recipient:
        return Recipient(self.name, "terminal")

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        try:
            if to is not None:
                print(f"-- to {to}", file=sys.stdout, flush=True)
            for line in plain_lines(messages):
                print(line, file=sys.stdout, flush=True)
        except (BrokenPipeError, ValueError):  # nobody reads it (`| head` ended): not shown
            return PushResult(Kind.TRANSIENT, None, "the terminal's reader has gone")
        return PushResult(Kind.SENT, None)

    def members(self, to: str) -> int:
        return 1

    def quota(self) -> None:
        return None
