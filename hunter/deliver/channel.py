"""The channel port: what delivery and the chat ask of wherever alerts go, and nothing
about how, nor which channels there are.

A channel renders a batch of listings as it shows them, delivers it to one recipient and says
what happened (a `PushResult`, in the channel's own words: delivered, refused for good, try
later, or unknown), says what a recipient id is (a `Recipient`: a person or a group, and
whether one push costs one message per member), how long it honours a retry key, and reads its
monthly quota where it has one. The adapters are the folders of hunter/channels/, listed by
its registry; app/ builds one `Channels` router from them, which is itself a channel (as
httpx's `Mounts` is a transport): delivery, the pace and the outbox never ask which is which.

A channel with a chat turns what people do there into `ChatEvent`s, and answers them as a
`Replier`: hunter/chat/ sees nothing else of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from hunter.deliver.outcome import PushResult
from hunter.rules.listing import Listing

T = TypeVar("T")


@dataclass(frozen=True)
class Recipient:
    """What a channel says of one recipient id, for the words and the costs of the rest."""

    channel: str  # the channel's name, as people read it in status lines and errors
    kind: str  # "user", "group", "room", "Telegram group", "Discord webhook", ...
    group: bool = False  # many people read what is said there
    per_member: bool = False  # one push costs one message for each member (read by `members`)
    # Whether the channel is asked (`members`, at most daily) whether the recipient is still
    # there; one it said was gone waits, unpushed, until then.
    asked: bool = False
    # What is kept of the recipient (its members, gone) is kept under this address; "" is
    # `to` itself. A channel whose `to` can point at a new endpoint (Discord's new webhook)
    # gives each endpoint its own, so that an old one's "gone" is not held against it.
    address: str = ""


class Channel(Protocol):
    """Where alerts go. `push` never raises for a failed delivery: it returns what happened."""

    name: str
    max_per_push: int  # listings one push carries at most
    # Listings one digest carries (a subscriber with many waiting gets one message of them,
    # a line each); 0: the channel has none, and every batch is max_per_push cards.
    digest_max: int
    paced: bool  # pushes spend a monthly quota: the pace spreads them
    dedupes: bool  # a batch resent under its retry key shows once
    # How long the channel honours a batch's retry key, in seconds; a batch unconfirmed past
    # it may or may not have arrived. None: no retry key (and no window).
    retry_window: float | None
    # It can change a message it sent (its push answers the message's id, PushResult.ref):
    # an alert gains "also on <board>" when a later copy of its job is merged into it.
    edits: bool

    def recipient(self, to: str | None) -> Recipient:
        """What `to` is (None: the channel's own recipient)."""
        ...

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        """A batch as this channel shows it: the listings' cards (with the buttons a chat
        can answer when `actions`), then `note`. The deliverer keeps what this returns and
        sends it again, identical, on every retry."""
        ...

    def digest(self, listings: Sequence[Listing], note: str | None) -> list[dict[str, Any]]:
        """Up to `digest_max` listings as one message, a line each with its link, then
        `note`; kept and resent, identical, as a render is."""
        ...

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        """Deliver `messages` (a batch as the renderer made it) under `retry_key`, to the
        chat `to` (None: the channel's own, LINE_TO)."""
        ...

    def edit(self, messages: list[dict[str, Any]], ref: str, to: str | None = None) -> PushResult:
        """Make message `ref` (as the push's answer named it) in the chat `to` show
        `messages` (rendered as a push is) instead; never raises, as push."""
        ...

    def members(self, to: str) -> int:
        """How many recipients one push to `to` has: LINE counts one message for each.
        Raises LineError when the channel cannot tell, ChatGone when `to` is gone."""
        ...

    def quota(self) -> tuple[int | None, int] | None:
        """(this month's message limit, None when unlimited; messages used), or None when
        the channel has no quota. Raises LineError when it cannot tell."""
        ...


def rendered(
    channel: Channel, listings: Sequence[Listing], note: str | None, actions: bool
) -> list[dict[str, Any]]:
    """A batch as its push carries it, and as an edit of it renders it again: more listings
    than one push carries are a subscriber's digest (turns.py), else the cards."""
    if len(listings) > channel.max_per_push:
        return channel.digest(listings, note)
    return channel.render(listings, note, actions)


@dataclass(frozen=True)
class ByPrefix(Generic[T]):
    """Each recipient's channel (to push, or to answer in its chat): one whose id starts with
    a prefix of `others` goes there, any other to `default` (the channel whose ids have no
    prefix)."""

    default: T
    others: Mapping[str, T] = field(default_factory=dict)

    def of(self, to: str | None) -> T:
        for prefix, channel in self.others.items():
            if to is not None and to.startswith(prefix):
                return channel
        return self.default


class Channels:
    """Every channel alerts go through, by recipient id: a router that is itself a channel for
    what names its recipient (push, members, recipient), and says per recipient what the rest
    depends on (`of`, and whether its chat answers buttons: `actions`). Built once in app/."""

    def __init__(
        self,
        default: Channel,
        others: Mapping[str, Channel] | None = None,
        answering: Mapping[str, bool] | None = None,
    ) -> None:
        """`others` by the prefix of their ids; `answering`: the channels (by name) whose chat
        answers a card's buttons, so that their cards carry them."""
        self.route = ByPrefix[Channel](default, dict(others or {}))
        self.answering = dict(answering or {})

    @property
    def default(self) -> Channel:
        return self.route.default

    @property
    def all(self) -> list[Channel]:
        return [self.route.default, *self.route.others.values()]

    @property
    def name(self) -> str:
        return " and ".join(channel.name for channel in self.all)

    def of(self, to: str | None) -> Channel:
        return self.route.of(to)

    def reaches(self, to: str | None) -> bool:
        """Whether a push to `to` reaches anyone: not where no channel is set yet on a host
        (channels/unset.py), whose alerts wait for one, unclaimed."""
        return getattr(self.of(to), "reaches", True) is not False

    def waiting(self) -> str | None:
        """Why alerts wait for a channel, in words naming what to set; None when every chat's
        channel reaches it."""
        unset = [c for c in self.all if getattr(c, "reaches", True) is False]
        return str(getattr(unset[0], "why", "")) or None if unset else None

    def actions(self, to: str | None) -> bool:
        return self.answering.get(self.of(to).name, False)

    def recipient(self, to: str | None) -> Recipient:
        return self.of(to).recipient(to)

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        return self.of(to).push(messages, retry_key, to)

    def edit(self, messages: list[dict[str, Any]], ref: str, to: str | None = None) -> PushResult:
        return self.of(to).edit(messages, ref, to)

    def members(self, to: str) -> int:
        return self.of(to).members(to)

    def paced(self) -> Channel:
        """The channel whose monthly quota the pace spreads (the default when none has)."""
        return next((channel for channel in self.all if channel.paced), self.default)

    @property
    def quota_name(self) -> str:
        return self.paced().name

    def quota(self) -> tuple[int | None, int] | None:
        """The paced channel's month: (its limit, None when unlimited; messages used)."""
        return self.paced().quota()


@dataclass(frozen=True)
class ChatEvent:
    """One thing that happened in a chat, as hunter/chat/ uses it, whichever channel's."""

    # The same on every redelivery; it starts with its channel's prefix, as a `to` does.
    event_id: str
    kind: str  # message, tap (a button), follow, join, leave, or the channel's own name
    chat_id: str | None  # where: LINE's U.../C.../R... id, or "telegram:<chat id>"
    answer_token: str | None  # what answers it, the channel's own (LINE's reply token, ...)
    text: str = ""  # a text message's text
    data: str = ""  # what a button sent back ("<verb> <argument>", words/details.py)
    redelivery: bool = False
    at: datetime | None = None  # when it happened, by the channel's clock
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # as sent
    # Many people read every answer there (the channel's parser says; the chat asks its
    # replier for events made elsewhere).
    in_group: bool = False
    # No older than this, by the channel's clock, where it says so (a Telegram button's tap
    # carries no time, but its card does): what the inbox's 7-day memory is judged by.
    since: datetime | None = None
    # Who said it, as the channel names them (a first name, @username), where it does: shown
    # to the owner when a stranger asks to join. Never kept beyond the event.
    who: str = ""
    # Who said or tapped it: the person's id on the channel, where it says ("" when not). In
    # a group, only who started its subscription or its admins change it.
    sender: str = ""


class NotEvents(Exception):
    """A webhook body its channel would not send (not its JSON, a wrong signature): 400."""


Headers = Mapping[bytes, bytes]  # a request's headers, names lower-case


@dataclass(frozen=True)
class Webhook:
    """A chat's webhook as its channel declares it. hunter/chat/hooks.py serves it on the HTTP
    side: `admit` judges the head alone (a status and why refuses it, before the body is
    read), and `events` reads the body (raising NotEvents for a 400)."""

    channel: str  # the channel's name, for the log
    path: str  # "/<name>/webhook"
    admit: Callable[[Headers], tuple[int, str] | None]
    events: Callable[[bytes, Headers], list[ChatEvent]]


@dataclass(frozen=True)
class ChatWords:
    """What differs in what the chat says from one channel to another."""

    help: str  # the commands, as this channel's people type them
    more: str  # n more wait, and how to ask for them: "{n}" is how many
    add: str  # how its owner makes a chat a recipient; "{id}" is the chat's id


class Replier(Protocol):
    """A channel that answers people in its chat: LINE by a reply (free, once per token),
    Telegram by a message to the chat."""

    name: str
    max_per_push: int  # listings one answer carries at most, as a push
    max_recent: int  # the last ones sent, shown again when nothing waits
    words: ChatWords

    def recipient(self, to: str | None) -> Recipient: ...

    def restore(self, payload: object) -> ChatEvent | None:
        """An event of this channel's that the inbox kept, read back; None when the kept
        JSON is another channel's."""
        ...

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

    def acknowledge(self, event: ChatEvent) -> None:
        """Tell the channel an event was seen and gets no answer, where it waits for that (a
        tapped button's spinner); never raises."""
        ...

    def is_admin(self, chat_id: str, sender: str) -> bool:
        """Whether `sender` (a ChatEvent's) runs the group `chat_id`, as its channel says
        (Telegram's getChatMember: its creator or an administrator); False where the channel
        cannot say, or cannot be asked now."""
        ...

    def quota(self) -> tuple[int | None, int] | None: ...
