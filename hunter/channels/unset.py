"""No channel yet, on a host: where the terminal would stand in on a person's own machine.

Nobody reads a host's log as a chat (Render, Railway, GitHub Actions: settings/hosts.py), so
an alert printed there is lost. There, the channel whose ids have no prefix, when it is not
set, is this one: it reaches no one (`reaches` False), the deliverer claims nothing for it,
and the alerts wait, pending, until a channel is set; then each arrives once. The run's log
and the status say so, once, naming what to set.
"""

from __future__ import annotations

from typing import Any

from hunter.channels.line.render import LineCards
from hunter.deliver.channel import Recipient
from hunter.deliver.outcome import Kind, PushResult


class Unset(LineCards):
    """The place of a channel not set yet: renders as the terminal would, pushes nothing."""

    name = "no channel"
    reaches = False
    retry_window: float | None = None

    def __init__(self, why: str) -> None:
        self.why = why  # "no channel is set on Render: alerts wait ...; set ..."

    def recipient(self, to: str | None) -> Recipient:
        return Recipient(self.name, "nobody yet")

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        # Never asked by the deliverer (it claims nothing for a channel that reaches no one);
        # if it were, the batch waits without spending an attempt, as for a month's quota.
        return PushResult(Kind.QUOTA, None, self.why)

    def members(self, to: str) -> int:
        return 1

    def quota(self) -> None:
        return None
