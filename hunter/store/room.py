"""What every room of the store shares: its reads are named queries of the adapter's database.

A room is one noun of the port (outbox.py, sources.py, pace.py, chat.py): its abstract methods
are the writes and claims each adapter implements (one statement, one locked transaction or
one function call: the database decides), and its reads are built here once, on `Reads`, for
every adapter alike.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from hunter.store.columns import Row


class Reads(Protocol):
    """An adapter's database as the rooms read it."""

    def rows(self, name: str, **params: Any) -> list[Row]:
        """Rows of the named read-only query, by column name. A query of one value answers
        one row whose column is named `value`."""
        ...

    def param_time(self, value: datetime) -> object:
        """A time as this database's queries take it."""
        ...


class Room:
    def __init__(self, reads: Reads) -> None:
        self._reads = reads

    def _rows(self, name: str, **params: Any) -> list[Row]:
        return self._reads.rows(name, **params)

    def _one(self, name: str, **params: Any) -> Row:
        """The row of a one-value query (NULL when it found none)."""
        rows = self._rows(name, **params)
        return rows[0] if rows else {"value": None}

    def _time(self, value: datetime) -> object:
        return self._reads.param_time(value)
