"""Where alerts go: LINE_TO (the owner's chat, with the global [filter]) and the [[chats]]
of hunter.toml, each a user, group or room with its own keywords and sources.

    [[chats]]
    name = "design"                           # shown in status; part of its rows' ids
    to = "C0123456789abcdef0123456789abcdef"  # a user U..., group C... or room R... id
    include = ["logo", "โลโก้"]                 # optional: else the global [filter]'s
    exclude = ["unpaid"]
    min_budget = 3000
    sources = ["fastwork"]                    # optional: else every source

A listing reaches each chat whose rules it matches, once per chat. LINE counts a push once
per recipient, so a group's pushes cost its members (read from LINE) and the pace budgets
messages, not pushes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hunter.errors import ConfigError
from hunter.rules.pay import floors
from hunter.settings.toml_tables import reject_unknown, words
from hunter.sources.spec import FilterConfig, SourceConfig

OWNER = ""  # the chat in LINE_TO: its rows keep the listing's own id
CHAT_ID = re.compile(r"^[UCR][0-9a-f]{32}$")  # LINE's user, group and room ids
_KEYS = {"name", "to", "include", "exclude", "min_budget", "sources"}
_FILTER_KEYS = ("include", "exclude", "min_budget")


@dataclass(frozen=True)
class ChatConfig:
    name: str
    to: str
    rules: Mapping[str, Any]  # its own include / exclude / min_budget, as written
    sources: tuple[str, ...] | None = None  # None: every source

    def filter_for(self, source: SourceConfig) -> FilterConfig:
        """The source's filter (the global one with the source's own keys), with this
        chat's keys over it."""
        return replace(source.filter, **self.rules)

    def reads(self, source: str) -> bool:
        return self.sources is None or source in self.sources

    @property
    def kind(self) -> str:
        return {"U": "user", "C": "group", "R": "room"}[self.to[0]]


def parse_chats(raw: Any, where: str, sources: Sequence[str]) -> tuple[ChatConfig, ...]:
    """The [[chats]] tables; a chat's filter keys read exactly as [filter]'s do."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError(f"{where}: chats must be [[chats]] tables, each with a name and a to")
    chats: list[ChatConfig] = []
    for n, table in enumerate(raw, start=1):
        at = f"{where} [[chats]] #{n}"
        reject_unknown(table, _KEYS, at)
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
    if not isinstance(name, str) or not re.fullmatch(r"[\w.-]{1,32}", name):
        raise ConfigError(
            f'{at}: name must be 1-32 letters, digits, "_", "-" or ".", e.g. name = "design"'
        )
    at = f"{at} ({name})"
    to = table.get("to")
    if not isinstance(to, str) or not CHAT_ID.match(to):
        raise ConfigError(
            f"{at}: to must be a LINE user (U...), group (C...) or room (R...) id of 33 "
            f"characters, got {to!r}; the bot's welcome in that chat says its id"
        )
    rules: dict[str, Any] = {}
    for key in ("include", "exclude"):
        if key in table:
            rules[key] = words(table, key, at)
    if "min_budget" in table:
        pay = floors(table["min_budget"], at)
        rules.update(min_budget=pay.min_budget, min_pay=pay.min_pay)
    chosen = table.get("sources")
    if chosen is not None:
        if not isinstance(chosen, list) or not all(isinstance(s, str) for s in chosen):
            raise ConfigError(f'{at}: sources must be a list of source names, e.g. ["fastwork"]')
        unknown = [s for s in chosen if s not in sources]
        if unknown:
            raise ConfigError(
                f"{at}: no source named {unknown[0]!r}; the sources are {', '.join(sources)}"
            )
    return ChatConfig(name, to, rules, None if chosen is None else tuple(chosen))


@dataclass(frozen=True)
class Destinations:
    """Every chat alerts go to, by name: the owner's ('', LINE_TO) and the [[chats]]."""

    owner: str | None  # LINE_TO; None: not set (alerts go to the [[chats]], or the terminal)
    chats: tuple[ChatConfig, ...] = ()

    def __post_init__(self) -> None:
        """One recipient is one destination: LINE_TO again as a [[chats]]'s `to` would get
        every listing twice (issue 29), so it is refused wherever the two meet."""
        for chat in self.chats:
            if chat.to == self.owner:
                raise ConfigError(
                    f"[[chats]] {chat.name!r} has to = LINE_TO's id; each listing would reach "
                    "that chat twice (a group pays twice per member): remove that [[chats]], "
                    "or point LINE_TO elsewhere"
                )

    @property
    def owner_reads(self) -> bool:
        """Whether the owner's filter makes rows: with LINE_TO, or with nothing else set
        (the terminal shows them)."""
        return self.owner is not None or not self.chats

    def names(self) -> list[str]:
        """Every chat's name, the owner's first: hunter's own notices wait in its rows."""
        return [OWNER, *(chat.name for chat in self.chats)]

    def knows(self, chat: str) -> bool:
        """Whether rows of `chat` have somewhere to go: the owner's, or a [[chats]] name."""
        return chat == OWNER or self.chat_named(chat) is not None

    def to_of(self, chat: str) -> str | None:
        """Where a row of `chat` is pushed: its id; the owner's rows go to LINE_TO, or without
        it to the first [[chats]] (hunter's notices are the owner's), or to the terminal. A
        chat no longer configured has nowhere to go (None): never the owner's chat, which
        has had those listings already (issue 29)."""
        if chat != OWNER:
            configured = self.chat_named(chat)
            return configured.to if configured else None
        if self.owner is not None:
            return self.owner
        return self.chats[0].to if self.chats else None

    def chat_named(self, name: str) -> ChatConfig | None:
        return next((chat for chat in self.chats if chat.name == name), None)

    def row_of(self, job_id: str) -> str:
        """The chat whose outbox row `job_id` is ("<listing id>#<chat>", or the owner's)."""
        head, _, chat = job_id.rpartition("#")
        return chat if head and any(c.name == chat for c in self.chats) else OWNER

    def name_of(self, to: str | None) -> str | None:
        """The chat whose id is `to` (the owner's first), or None for a stranger."""
        if to is None:
            return None
        if to == self.owner:
            return OWNER
        return next((chat.name for chat in self.chats if chat.to == to), None)
