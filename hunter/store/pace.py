"""The month's pushes, one row shared by every replica (deliver/pace.py decides; this keeps),
and each channel's moments to send (deliver/rate.py)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from hunter.store.records import ChatRow, Pace, PaceState, pace_state
from hunter.store.room import Room


class PaceStore(Room, ABC):
    @abstractmethod
    def claim(self, pace: Pace, now: datetime, chat: str = "") -> PaceState:
        """Spend one push of the month's allowance, `pace.cost` messages, if `pace` allows it
        (the database decides, one caller at a time), counted to `chat`'s spending; the pace
        row after the claim, `granted` saying whether it did."""

    @abstractmethod
    def set_members(self, chat: str, to: str, members: int, now: datetime) -> None:
        """The channel's member count of the chat: what one push to it costs."""

    @abstractmethod
    def forget_members(self, to: str) -> None:
        """Members came or went in `to`: its count is read again before the next push."""

    @abstractmethod
    def take_slots(self, channel: str, count: int, gap: float, now: float) -> float:
        """`count` moments to send on `channel`, `gap` seconds apart, from the first that no
        sender holds at or after `now` (seconds since 1970): the first one's time. Every
        replica takes from the one row, so together they keep the channel's pace."""

    def state(self) -> PaceState | None:
        """The pace row, or None before the first paced push."""
        rows = self._rows("pace")
        return pace_state(rows[0]) if rows else None

    def chats(self) -> dict[str, ChatRow]:
        """Each chat's recipients and spending, by name ('' for LINE_TO)."""
        return {row.name: row for row in map(ChatRow.from_row, self._rows("chats"))}
