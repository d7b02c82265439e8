"""What one channel declares of itself, once, in its folder's __init__.py (`KIND`): what the
rest of hunter asks of a channel beyond the port (hunter/deliver/channel.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hunter.deliver.channel import Channel, Replier, Webhook
from hunter.rules.destinations import ChatConfig

# Its settings from the environment (checked; secrets registered), given the [[chats]] on it.
Read = Callable[[Mapping[str, str], Sequence[ChatConfig]], Any]
# The channel to push with, from its settings, the [[chats]] on it, whether there are
# [[chats]] at all, and the push deadline; None when it is not in use.
Open = Callable[[Any, Sequence[ChatConfig], bool, float | None], Channel | None]
# Its chat, when its settings turn it on: who answers, and the webhook it answers.
Chat = Callable[[Any, float | None], tuple[Replier, Webhook] | None]


def _no_chat(settings: Any, deadline: float | None) -> None:
    return None


@dataclass(frozen=True)
class ChannelKind:
    name: str  # as people read it: "LINE"
    prefix: str  # what its ids start with ("telegram:"); "" for the one whose ids have none
    ids: re.Pattern[str]  # a whole `to` of this channel
    ids_help: str  # how its ids read, for the error that names a wrong one
    keys: tuple[str, ...]  # the environment keys it reads
    secrets: tuple[str, ...]  # of which these are redacted everywhere
    read: Read
    open: Open
    # What a person sets to alert there, as they type it: for the line that says what is
    # missing ("LINE_CHANNEL_ACCESS_TOKEN and LINE_TO").
    needs: str = ""
    # Where its chat's webhook is called, and what turns the chat on, as a person sets it: a
    # call there while the chat is off is answered, and logged, with what to set.
    hook_path: str = ""
    hook_needs: str = ""
    chat: Chat = _no_chat
    # Strangers may join on it ([subscribers]) unless hunter.toml's `on` says
    # otherwise: a channel where a subscriber costs nothing a message.
    joins: bool = False

    @property
    def hears(self) -> bool:
        """Whether it has a chat at all (a webhook of people's messages)."""
        return self.chat is not _no_chat

    def owns(self, to: str) -> bool:
        return bool(self.ids.fullmatch(to))
