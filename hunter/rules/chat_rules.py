"""What a chat changed of its rules from the chat, laid over hunter.toml: pure, no I/O.

hunter.toml is the start. From the chat a person adds or removes keywords, sets the minimum
budget and pauses the pushes (hunter/chat/tuning.py); the store keeps those changes per chat
and every poll, of every replica, judges with `ChatRules.apply(filter)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from hunter.rules.filter_config import FilterConfig, PayFloor
from hunter.rules.taste import Tap


@dataclass(frozen=True)
class ChatRules:
    """One chat's changes: mutes in force, keywords added or removed, budget, pause."""

    mutes: dict[str, datetime] = field(default_factory=dict)  # case-folded word -> until
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    min_budget: int | None = None  # baht for a whole job; None: hunter.toml's
    paused: bool = False
    floors: tuple[PayFloor, ...] = ()  # in other currencies and periods; amount 0: none
    languages: tuple[str, ...] | None = None  # read from the chat; () every one; None: toml's
    places: tuple[str, ...] | None = None  # where it can work, as languages
    taps: tuple[Tap, ...] = ()  # its newest 👍 and 👎, newest first (the buttons')
    # Keyword hits its places, languages and taps held back since `held_since`
    held: Mapping[str, int] = field(default_factory=dict)
    held_since: datetime | None = None

    @property
    def changed(self) -> bool:
        """Whether the chat changed anything of hunter.toml (mutes are the buttons')."""
        return bool(
            self.added
            or self.removed
            or self.min_budget is not None
            or self.paused
            or self.floors
            or self.languages is not None
            or self.places is not None
        )

    def apply(self, rules: FilterConfig) -> FilterConfig:
        """hunter.toml's filter with this chat's changes over it."""
        gone = set(self.removed)
        include = [w for w in rules.include if w.casefold() not in gone]
        known = {w.casefold() for w in include}
        include += [w for w in self.added if w not in known]
        budget = rules.min_budget if self.min_budget is None else self.min_budget
        terms = {(floor.currency, floor.period) for floor in self.floors}
        kept = [floor for floor in rules.min_pay if (floor.currency, floor.period) not in terms]
        floors = (*kept, *(floor for floor in self.floors if floor.amount))
        languages = rules.languages if self.languages is None else self.languages
        places = rules.places if self.places is None else self.places
        return replace(
            rules,
            include=tuple(include),
            min_budget=budget,
            min_pay=floors,
            languages=languages,
            places=places,
            taps=self.taps,
        )

    def describe(self) -> dict[str, Any]:
        return {
            "added": list(self.added),
            "removed": list(self.removed),
            "min_budget": self.min_budget,
            "floors": [
                {"amount": f.amount, "currency": f.currency, "period": f.period or "job"}
                for f in self.floors
            ],
            "paused": self.paused,
            "languages": None if self.languages is None else list(self.languages),
            "places": None if self.places is None else list(self.places),
            "mutes": {word: until.isoformat() for word, until in sorted(self.mutes.items())},
            "held": dict(self.held),
        }
