"""The reads room: each read of each source, kept for the status's history and
pruned with the rest (`prune_after_days`): when, how many listings it read, how many were
new and how many of those matched a chat, the error if it failed, and how long it took."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from hunter.store.columns import integer, optional_text, real, text
from hunter.store.records import ReadRow
from hunter.store.room import Room

READS_KEPT_AT_MOST = 20_000  # rows one history read answers at most (45 days of 20 sources)


@dataclass(frozen=True)
class DayOfReads:
    """One source's reads on one day (the `day`-th of those asked), summed by the store."""

    source: str
    day: int
    new: int
    matching: int
    failed: int
    reads: int
    merged: int = 0  # new listings merged with an earlier copy of their job


class ReadsStore(Room):
    @abstractmethod
    def keep(self, reads: Sequence[ReadRow]) -> None:
        """Keep these reads (one poll's), in one statement."""

    @abstractmethod
    def prune(self, before: datetime) -> int:
        """Forget the reads made before `before`; how many."""

    def by_day(self, days: Sequence[tuple[datetime, datetime]]) -> list[DayOfReads]:
        """Each source's reads in each of `days` ([start, end) each), summed by the store:
        at most a row per source and day, however many reads (a week of 200 sources read
        every 30 minutes is 67,200 reads, 1,400 rows here)."""
        spans = json.dumps([[str(self._time(a)), str(self._time(b))] for a, b in days])
        return [
            DayOfReads(
                text(r, "source"),
                integer(r, "day"),
                integer(r, "new"),
                integer(r, "matching"),
                integer(r, "failed"),
                integer(r, "reads"),
                integer(r, "merged"),
            )
            for r in self._rows("reads_by_day", days=spans)
        ]

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
