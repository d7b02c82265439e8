"""The environment -> one validated `Environment`. Secrets live only here.

Every secret is registered with `redact` the moment it is read, so no log line or error can
show it. Which store is used: DATABASE_URL, else SUPABASE_URL, else SQLite at HUNTER_DB.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from hunter import redact
from hunter.errors import ConfigError


@dataclass(frozen=True)
class Environment:
    """What hunter reads from the environment. Secrets live here and nowhere else."""

    # repr=False: printing an Environment (a debugger, a stray log line) shows no secret.
    database_url: str | None = field(default=None, repr=False)
    sqlite_path: str = "hunter.db"
    line_token: str | None = field(default=None, repr=False)
    line_to: str | None = None
    line_secret: str | None = field(default=None, repr=False)  # signs LINE's webhook calls
    line_api_url: str = "https://api.line.me"
    supabase_url: str | None = None
    supabase_key: str | None = field(default=None, repr=False)
    telegram_token: str | None = field(default=None, repr=False)  # BotFather's bot token
    telegram_api_url: str = "https://api.telegram.org"
    telegram_secret: str | None = field(default=None, repr=False)  # Telegram's webhook header

    @property
    def line_configured(self) -> bool:
        return bool(self.line_token and self.line_to)

    @property
    def webhook_configured(self) -> bool:
        """LINE may call hunter: replies need the token, signatures the secret."""
        return bool(self.line_token and self.line_secret)

    @property
    def telegram_chat_configured(self) -> bool:
        """Telegram may call hunter: answers need the token, the webhook its secret."""
        return bool(self.telegram_token and self.telegram_secret)


def read_environment(environ: Mapping[str, str]) -> Environment:
    """The environment hunter uses, validated; secrets are registered for redaction."""
    database_url = environ.get("DATABASE_URL") or None
    token = environ.get("LINE_CHANNEL_ACCESS_TOKEN") or None
    supabase_url = (environ.get("SUPABASE_URL") or "").rstrip("/") or None
    supabase_key = environ.get("SUPABASE_SERVICE_ROLE_KEY") or environ.get("SUPABASE_KEY") or None
    secret = environ.get("LINE_CHANNEL_SECRET") or None
    telegram = (environ.get("TELEGRAM_BOT_TOKEN") or "").strip() or None
    telegram_secret = (environ.get("TELEGRAM_WEBHOOK_SECRET") or "").strip() or None
    redact.register(
        token,
        database_url,
        _password_of(database_url),
        supabase_key,
        secret,
        telegram,
        telegram_secret,
    )
    if telegram and not re.fullmatch(r"[0-9]{1,20}:[A-Za-z0-9_-]{20,100}", telegram):
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN is not a bot token (BotFather gives one like 123456:ABC-...); "
            "copy it again from BotFather's /token"
        )
    _check_telegram_secret(telegram_secret, telegram)
    if supabase_url and not database_url:
        _check_supabase(supabase_url, supabase_key)
    if database_url and not database_url.startswith(("postgres://", "postgresql://")):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:5432/db); "
            "unset it to use SQLite"
        )
    line_to = environ.get("LINE_TO") or None
    if secret and not token:
        raise ConfigError(
            "LINE_CHANNEL_SECRET is set but LINE_CHANNEL_ACCESS_TOKEN is not; the chat's replies "
            "need the token: set it too"
        )
    # A token without LINE_TO is allowed with the webhook's secret: the bot then tells whoever
    # adds it their chat id, which is how a user finds the LINE_TO to set.
    if bool(token) != bool(line_to) and not secret:
        missing = "LINE_TO" if token else "LINE_CHANNEL_ACCESS_TOKEN"
        raise ConfigError(
            f"{missing} is not set; LINE needs both LINE_CHANNEL_ACCESS_TOKEN and LINE_TO"
        )
    if line_to and not (line_to[:1] in "UCR" and len(line_to) == 33):
        raise ConfigError(
            "LINE_TO must be a user, group or room ID (33 characters starting with U, C or R), "
            "not a display name; see the README's LINE set-up"
        )
    api_url = _api_url(environ, "HUNTER_LINE_API_URL", "https://api.line.me")
    telegram_api_url = _api_url(environ, "HUNTER_TELEGRAM_API_URL", "https://api.telegram.org")
    return Environment(
        database_url=database_url,
        sqlite_path=environ.get("HUNTER_DB") or "hunter.db",
        line_token=token,
        line_to=line_to,
        line_secret=secret,
        line_api_url=api_url,
        supabase_url=supabase_url,
        supabase_key=supabase_key,
        telegram_token=telegram,
        telegram_api_url=telegram_api_url,
        telegram_secret=telegram_secret,
    )


def _check_telegram_secret(secret: str | None, token: str | None) -> None:
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
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )


def _api_url(environ: Mapping[str, str], name: str, default: str) -> str:
    """An API's base address, overridable for tests and self-hosted servers."""
    url = (environ.get(name) or default).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{name} must start with http:// or https://")
    return url


def supabase_key_role(key: str) -> str | None:
    """The role a Supabase API key acts as: new-style keys by prefix, legacy JWTs by claim."""
    if key.startswith("sb_secret_"):
        return "service_role"
    if key.startswith("sb_publishable_"):
        return "anon"
    parts = key.split(".")
    if len(parts) != 3:
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error):
        return None
    role = payload.get("role") if isinstance(payload, dict) else None
    return role if isinstance(role, str) else None


def _check_supabase(url: str, key: str | None) -> None:
    if not url.startswith(("https://", "http://")):
        raise ConfigError("SUPABASE_URL must look like https://<project>.supabase.co")
    if not key:
        raise ConfigError(
            "SUPABASE_URL is set but SUPABASE_SERVICE_ROLE_KEY is not; set it to the project's "
            "secret key (Project Settings -> API keys)"
        )
    role = supabase_key_role(key)
    if role == "service_role":
        return
    kind = (
        "a publishable (anon) key"
        if role == "anon"
        else (f"a key for the role {role!r}" if role else "not a Supabase API key")
    )
    raise ConfigError(
        f"SUPABASE_SERVICE_ROLE_KEY is {kind}: row level security would hide every row from "
        "it; use the secret key (sb_secret_..., or the legacy service_role key)"
    )


def _password_of(url: str | None) -> str | None:
    if not url or "@" not in url or "://" not in url:
        return None
    userinfo = url.split("://", 1)[1].rsplit("@", 1)[0]
    return userinfo.split(":", 1)[1] if ":" in userinfo else None


def describe_store(env: Environment) -> str:
    """Which store is in use, without secrets: for start-up lines and `hunter check`."""
    if env.database_url:
        also = "; SUPABASE_URL is set too and not used" if env.supabase_url else ""
        return f"PostgreSQL (DATABASE_URL{also})"
    if env.supabase_url:
        return f"Supabase ({env.supabase_url}, over HTTPS)"
    return f"SQLite ({os.path.abspath(env.sqlite_path)})"
