"""Alerts printed to the terminal: what hunter does when no LINE channel is configured."""

from __future__ import annotations

import sys
from typing import Any

from hunter.line.render import plain
from hunter.listing import Listing
from hunter.policy import Kind, PushResult


class TerminalSender:
    name = "terminal"

    def push(
        self, listings: list[Listing], messages: list[dict[str, Any]], retry_key: str
    ) -> PushResult:
        for listing in listings:
            print(f"🔔 {plain(listing)}", file=sys.stdout, flush=True)
        for message in messages:
            if message.get("type") == "text":
                print(f"📣 {message['text']}", file=sys.stdout, flush=True)
        return PushResult(Kind.SENT, None)

    def quota(self) -> None:
        return None
