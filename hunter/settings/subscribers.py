"""The [subscribers] table of hunter.toml: whether strangers may join from their
chat, and the limits each of them, and all of them, live within.

[subscribers]
join = "approve"        # "closed" (the default: only hunter.toml's chats), "approve" (the
                        # owner taps Approve first) or "open" (anyone who presses Start)
on = ["telegram"]       # the channels strangers join on; by default those that cost nothing
                        # a message (a LINE friend costs a share of LINE's month)
max = 500               # chats in, or waiting for the owner, at most
max_keywords = 50       # keywords one subscriber keeps
messages_per_day = 50   # listings one subscriber is sent a day; the rest wait for tomorrow
commands_per_minute = 20  # commands one subscriber (or stranger) gets answered a minute
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hunter.errors import ConfigError
from hunter.settings.keys import SUBSCRIBERS
from hunter.settings.toml_tables import reject_unknown

JOIN = ("closed", "approve", "open")
# (default, least, most) of each number: the most is what one $5 instance carries (bench/).
LIMITS = {
    key.name: (int(key.default), int(key.least), int(key.most))  # type: ignore[call-overload]
    for key in SUBSCRIBERS
    if key.least is not None and key.most is not None
}
_KEYS = {key.name for key in SUBSCRIBERS}


@dataclass(frozen=True)
class SubscribersConfig:
    join: str = "closed"
    on: tuple[str, ...] | None = None  # None: each channel's own default (its ChannelKind)
    max: int = LIMITS["max"][0]
    max_keywords: int = LIMITS["max_keywords"][0]
    messages_per_day: int = LIMITS["messages_per_day"][0]
    # Commands one chat not in hunter.toml (a subscriber, a stranger) gets answered a minute;
    # the rest are skipped, and it is told so once a minute.
    commands_per_minute: int = LIMITS["commands_per_minute"][0]

    @property
    def open(self) -> bool:
        """Whether strangers may join at all (with the owner's approval or without)."""
        return self.join != "closed"

    @property
    def asks(self) -> bool:
        """Whether a stranger waits for the owner's Approve."""
        return self.join == "approve"


def parse_subscribers(raw: Any, where: str) -> SubscribersConfig:
    if raw is None:
        return SubscribersConfig()
    at = f"{where} [subscribers]"
    reject_unknown(raw, _KEYS, at, table="[subscribers]")
    assert isinstance(raw, Mapping)
    join = raw.get("join", "closed")
    if join not in JOIN:
        raise ConfigError(f'{at}: join must be "closed", "approve" or "open", got {join!r}')
    on = raw.get("on")
    if on is not None and (
        not isinstance(on, list) or not on or not all(isinstance(c, str) and c for c in on)
    ):
        # Which names are channels is the channels' business, checked when they open.
        raise ConfigError(f"{at}: on must be a list of channel names, got {on!r}")
    numbers = {key: _whole(raw, key, at) for key in LIMITS}
    chosen = None if on is None else tuple(dict.fromkeys(on))
    return SubscribersConfig(join=join, on=chosen, **numbers)


def _whole(raw: Mapping[str, Any], key: str, at: str) -> int:
    default, least, most = LIMITS[key]
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ConfigError(
            f"{at}: {key} must be a whole number from {least} to {most}, got {value!r}"
        )
    return value
