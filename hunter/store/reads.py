"""The reads room: each read of each source, kept for the status's history (issue 36) and
pruned with the rest (`prune_after_days`): when, how many listings it read, how many were
new and how many of those matched a chat, the error if it failed, and how long it took."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime

from hunter.store.columns import integer, optional_text, real, text
from hunter.store.records import ReadRow
from hunter.store.room import Room

READS_KEPT_AT_MOST = 20_000  # rows one history read answers at most (45 days of 20 sources)


class ReadsStore(Room):
    @abstractmethod
    def keep(self, reads: Sequence[ReadRow]) -> None:
        """Keep these reads (one poll's), in one statement."""

    @abstractmethod
    def prune(self, before: datetime) -> int:
        """Forget the reads made before `before`; how many."""

    def since(self, since: datetime, limit: int = READS_KEPT_AT_MOST) -> list[ReadRow]:
        """The reads made since `since`, the newest first, at most `limit`."""
        return [
            ReadRow(
                source=text(r, "source"),
                read_at=datetime.fromtimestamp(round(real(r, "read_s"), 3), UTC),  # to the ms
                listings=integer(r, "listings"),
                new=integer(r, "new"),
                matching=integer(r, "matching"),
                error=optional_text(r, "error"),
                seconds=real(r, "seconds"),
            )
            for r in self._rows("reads_since", since=self._time(since), limit=limit)
        ]
