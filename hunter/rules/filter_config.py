"""What a chat wants of a listing, as data: its keywords and its pay floors.

Plain frozen dataclasses that import nothing of hunter's: hunter.toml's [filter] and each
[[sources]] and [[chats]] fill them in (settings/), a chat changes them from its phone
(chat_rules.py), and filters.py and pay.py judge listings with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hunter.rules.taste import Tap


@dataclass(frozen=True)
class PayFloor:
    """The least pay a user wants, in one currency and period (hunter/rules/pay.py)."""

    amount: int
    currency: str  # ISO 4217
    period: str  # "" for a whole job; hour, day, week, month or year


@dataclass(frozen=True)
class FilterConfig:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    min_budget: int = 0  # baht for a whole job (what a bare number means); 0: no floor
    ignore_within: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    min_pay: tuple[PayFloor, ...] = ()  # floors in other currencies and periods
    # ISO 639-1 codes of the languages the chat reads; () reads every language
    languages: tuple[str, ...] = ()
    # Where the chat can work: place names and "remote"; () takes every place
    places: tuple[str, ...] = ()
    # The chat's newest 👍 and 👎 (rules/taste.py), from its chat only
    taps: tuple[Tap, ...] = ()
