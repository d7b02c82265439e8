"""Alerts printed to the terminal: what hunter does when no LINE channel is configured.

It prints what LINE would show of each message: a card's lines and its link, a text as is.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from hunter.channels.line import render
from hunter.channels.line.render import plain_lines
from hunter.deliver.outcome import Kind, PushResult
from hunter.rules.listing import Listing


class TerminalSender:
    """What LINE would show, as text: the same cards, rendered as LINE's are."""

    name = "terminal"

    max_per_push = render.MAX_PER_PUSH

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        return render.messages(list(listings), note, actions)

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        if to is not None:
            print(f"-- to {to}", file=sys.stdout, flush=True)
        for line in plain_lines(messages):
            print(line, file=sys.stdout, flush=True)
        return PushResult(Kind.SENT, None)

    def members(self, to: str) -> int:
        return 1

    def quota(self) -> None:
        return None
