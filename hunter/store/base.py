"""The store port: everything hunter asks of its database, in rooms of one noun each.

    Store                    one database: migrate, schema_version, close, status
    ├── .outbox   OutboxStore    listings seen, waiting, in flight, sent (outbox.py)
    ├── .sources  SourceStore    each source's polls, health and lease (sources.py)
    ├── .pace     PaceStore      the month's pushes (pace.py)
    ├── .chat     ChatStore      webhook events, mutes and marks (chat.py)
    ├── .reads    ReadsStore     each read of each source, for the history (reads.py)
    ├── .subscribers SubscriberStore  the chats that joined from their phone (subscribers.py)
    ├── .likeness LikenessStore   each listing's likeness, to find a job seen before (likeness.py)
    └── .edits    EditStore      the alerts that gain "also on <board>" (edits.py)

Adapters: sqlite/ (a local file) and functions/ (hunter's PostgreSQL functions, carried by
postgres.py over psycopg or by supabase.py over HTTPS) implement each room; every claim is
decided by the database in one statement or one locked transaction, never by a
read-then-write in Python. The contract suite in tests/contract runs each room's tests
against every adapter. The answers' shapes are in records.py.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from typing import Any

from hunter.store.chat import ChatStore
from hunter.store.columns import Row, text, utc
from hunter.store.edits import EditStore
from hunter.store.likeness import LikenessStore
from hunter.store.outbox import OutboxStore
from hunter.store.pace import PaceStore
from hunter.store.reads import ReadsStore
from hunter.store.records import StatusReport
from hunter.store.sources import SourceStore
from hunter.store.subscribers import SubscriberStore


class Store(ABC):
    """One database holding hunter's rows. Times passed in are aware datetimes."""

    dialect: str
    outbox: OutboxStore
    sources: SourceStore
    pace: PaceStore
    chat: ChatStore
    reads: ReadsStore
    subscribers: SubscriberStore
    likeness: LikenessStore
    edits: EditStore

    @abstractmethod
    def migrate(self) -> None:
        """Create or upgrade hunter's tables and functions (idempotent, safe to race)."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def schema_version(self) -> int:
        """The hunter schema version the database holds (0: none)."""

    @abstractmethod
    def rows(self, name: str, **params: Any) -> list[Row]:
        """Rows of the named read-only query, by column name (the rooms' reads)."""

    def param_time(self, value: datetime) -> object:
        return value

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def status(self, now: datetime, limit: int = 100) -> StatusReport:
        """What `hunter status` shows, from every room."""
        meta = {text(r, "key"): text(r, "value") for r in self.rows("meta")}
        return StatusReport(
            outbox=self.outbox.counts(),
            sent_last_24h=self.outbox.sent_since(now - timedelta(hours=24)),
            rows=self.outbox.rows(limit),
            sources=self.sources.all(),
            last_prune_at=utc(meta.get("last_prune_at")),
            meta=meta,
            pace_state=self.pace.state(),
        )
