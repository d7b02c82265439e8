"""The [[chats]] tables of hunter.toml, read into ChatConfigs (hunter/rules/destinations.py).

[[chats]]
name = "design"                           # shown in status; part of its rows' ids
to = "C0123456789abcdef0123456789abcdef"  # a LINE user U..., group C... or room R... id,
                                          # or "telegram:<chat id>" (-100... for a group)
include = ["logo", "โลโก้"]                 # optional: else the global [filter]'s
exclude = ["unpaid"]
min_budget = 3000
sources = ["fastwork"]                    # optional: else every source
merge = false                             # optional: every copy of a job (else `merge`'s)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from hunter.errors import ConfigError
from hunter.rules.destinations import OWNER_NAMES, ChatConfig
from hunter.rules.pay import read_min_budget
from hunter.settings.keys import CHATS
from hunter.settings.toml_tables import languages, places, reject_unknown, words

_KEYS = {key.name for key in CHATS}


RECIPIENT_HELP = "the bot's welcome in that chat says its id"


def recipient(value: object) -> object:
    """A chat's id as written, without the spaces a hand or a paste puts around it and
    around its channel's prefix ("telegram: 123456789 " is "telegram:123456789")."""
    if not isinstance(value, str):
        return value
    return re.sub(r"^([a-z]+)\s*:\s*", r"\1:", value.strip())


def parse_chats(raw: Any, where: str, sources: Sequence[str]) -> tuple[ChatConfig, ...]:
    """The [[chats]] tables; a chat's filter keys read exactly as [filter]'s do."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError(f"{where}: chats must be [[chats]] tables, each with a name and a to")
    chats: list[ChatConfig] = []
    for n, table in enumerate(raw, start=1):
        at = f"{where} [[chats]] #{n}"
        reject_unknown(table, _KEYS, at, table="[[chats]]")
        chats.append(_chat(table, at, sources))
    names = [chat.name for chat in chats]
    for name in names:
        if names.count(name) > 1:
            raise ConfigError(f"{where}: two [[chats]] are named {name!r}; names must be unique")
    for n, chat in enumerate(chats, start=1):
        first = next(i for i, c in enumerate(chats, start=1) if c.to == chat.to)
        if first != n:
            raise ConfigError(
                f"{where} [[chats]] #{n} ({chat.name}): to is the same chat as [[chats]] #{first} "
                f"({chats[first - 1].name}); each listing would reach it twice (a group pays "
                "twice per member): merge the two, or remove one"
            )
    return tuple(chats)


def _chat(table: Mapping[str, Any], at: str, sources: Sequence[str]) -> ChatConfig:
    name = table.get("name")
    # ASCII only: a look-alike letter (a Cyrillic e, U+0435) would make a second name that reads as
    # the first in every status line and command.
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", name):
        raise ConfigError(
            f'{at}: name must be 1-32 of the letters A-Z and a-z, digits, "_", "-" or ".", '
            f'e.g. name = "design"; got {name!r}'
        )
    if name.upper() in {n.upper() for n in OWNER_NAMES}:  # how status and `--chat` name it
        raise ConfigError(
            f"{at}: name {name!r} is the owner's chat in status lines and commands (`hunter "
            'tuning --chat owner`); give this chat another name, e.g. name = "team"'
        )
    at = f"{at} ({name})"
    to = recipient(table.get("to"))
    # What a `to` may be is its channel's business (hunter/channels/, checked at load);
    # here only that it is one short word.
    if not isinstance(to, str) or not re.fullmatch(r"\S{1,200}", to):
        raise ConfigError(f"{at}: to must be a chat's id, got {to!r}; {RECIPIENT_HELP}")
    rules: dict[str, Any] = {}
    for key in ("include", "exclude"):
        if key in table:
            rules[key] = words(table, key, at)
    if "min_budget" in table:
        budget, floors = read_min_budget(table["min_budget"], at)
        rules.update(min_budget=budget, min_pay=floors)
    if "languages" in table:
        rules["languages"] = languages(table, "languages", at)
    if "places" in table:
        rules["places"] = places(table, "places", at)
    chosen = table.get("sources")
    if chosen is not None:
        if not isinstance(chosen, list) or not all(isinstance(s, str) for s in chosen):
            raise ConfigError(f'{at}: sources must be a list of source names, e.g. ["fastwork"]')
        unknown = [s for s in chosen if s not in sources]
        if unknown:
            raise ConfigError(
                f"{at}: no source named {unknown[0]!r}; the sources are {', '.join(sources)}"
            )
    merge = table.get("merge")
    if merge is not None and not isinstance(merge, bool):
        raise ConfigError(
            f"{at}: merge must be true (one alert per job, however many boards show it) or "
            f"false (every copy), got {merge!r}"
        )
    return ChatConfig(name, to, rules, None if chosen is None else tuple(chosen), merge)
