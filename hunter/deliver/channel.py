"""The channel port: what delivery asks of wherever alerts go, and nothing about how.

A channel renders a batch of listings as it shows them, delivers it to one recipient and says
what happened (a `PushResult`: delivered, refused for good, try later, or unknown), tells what
one push to a recipient costs (LINE counts one message per member of a group), and reads its
monthly quota where it has one. Adapters live in hunter/channels/ (LINE, Telegram, the
terminal); `hunter.channels.open_channel` picks the owner's from the environment, and
`hunter.channels.open_others` the channels of recipients by the prefix of their id
("telegram:"). A new channel is one adapter folder there and its line in those two: delivery,
the pace and the outbox stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hunter.deliver.outcome import PushResult
from hunter.rules.listing import Listing


class Channel(Protocol):
    """Where alerts go. `push` never raises for a failed delivery: it returns what happened."""

    name: str
    max_per_push: int  # listings one push carries at most
    paced: bool  # pushes spend a monthly quota: the pace spreads them (LINE's)
    dedupes: bool  # a batch resent under its retry key shows once (LINE's X-Line-Retry-Key)

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        """A batch as this channel shows it: the listings' cards (with the buttons a chat
        can answer when `actions`), then `note`. The deliverer keeps what this returns and
        sends it again, identical, on every retry."""
        ...

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        """Deliver `messages` (a batch as the renderer made it) under `retry_key`, to the
        chat `to` (None: the channel's own, LINE_TO)."""
        ...

    def members(self, to: str) -> int:
        """How many recipients one push to `to` has: LINE counts one message for each.
        Raises LineError when the channel cannot tell, ChatGone when `to` is gone."""
        ...

    def quota(self) -> tuple[int | None, int] | None:
        """(this month's message limit, None when unlimited; messages used), or None when
        the channel has no quota. Raises LineError when it cannot tell."""
        ...


@dataclass(frozen=True)
class Channels:
    """Each recipient's channel: one whose id starts with a prefix of `others` ("telegram:")
    goes there, any other to `default` (LINE, or the terminal)."""

    default: Channel
    others: Mapping[str, Channel] = field(default_factory=dict)

    def of(self, to: str | None) -> Channel:
        for prefix, channel in self.others.items():
            if to is not None and to.startswith(prefix):
                return channel
        return self.default


class Replier(Protocol):
    """A channel that answers a person's message (free on LINE, once per reply token)."""

    max_per_push: int  # listings one reply carries at most, as a push

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]: ...

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult: ...

    def quota(self) -> tuple[int | None, int] | None: ...
