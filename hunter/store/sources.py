"""Each source's last poll, its health (broken, recovered) and its lease to one replica."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime

from hunter.store.records import SourceNote, SourceRow, SourceState
from hunter.store.room import Room


class SourceStore(Room, ABC):
    @abstractmethod
    def note(self, notes: Sequence[SourceNote], now: datetime, broken_after: int) -> list[str]:
        """Write each source's poll and health; queue the notice of each source that became
        broken (`broken_after` bad polls in a row) or recovered. Returns their names."""

    @abstractmethod
    def lease(self, names: Sequence[str], worker: str, now: datetime, until: datetime) -> set[str]:
        """Of `names`, the sources `worker` may poll now, each leased to it until `until`:
        those nobody holds, whose lease ran out, or that it holds already."""

    def all(self) -> list[SourceRow]:
        """Every source's row: its last poll, count, error and health."""
        return [SourceRow.from_row(row) for row in self._rows("sources")]

    def states(self) -> dict[str, SourceState]:
        states = (SourceState.from_row(row) for row in self._rows("sources"))
        return {state.name: state for state in states}
