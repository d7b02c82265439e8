"""The month's pushes, one row shared by every replica (hunter/pace.py decides; this keeps)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from hunter.pace import Pace, PaceState
from hunter.store.records import pace_state
from hunter.store.room import Room


class PaceStore(Room, ABC):
    @abstractmethod
    def claim(self, pace: Pace, now: datetime) -> PaceState:
        """Spend one push of the month's allowance if `pace` allows it (the database decides,
        one caller at a time); the pace row after the claim, `granted` saying whether it did."""

    def state(self) -> PaceState | None:
        """The pace row, or None before the first paced push."""
        rows = self._rows("pace")
        return pace_state(rows[0]) if rows else None
