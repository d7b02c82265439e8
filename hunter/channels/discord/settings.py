"""Discord's recipients and keys: a `to` of Discord's is "discord:<name>", and its webhook's
URL is in the environment as DISCORD_WEBHOOK_<NAME> (upper-cased). Never in hunter.toml: the
URL holds the webhook's token, and anyone who has it can post to the channel. Every URL read
is registered with `redact`, the token on its own too.

A webhook URL is made in Discord (Server Settings -> Integrations -> Webhooks -> New Webhook ->
Copy Webhook URL) and reads https://discord.com/api/webhooks/<id>/<token>; the id is a
number (a snowflake), the token 60-80 of letters, digits, "-" and "_".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from hunter import redact
from hunter.deliver.channel import Recipient
from hunter.errors import ConfigError
from hunter.rules.destinations import ChatConfig

NAME = "Discord"
PREFIX = "discord:"
ID = re.compile(r"discord:[A-Za-z0-9_-]{1,32}")  # "design-team", as Discord names channels
IDS_HELP = '"discord:<name>" (its webhook URL in DISCORD_WEBHOOK_<NAME>)'
# Where Discord's webhooks are (its own, and its test builds'); a stand-in on this machine
# too (the tests', a person's). Another host would be sent the webhook's token: a typo's domain
HOSTS = frozenset(["discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"])
LOOPBACK = frozenset(["127.0.0.1", "localhost", "::1"])


def _not_discords(scheme: str, host: str) -> str | None:
    """Why a webhook URL's scheme and host are not Discord's, in words; None when they are
    (https at Discord, or anything on this machine)."""
    if host in LOOPBACK:
        return None
    if host not in HOSTS:
        return f"names {host[:60]!r}, not Discord (discord.com): its token would be sent there"
    if scheme != "https":
        return "is http://: its token would travel unencrypted; Discord's is https://"
    return None


HOOK_PATH = re.compile(
    r"/api(?:/v\d+)?/webhooks/(?P<id>[0-9]{1,25})/(?P<token>[A-Za-z0-9_-]{1,100})"
)


@dataclass(frozen=True)
class DiscordWebhook:
    """One webhook: where to post (its URL holds its token: never shown), and its id."""

    url: str = field(repr=False)
    id: str


def variable(to: str) -> str:
    """The environment variable that holds the webhook of `to` ("discord:team" -> ...TEAM,
    "discord:design-team" -> ...DESIGN_TEAM: a variable's name has no hyphen)."""
    return f"DISCORD_WEBHOOK_{to[len(PREFIX) :].upper().replace('-', '_')}"


def read(environ: Mapping[str, str], chats: Sequence[ChatConfig]) -> dict[str, DiscordWebhook]:
    """The webhook of each Discord chat in `chats`, by its `to`; ConfigError naming the chat
    and the variable when one is missing or not a webhook URL. Every DISCORD_WEBHOOK_* set is
    redacted, used or not."""
    for key, value in environ.items():
        if key.startswith("DISCORD_WEBHOOK_") and value:
            redact.register(value.strip())
            match = HOOK_PATH.search(value)
            if match:
                redact.register(match["token"])
    hooks: dict[str, DiscordWebhook] = {}
    for chat in chats:
        to, name = chat.to, variable(chat.to)
        url = (environ.get(name) or "").strip()
        if not url:
            raise ConfigError(
                f"{chat.said} is a Discord channel, and {name} is not set: set it "
                "to the channel's webhook URL (Server Settings -> Integrations -> Webhooks -> "
                "Copy Webhook URL)"
            )
        parts = urlsplit(url)
        match = HOOK_PATH.fullmatch(parts.path)
        if parts.scheme not in ("https", "http") or not parts.netloc or match is None:
            raise ConfigError(
                f"{name} is not a Discord webhook URL (https://discord.com/api/webhooks/<id>/"
                "<token>); copy it again from the channel's Integrations -> Webhooks"
            )
        if (problem := _not_discords(parts.scheme, parts.hostname or "")) is not None:
            raise ConfigError(f"{name} {problem}; copy it again from the channel's Webhooks")
        hook = DiscordWebhook(url.split("?", 1)[0], match["id"])
        twin = next((c for c in chats if c.to in hooks and hooks[c.to].id == hook.id), None)
        if twin is not None:
            raise ConfigError(
                f"{twin.said} and {chat.said} post to one Discord webhook (id "
                f"{hook.id}, from {' and '.join(dict.fromkeys((variable(twin.to), name)))}): "
                "each listing would reach that channel twice; keep one of the two"
            )
        hooks[to] = hook
    return hooks


def recipient(to: str | None, hooks: Mapping[str, DiscordWebhook] | None = None) -> Recipient:
    """A webhook posts to one channel of a server, read by many; a new webhook (a new URL) is
    a new address, so a deleted one's "gone" is not held against its successor."""
    hook = (hooks or {}).get(to or "")
    address = f"{to}/{hook.id}" if hook else ""
    return Recipient(NAME, "Discord channel", group=True, asked=True, address=address)
