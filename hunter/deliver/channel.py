"""The channel port: what delivery and the chat ask of wherever alerts go, and nothing
about how.

A channel renders a batch of listings as it shows them, delivers it to one recipient and says
what happened (a `PushResult`: delivered, refused for good, try later, or unknown), tells what
one push to a recipient costs (LINE counts one message per member of a group), and reads its
monthly quota where it has one. Adapters live in hunter/channels/ (LINE, Telegram, the
terminal); `hunter.channels.open_channel` picks the owner's from the environment, and
`hunter.channels.open_others` the channels of recipients by the prefix of their id
("telegram:"). A new channel is one adapter folder there and its line in those two: delivery,
the pace and the outbox stay as they are.

A channel with a chat (LINE's webhook, Telegram's) turns what people do there into
`ChatEvent`s, and answers them as a `Replier`: hunter/chat/ sees nothing else of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from hunter.deliver.outcome import PushResult
from hunter.rules.destinations import TELEGRAM
from hunter.rules.listing import Listing

T = TypeVar("T")


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
class ByPrefix(Generic[T]):
    """Each recipient's channel (to push, or to answer in its chat): one whose id starts with
    a prefix of `others` ("telegram:") goes there, any other to `default` (LINE, or the
    terminal)."""

    default: T
    others: Mapping[str, T] = field(default_factory=dict)

    def of(self, to: str | None) -> T:
        for prefix, channel in self.others.items():
            if to is not None and to.startswith(prefix):
                return channel
        return self.default


@dataclass(frozen=True)
class ChatEvent:
    """One thing that happened in a chat, as hunter/chat/ uses it, whichever channel's."""

    event_id: str  # the same on every redelivery (LINE's webhookEventId, "telegram:<update_id>")
    kind: str  # message, postback (a button), follow, join, leave, or the channel's own name
    chat_id: str | None  # where: LINE's U.../C.../R... id, or "telegram:<chat id>"
    reply_token: str | None  # what answers it: LINE's reply token, Telegram's callback query id
    text: str = ""  # a text message's text
    data: str = ""  # what a button sent back ("<verb> <argument>", rules/wording.py)
    redelivery: bool = False
    at: datetime | None = None  # when it happened, by the channel's clock
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # as sent

    @property
    def in_group(self) -> bool:
        """Many people read every answer: LINE's groups (C...) and multi-person chats (R...),
        Telegram's groups and supergroups (negative ids)."""
        chat = self.chat_id or ""
        return chat[:1] in ("C", "R") or chat.startswith(f"{TELEGRAM}-")


class Replier(Protocol):
    """A channel that answers people in its chat: LINE by a reply (free, once per token),
    Telegram by a message to the chat."""

    max_per_push: int  # listings one answer carries at most, as a push
    max_recent: int  # the last ones sent, shown again when nothing waits

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]: ...

    def text(self, text: str, quick: Sequence[str] = ()) -> dict[str, Any]:
        """A text message, with `quick` words offered as buttons that say them."""
        ...

    def can_answer(self, event: ChatEvent, now: datetime) -> bool:
        """Whether `event` can still be answered now."""
        ...

    def answer(self, event: ChatEvent, messages: list[dict[str, Any]]) -> PushResult:
        """Send `messages` to the chat of `event`, as the answer to it."""
        ...

    def quota(self) -> tuple[int | None, int] | None: ...
