"""Each source's last poll, its health (broken, recovered), its schedule (the next read and
its claim by one replica), and its lease to one replica."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hunter.store.columns import Row
from hunter.store.records import ReadRow, SourceNote, SourceRow, SourceState
from hunter.store.room import Room


@dataclass(frozen=True)
class PollLook:
    """What a cron run looks at before it reads (SourceStore.look): one round trip."""

    ticks: list[datetime]  # the last runs' times, this one's last
    states: dict[str, SourceState]  # every source's row, by name
    claimable: bool  # anything in the outbox may be claimed now
    next_due: datetime | None  # when the next retry is due
    prune: bool  # this run took the daily prune's turn


class SourceStore(Room, ABC):
    @abstractmethod
    def note(
        self,
        notes: Sequence[SourceNote],
        now: datetime,
        broken_after: int,
        reads: Sequence[ReadRow] = (),
    ) -> list[str]:
        """Write each source's poll and health; queue the notice of each source that became
        broken (`broken_after` bad polls in a row) or recovered. Returns their names. In the
        same round trip, keep `reads` for the history (ReadStore.keep), whose failure fails
        no note: it is only logged."""

    @abstractmethod
    def lease(self, names: Sequence[str], worker: str, now: datetime, until: datetime) -> set[str]:
        """Of `names`, the sources `worker` may poll now, each leased to it until `until`:
        those nobody holds, whose lease ran out, or that it holds already."""

    @abstractmethod
    def claim(self, seen: Mapping[str, datetime | None], until: datetime) -> set[str]:
        """Of the sources in `seen` (each with the next read the caller saw; None: never
        set), those whose next read is still that, each held until `until`: the caller reads
        them now, and no other replica does (the read's note then sets the next read)."""

    @abstractmethod
    def tick(self, now: datetime, keep: int) -> list[datetime]:
        """Note that a `run --once` began at `now`; the last `keep` such times, oldest first."""

    @abstractmethod
    def look(
        self, now: datetime, keep: int, lease_before: datetime, prune_every: timedelta
    ) -> PollLook:
        """In one round trip: `tick` (the run's time kept, the last `keep`), every
        source's state, the outbox's look (OutboxStore.look) and the daily prune's claim
        (OutboxStore.claim_prune, every `prune_every`)."""

    def all(self) -> list[SourceRow]:
        """Every source's row: its last poll, count, error and health."""
        return [SourceRow.from_row(row) for row in self._rows("sources")]

    def states(self) -> dict[str, SourceState]:
        return states_of(self._rows("sources"))


def states_of(rows: Iterable[Row]) -> dict[str, SourceState]:
    """The sources' rows (states(), a cron run's look) as states by name."""
    states = (SourceState.from_row(row) for row in rows)
    return {state.name: state for state in states}


def ticks_of(value: object) -> list[datetime]:
    """The stored run times (epoch seconds, space separated), oldest first."""
    if not isinstance(value, str):
        return []
    seconds = sorted(int(t) for t in value.split() if t.isdigit())
    return [datetime.fromtimestamp(t, UTC) for t in seconds]
