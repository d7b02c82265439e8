"""Where alerts go: the owner's chat (hunter.toml's `owner`, or LINE_TO, with the global
[filter]), the [[chats]] of hunter.toml (read by hunter/settings/chats.py), each with its
own keywords and sources, and the subscribers: chats that joined from their phone,
each named by its own id, with only the keywords it set there. What a chat's `to` is (a
person, a group, on which channel) only its channel says (hunter/channels/, checked when the
config is loaded).

A listing reaches each chat whose rules it matches, once per chat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from hunter.errors import ConfigError
from hunter.rules.chat_rules import ChatRules
from hunter.rules.filter_config import FilterConfig

OWNER = ""  # the owner's chat (`owner`, or LINE_TO): its rows keep the listing's own id
OWNER_NAME = "owner"  # how the owner's chat is named where people read it (status, logs)
# What also names it in `--chat` and is no [[chats]] name: LINE_TO, its old spelling
OWNER_NAMES = frozenset({OWNER_NAME, "LINE_TO"})


@dataclass(frozen=True)
class ChatConfig:
    name: str
    to: str
    rules: Mapping[str, Any]  # its own include / exclude / min_budget, as written
    sources: tuple[str, ...] | None = None  # None: every source
    merge: bool | None = None  # one alert per job; None: the config's `merge`

    @property
    def said(self) -> str:
        """How an error names it: "[[chats]] 'team'", or the owner's line of hunter.toml (a
        [[chats]] may not be named "owner")."""
        if self.name == OWNER_NAME:
            return f'the owner (owner = "{self.to}" in hunter.toml)'
        return f"[[chats]] {self.name!r}"

    def filter_for(self, base: FilterConfig) -> FilterConfig:
        """`base` (a source's filter: the global one with the source's own keys), with this
        chat's keys over it."""
        return replace(base, **self.rules)

    def reads(self, source: str) -> bool:
        return self.sources is None or source in self.sources


@dataclass(frozen=True)
class Destinations:
    """Every chat alerts go to, by name: the owner's ('', `owner` or LINE_TO) and the [[chats]]."""

    owner: (
        str | None
    )  # `owner` or LINE_TO; None: not set (alerts go to the [[chats]], or the terminal)
    chats: tuple[ChatConfig, ...] = ()
    # The subscribers in (each one's id, which is also its name), as the store said last.
    subscribers: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        """One recipient is one destination: LINE_TO again as a [[chats]]'s `to` would get
        every listing twice, so it is refused wherever the two meet."""
        for chat in self.chats:
            if chat.to == self.owner:
                raise ConfigError(
                    f"[[chats]] {chat.name!r} has the owner's `to` (owner, or LINE_TO); each "
                    "listing would reach that chat twice (a group pays twice per member): "
                    "remove that [[chats]], or point the owner elsewhere"
                )

    def with_subscribers(self, ids: Iterable[str]) -> Destinations:
        """These destinations with `ids` as the subscribers in; a chat hunter.toml names (the
        owner's, a [[chats]]) is that, never a subscriber too (it would get listings twice)."""
        configured = {chat.to for chat in self.chats} | {self.owner}
        return replace(self, subscribers=frozenset(i for i in ids if i not in configured))

    def subscriber(self, chat: str | None) -> bool:
        """Whether `chat` is a subscriber's (the store's, not hunter.toml's)."""
        return chat in self.subscribers

    @property
    def owner_reads(self) -> bool:
        """Whether the owner's filter makes rows: with LINE_TO, or with nothing else set
        (the terminal shows them)."""
        return self.owner is not None or not self.chats

    def names(self) -> list[str]:
        """Every chat's name, the owner's first: hunter's own notices wait in its rows; the
        subscribers last."""
        return [OWNER, *(chat.name for chat in self.chats), *sorted(self.subscribers)]

    def knows(self, chat: str) -> bool:
        """Whether rows of `chat` have somewhere to go: the owner's, a [[chats]] name, or a
        subscriber in."""
        return chat == OWNER or self.chat_named(chat) is not None or chat in self.subscribers

    def to_of(self, chat: str) -> str | None:
        """Where a row of `chat` is pushed: its id; the owner's rows go to LINE_TO, or without
        it to the first [[chats]] (hunter's notices are the owner's), or to the terminal. A
        chat no longer configured has nowhere to go (None): never the owner's chat, which
        has had those listings already."""
        if chat in self.subscribers:
            return chat
        if chat != OWNER:
            configured = self.chat_named(chat)
            return configured.to if configured else None
        if self.owner is not None:
            return self.owner
        return self.chats[0].to if self.chats else None

    def rules_for(
        self, chat: str, base: FilterConfig, changes: Mapping[str, ChatRules]
    ) -> tuple[FilterConfig, Mapping[str, datetime]]:
        """The one answer to "which rules judge a listing for `chat`": `base` (its source's
        filter, the global [filter] with the source's own keys; the global one when the source
        is gone), the chat's own keys of hunter.toml over it, then what the chat changed from
        its phone (`changes`, by chat); and the chat's mutes in force. The poll, `hunter
        check`, "ทำไม" and "คำ" all ask here."""
        configured = self.chat_named(chat) if chat != OWNER else None
        start = configured.filter_for(base) if configured is not None else base
        if chat in self.subscribers:  # its own keywords and floors only, never the owner's
            start = replace(base, include=(), min_budget=0, min_pay=(), languages=(), places=())
        changed = changes.get(chat)
        return (changed.apply(start), changed.mutes) if changed else (start, {})

    def label(self, chat: str) -> str:
        """`chat` as people read it: the owner's is "owner", or without one the first
        [[chats]], where its rows go (a setup of [[chats]] alone has no owner)."""
        if chat != OWNER:
            return chat
        return OWNER_NAME if self.owner is not None or not self.chats else self.chats[0].name

    def chat_named(self, name: str) -> ChatConfig | None:
        return next((chat for chat in self.chats if chat.name == name), None)

    def name_of(self, to: str | None) -> str | None:
        """The chat whose id is `to` (the owner's first), or None for a stranger."""
        if to is None:
            return None
        if to == self.owner:
            return OWNER
        configured = next((chat.name for chat in self.chats if chat.to == to), None)
        return configured or (to if to in self.subscribers else None)
