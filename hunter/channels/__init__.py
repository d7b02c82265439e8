"""Where alerts go: one folder per channel (line/: LINE's Messaging API with line-bot-sdk,
the only folder that imports it; telegram/: Telegram's Bot API with httpx) and the terminal
(terminal.py), each an adapter of the port in hunter/deliver/channel.py. `open_channel` and
`open_others` are their registration: the owner's channel the environment asks for, and the
channels of [[chats]] by the prefix of their `to`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hunter.deliver.channel import Channel
from hunter.errors import ConfigError
from hunter.rules.destinations import TELEGRAM, ChatConfig, on_telegram
from hunter.settings.environment import Environment

if TYPE_CHECKING:  # the SDK behind it costs 70-80 MB: imported on the first call to LINE
    from hunter.channels.line.push import LineSender
    from hunter.channels.telegram.send import TelegramSender


def open_channel(
    env: Environment, push_deadline: float | None = None, chats: bool = False
) -> Channel:
    """LINE when LINE_CHANNEL_ACCESS_TOKEN is set with LINE_TO or [[chats]] (`chats`), else
    the terminal. A push gives up after `push_deadline` seconds (LINE's default when None)."""
    if env.line_configured or (chats and env.line_token):
        return line_channel(env, push_deadline)
    from hunter.channels.terminal import TerminalSender

    return TerminalSender()


def line_channel(env: Environment, push_deadline: float | None = None) -> LineSender:
    """LINE's channel with the environment's token, LINE_TO and API address: the one place a
    LineSender is made."""
    from hunter.channels.line.push import PUSH_DEADLINE_SECONDS, LineSender

    deadline = PUSH_DEADLINE_SECONDS if push_deadline is None else push_deadline
    return LineSender(env.line_token or "", env.line_to or "", env.line_api_url, deadline)


def open_others(
    env: Environment, chats: Sequence[ChatConfig], push_deadline: float | None = None
) -> dict[str, Channel]:
    """The channels of the [[chats]] that are not LINE's, by the prefix of their `to`: Telegram
    for "telegram:..." (TELEGRAM_BOT_TOKEN must be set)."""
    telegram = [chat for chat in chats if on_telegram(chat.to)]
    if not telegram:
        return {}
    if not env.telegram_token:
        raise ConfigError(
            f"[[chats]] {telegram[0].name!r} is a Telegram chat, and TELEGRAM_BOT_TOKEN is not "
            "set: set it to the token BotFather gave the bot"
        )
    return {TELEGRAM: telegram_channel(env, push_deadline)}


def telegram_channel(env: Environment, push_deadline: float | None = None) -> TelegramSender:
    """Telegram's channel with the environment's bot token and API address."""
    from hunter.channels.telegram.send import PUSH_DEADLINE_SECONDS, TelegramSender

    deadline = PUSH_DEADLINE_SECONDS if push_deadline is None else push_deadline
    return TelegramSender(env.telegram_token or "", env.telegram_api_url, deadline)


__all__ = ["Channel", "line_channel", "open_channel", "open_others", "telegram_channel"]
