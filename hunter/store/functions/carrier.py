"""The store port over hunter's PostgreSQL functions, whatever carries the calls.

PostgreSQL (psycopg) and Supabase (PostgREST rpc) run the same functions from sql/postgres/;
the rooms here (outbox.py, sources.py, pace.py, chat.py, reads.py, subscribers.py) are the one
place that says which function each operation calls, with what. An adapter supplies only
`_call`: run one function with named arguments, one round trip, and answer its rows as dicts
(set-returning functions) or its value (scalar ones).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

from hunter.store.base import Store
from hunter.store.columns import Row

# Read-only queries of the rooms, by name: (function, its parameters in the port's names)
READS: dict[str, tuple[str, tuple[str, ...]]] = {
    "next_due": ("hunter_next_due", ()),
    "outbox_look": ("hunter_outbox_look", ("now", "lease_before")),
    "pending_by_chat": ("hunter_pending_by_chat", ()),
    "waiting_by_chat": ("hunter_waiting_by_chat", ()),
    "sent_by_chat": ("hunter_sent_by_chat", ("since",)),
    "sent_rows_since": ("hunter_sent_rows_since", ("since", "limit")),
    "reads_since": ("hunter_reads_since", ("since", "limit")),
    "reads_by_day": ("hunter_reads_of_days", ("days",)),
    "batch_body": ("hunter_batch_body", ("key",)),
    "outbox_counts": ("hunter_outbox_counts", ()),
    "sent_since": ("hunter_sent_since", ("since",)),
    "outbox_rows": ("hunter_chat_outbox_rows", ("limit",)),
    "sources": ("hunter_source_rows", ()),
    "meta": ("hunter_meta_rows", ()),
    "job_states": ("hunter_chat_job_states", ("chat",)),
    "pace": ("hunter_pace_row", ()),
    "chat_rules": ("hunter_chat_rules", ("now",)),
    "find_listing": ("hunter_find_listing", ("ids", "url")),
    "recent_listings": ("hunter_recent_listings", ("since", "most")),
    "sources_linking": ("hunter_sources_linking", ("prefix",)),
    "chats": ("hunter_chats_rows", ()),
    "marks": ("hunter_chat_marks_rows", ("mark",)),
    "recent_sent_chat": ("hunter_recent_sent_chat", ("limit", "chat")),
    "subscribers": ("hunter_subscriber_rows", ()),
    "subscriber": ("hunter_subscriber_of", ("chat",)),
    "asker_names": ("hunter_asker_names", ()),
    "membership": ("hunter_membership_counts", ("since", "recent")),
}
SCALARS = {"hunter_next_due", "hunter_batch_body", "hunter_sent_since"}


@dataclass(frozen=True)
class Document:
    """An argument that travels as JSON (jsonb), however the adapter sends it."""

    value: Any


class JsonText(str):
    """A Document's value already written as JSON text (records.jobs_json): sent as it is,
    not made again from a tree of dicts that would double a big argument's memory."""


def _named(rows: object, column: str) -> list[Row]:
    """A TABLE function's rows as mappings. PostgREST has answered a one-column TABLE function
    both as objects and as bare values; a bare value is named after the function's column."""
    if not isinstance(rows, list):
        raise TypeError(f"expected rows, got {type(rows).__name__}")
    return [row if isinstance(row, dict) else {column: row} for row in rows]


class FunctionCarrier(Store):
    """Calls of hunter's PostgreSQL functions, however they travel; FunctionStore (the
    package) adds the rooms."""

    dialect = "postgres"  # the schema and its functions are the PostgreSQL ones

    @abstractmethod
    def _call(self, function: str, rows: bool, **params: Any) -> object:
        """Run `function` with `p_<name>` arguments; its rows as a list of column -> value
        mappings when `rows`, else its value."""

    def value(self, function: str, **params: Any) -> object:
        """The value of a scalar function."""
        return self._call(function, False, **params)

    def table(self, function: str, column: str = "", **params: Any) -> list[Row]:
        """Rows of a TABLE (or SETOF) function; `column` names a one-column table's column."""
        return _named(self._call(function, True, **params), column)

    def rows(self, name: str, **params: Any) -> list[Row]:
        function, names = READS[name]
        arguments = {n: params[n] for n in names}
        if function in SCALARS:
            return [{"value": self._call(function, False, **arguments)}]
        return self.table(function, **arguments)
