"""Rows the store contract tests put in the outbox: listings, waiting ones, failed pushes."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.rules.listing import Listing
from hunter.store.base import Store
from hunter.store.records import Failure
from hunter.store.states import ErrorKind, RowStatus

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def failure(
    status: str, kind: str | None, error: str, next_at: datetime | None, count: bool
) -> Failure:
    """A failed push's outcome, as the deliverer hands it to the store."""
    return Failure(RowStatus(status), ErrorKind(kind) if kind else None, error, next_at, count)


def jobs(source: str, *numbers: int) -> list[Listing]:
    return [
        Listing(f"{source}:{n}", source, f"job {n}", f"https://x.test/{n}", n * 100, "")
        for n in numbers
    ]


def pending(store: Store, *numbers: int) -> None:
    """Source a primed, then listings a:N waiting to be sent."""
    store.outbox.record("a", jobs("a", 0), set(), T0)
    store.outbox.record("a", jobs("a", *numbers), {f"a:{n}" for n in numbers}, T0)
