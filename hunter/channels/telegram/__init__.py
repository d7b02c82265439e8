"""Telegram's Bot API as a channel: a message per listing, the chat's webhook and answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hunter.channels.kind import ChannelKind
from hunter.channels.telegram import ids, settings
from hunter.deliver.channel import Channel, Replier, Webhook
from hunter.errors import ConfigError
from hunter.redact import register_shape
from hunter.rules.destinations import ChatConfig

# A bot token ("123456789:AAH..."), hidden wherever it shows, and named where it is pasted as a
# chat's id
register_shape("a Telegram bot token", "TELEGRAM_BOT_TOKEN", r"()\b\d{6,12}:[\w-]{30,}")

if TYPE_CHECKING:
    from hunter.channels.telegram.send import TelegramSender


def sender(telegram: settings.TelegramSettings, deadline: float | None = None) -> TelegramSender:
    """Telegram's channel with the environment's bot token and API address."""
    from hunter.channels.telegram.send import PUSH_DEADLINE_SECONDS, TelegramSender

    chosen = PUSH_DEADLINE_SECONDS if deadline is None else deadline
    return TelegramSender(telegram.token or "", telegram.api_url, chosen)


def _open(
    telegram: Any, chats: Sequence[ChatConfig], any_chats: bool, deadline: float | None
) -> Channel | None:
    if not chats:
        return None
    if not telegram.token:
        raise ConfigError(
            f"{chats[0].said} is a Telegram chat, and TELEGRAM_BOT_TOKEN is not "
            "set: set it to the token BotFather gave the bot"
        )
    return sender(telegram, deadline)


def _chat(telegram: Any, deadline: float | None) -> tuple[Replier, Webhook] | None:
    if not telegram.chat:
        return None
    from hunter.channels.telegram import updates

    return sender(telegram, deadline), updates.webhook(telegram.secret or "")


KIND = ChannelKind(
    name=ids.NAME,
    prefix=ids.PREFIX,
    ids=ids.ID,
    ids_help=ids.IDS_HELP,
    keys=settings.KEYS,
    secrets=settings.SECRETS,
    read=lambda environ, tos: settings.read(environ),
    open=_open,
    needs='owner = "telegram:<your chat id>" in hunter.toml (or a [[chats]]), with '
    "TELEGRAM_BOT_TOKEN",
    hook_path=ids.HOOK_PATH,
    hook_needs="TELEGRAM_WEBHOOK_SECRET, with TELEGRAM_BOT_TOKEN, then run `hunter telegram setup`",
    chat=_chat,
    joins=True,  # a bot's messages cost nothing (core.telegram.org/bots/faq)
)
