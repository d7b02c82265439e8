"""Telegram's keys in the environment, read and checked once; the bot token and the webhook's
secret are registered with `redact` the moment they are read.

    TELEGRAM_BOT_TOKEN        BotFather's token: alerts to [[chats]] to = "telegram:<id>"
    TELEGRAM_WEBHOOK_SECRET   the secret Telegram sends with each update: the chat is on with it
    HUNTER_TELEGRAM_API_URL   the Bot API's address (tests, a local Bot API server)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from hunter import redact
from hunter.errors import ConfigError
from hunter.settings.environment import api_url

KEYS = ("TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "HUNTER_TELEGRAM_API_URL")
SECRETS = ("TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET")


@dataclass(frozen=True)
class TelegramSettings:
    token: str | None = field(default=None, repr=False)  # BotFather's bot token
    api_url: str = "https://api.telegram.org"
    secret: str | None = field(default=None, repr=False)  # Telegram's webhook header

    @property
    def chat(self) -> bool:
        """Telegram may call hunter: answers need the token, the webhook its secret."""
        return bool(self.token and self.secret)


def read(environ: Mapping[str, str]) -> TelegramSettings:
    token = (environ.get("TELEGRAM_BOT_TOKEN") or "").strip() or None
    secret = (environ.get("TELEGRAM_WEBHOOK_SECRET") or "").strip() or None
    redact.register(token, secret)
    if token and re.fullmatch(r"bot[0-9]{1,20}:[A-Za-z0-9_-]{20,100}", token):
        raise ConfigError(  # copied from an API address: https://api.telegram.org/bot<token>/
            'TELEGRAM_BOT_TOKEN starts with "bot", as in an API address: set it to what '
            'follows "bot", the token alone (123456:ABC-...)'
        )
    if token and not re.fullmatch(r"[0-9]{1,20}:[A-Za-z0-9_-]{20,100}", token):
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN is not a bot token (BotFather gives one like 123456:ABC-...); "
            "copy it again from BotFather's /token"
        )
    _check_secret(secret, token)
    url = api_url(environ, "HUNTER_TELEGRAM_API_URL", "https://api.telegram.org")
    return TelegramSettings(token, url, secret)


def _check_secret(secret: str | None, token: str | None) -> None:
    """Telegram takes 1-256 of A-Z, a-z, 0-9, _ and - (setWebhook's secret_token); hunter asks
    for 16 at least, since the secret is all that keeps a stranger out of the chat."""
    if secret is None:
        return
    if not token:
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET is set but TELEGRAM_BOT_TOKEN is not; the chat's answers "
            "need the token: set it too"
        )
    if not re.fullmatch(r"[A-Za-z0-9_-]{16,256}", secret):
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET must be 16 to 256 of A-Z, a-z, 0-9, _ and -; make one with "
            "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
