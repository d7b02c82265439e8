"""Where alerts go: one folder per channel (line/: LINE's Messaging API with line-bot-sdk,
the only folder that imports it) and the terminal (terminal.py), each an adapter of the port
in hunter/deliver/channel.py. `open_channel` is their registration: which one the
environment asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hunter.deliver.channel import Channel
from hunter.settings.environment import Environment

if TYPE_CHECKING:  # the SDK behind it costs 70-80 MB: imported on the first call to LINE
    from hunter.channels.line.push import LineSender


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


__all__ = ["Channel", "line_channel", "open_channel"]
