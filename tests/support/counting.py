"""Count a store's calls: on PostgreSQL and Supabase each port call is one round trip."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hunter.store.base import Store


class CountingStore:
    """Delegates to a real store and counts each call of the port."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not callable(attribute):
            return attribute

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attribute(*args, **kwargs)

        return counted
