"""LINE's Messaging API as a channel: Flex cards pushed with line-bot-sdk (the only folder that
imports it), the chat's webhook and replies, the rich menu."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hunter.channels.kind import ChannelKind
from hunter.channels.line import ids, settings
from hunter.deliver.channel import Channel, Replier, Webhook
from hunter.rules.destinations import ChatConfig

if TYPE_CHECKING:  # the SDK behind it costs 70-80 MB: imported on the first call to LINE
    from hunter.channels.line.push import LineSender


def sender(line: settings.LineSettings, deadline: float | None = None) -> LineSender:
    """LINE's channel with the environment's token, LINE_TO and API address: the one place a
    LineSender is made."""
    from hunter.channels.line.push import PUSH_DEADLINE_SECONDS, LineSender

    chosen = PUSH_DEADLINE_SECONDS if deadline is None else deadline
    return LineSender(line.token or "", line.to or "", line.api_url, chosen)


def _open(
    line: Any, chats: Sequence[ChatConfig], any_chats: bool, deadline: float | None
) -> Channel | None:
    """LINE when its token is set with LINE_TO or [[chats]] (LINE's or others', whose notices
    may come to LINE_TO); else None (the terminal stands in)."""
    if line.configured or ((any_chats or chats) and line.token):
        return sender(line, deadline)
    return None


def _chat(line: Any, deadline: float | None) -> tuple[Replier, Webhook] | None:
    if not line.chat:
        return None
    from hunter.channels.line import webhook

    webhook.warm_up()  # LINE's first call must not wait 1-3 s for the SDK to import
    return sender(line, deadline), webhook.webhook(line.secret or "")


KIND = ChannelKind(
    name=ids.NAME,
    prefix="",
    ids=ids.ID,
    ids_help=ids.IDS_HELP,
    keys=settings.KEYS,
    secrets=settings.SECRETS,
    read=lambda environ, tos: settings.read(environ, bool(tos)),
    open=_open,
    needs="LINE_TO, with LINE_CHANNEL_ACCESS_TOKEN",
    hook_path=ids.HOOK_PATH,
    hook_needs="LINE_CHANNEL_SECRET (LINE Developers console -> your channel -> Basic settings "
    "-> Channel secret), with LINE_CHANNEL_ACCESS_TOKEN",
    chat=_chat,
)
