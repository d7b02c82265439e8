"""Count a store's calls: on PostgreSQL and Supabase each call of a room is one round trip."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hunter.store.base import Store

ROOMS = ("outbox", "sources", "pace", "reads", "chat")


class _Counted:
    """Delegates to a store or one of its rooms, counting each call by its room and method
    ("pace.claim" and "sources.claim" are different round trips)."""

    def __init__(self, target: Any, calls: Counter[str], room: str = "") -> None:
        self._target = target
        self.calls = calls
        self._room = room

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._target, name)
        if name in ROOMS:
            return _Counted(attribute, self.calls, f"{name}.")
        if not callable(attribute):
            return attribute

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[self._room + name] += 1
            return attribute(*args, **kwargs)

        return counted


class CountingStore(_Counted):
    def __init__(self, store: Store) -> None:
        super().__init__(store, Counter())
