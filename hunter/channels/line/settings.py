"""LINE's keys in the environment, read and checked once; the token and the channel secret are
registered with `redact` the moment they are read.

    LINE_CHANNEL_ACCESS_TOKEN   pushes, replies, the quota (a long-lived channel access token)
    LINE_TO                     the owner's chat: a user, group or room id (ids.py)
    LINE_CHANNEL_SECRET         signs LINE's webhook calls: the chat is on with it
    HUNTER_LINE_API_URL         LINE's API address (tests, a proxy)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hunter import redact
from hunter.channels.line.ids import ID
from hunter.errors import ConfigError
from hunter.settings.environment import api_url

KEYS = ("LINE_CHANNEL_ACCESS_TOKEN", "LINE_TO", "LINE_CHANNEL_SECRET", "HUNTER_LINE_API_URL")
SECRETS = ("LINE_CHANNEL_ACCESS_TOKEN", "LINE_CHANNEL_SECRET")


@dataclass(frozen=True)
class LineSettings:
    # repr=False: printing the settings (a debugger, a stray log line) shows no secret.
    token: str | None = field(default=None, repr=False)
    to: str | None = None
    secret: str | None = field(default=None, repr=False)  # signs LINE's webhook calls
    api_url: str = "https://api.line.me"

    @property
    def configured(self) -> bool:
        """Alerts go to LINE_TO."""
        return bool(self.token and self.to)

    @property
    def chat(self) -> bool:
        """LINE may call hunter: replies need the token, signatures the secret."""
        return bool(self.token and self.secret)


def _what_is_wrong(to: str) -> str:
    """What a LINE_TO that is no ID looks like, in words (it is no secret, but never quoted
    whole: a person may paste a token there)."""
    if to[:1] in "UCR" and all(c in "0123456789abcdef" for c in to[1:].lower()):
        if len(to) == 33:  # the letters' case: LINE writes its IDs in lower case
            return "has capital letters where LINE's IDs have none: copy it as LINE shows it"
        return (
            f"has {len(to)} characters where an ID has 33 (U, C or R and 32 hex digits): "
            "copy it whole"
        )
    if to[:1] in "UCR" and len(to) >= 30 and any(c.isspace() for c in to):
        return (
            "has a space inside where an ID has none (U, C or R and 32 hex digits): copy it whole"
        )
    return (
        "must be a user, group or room ID (33 characters starting with U, C or R), not a "
        "display name"
    )


def read(environ: Mapping[str, str], chats: bool = False) -> LineSettings:
    """LINE's settings from `environ`; `chats`: hunter.toml puts a chat on LINE (a group's
    [[chats]]), whose alerts need the token without LINE_TO (channels.md)."""
    token = environ.get("LINE_CHANNEL_ACCESS_TOKEN") or None
    secret = environ.get("LINE_CHANNEL_SECRET") or None
    redact.register(token, secret)
    to = environ.get("LINE_TO") or None
    if secret and not token:
        raise ConfigError(
            "LINE_CHANNEL_SECRET is set but LINE_CHANNEL_ACCESS_TOKEN is not; the chat's replies "
            "need the token: set it too"
        )
    # A token without LINE_TO is allowed with the webhook's secret: the bot then tells whoever
    # adds it their chat id, which is how a user finds the LINE_TO to set.
    if token and not to and not secret and not chats:  # where to find it (a new user's find)
        raise ConfigError(
            "LINE_TO is not set; LINE needs both LINE_CHANNEL_ACCESS_TOKEN and LINE_TO: your "
            "user ID (U and 32 hex digits) is on the LINE Developers console, Basic settings, "
            "or set LINE_CHANNEL_SECRET too and the bot tells whoever adds it their id"
        )
    if to and not token and not secret:
        raise ConfigError(
            "LINE_CHANNEL_ACCESS_TOKEN is not set; LINE needs both LINE_CHANNEL_ACCESS_TOKEN "
            "and LINE_TO"
        )
    if to and not ID.fullmatch(to):  # as a [[chats]]'s `to` is (a new user's: LINE refused
        # every push as "the property, 'to', is invalid", each listing stuck in turn)
        raise ConfigError(f"LINE_TO {_what_is_wrong(to)}; see docs/channels.md, LINE")
    url = api_url(environ, "HUNTER_LINE_API_URL", "https://api.line.me")
    return LineSettings(token, to, secret, url)
