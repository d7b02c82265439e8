"""Discord as a channel: alerts posted to a server's channel through its webhook (no chat: a
webhook only posts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hunter.channels.discord import settings
from hunter.channels.kind import ChannelKind
from hunter.deliver.channel import Channel
from hunter.redact import register_shape
from hunter.rules.destinations import ChatConfig

# A webhook's URL holds its token: hidden wherever it shows (its address kept), and named
# where it is pasted as a chat's id
register_shape(
    "a Discord webhook's URL",
    "DISCORD_WEBHOOK_<NAME>",
    r"(discord(?:app)?\.com/api/webhooks/\d+/)[\w.-]+",
)


def _open(
    hooks: Any, chats: Sequence[ChatConfig], any_chats: bool, deadline: float | None
) -> Channel | None:
    if not chats:
        return None
    from hunter.channels.discord.send import PUSH_DEADLINE_SECONDS, DiscordSender

    return DiscordSender(hooks, PUSH_DEADLINE_SECONDS if deadline is None else deadline)


KIND = ChannelKind(
    name=settings.NAME,
    prefix=settings.PREFIX,
    ids=settings.ID,
    ids_help=settings.IDS_HELP,
    keys=("DISCORD_WEBHOOK_<NAME>",),
    secrets=("DISCORD_WEBHOOK_<NAME>",),
    read=settings.read,
    open=_open,
    needs='a [[chats]] to = "discord:<name>" in hunter.toml, with DISCORD_WEBHOOK_<NAME>',
)
