"""The adapters over hunter's PostgreSQL functions: the carrier (carrier.py), its rooms, and
FunctionStore, which puts them together for postgres.py (psycopg) and supabase.py (HTTPS)."""

from __future__ import annotations

from hunter.store.functions.carrier import Document, FunctionCarrier, JsonText
from hunter.store.functions.chat import FunctionChat
from hunter.store.functions.edits import FunctionEdits
from hunter.store.functions.likeness import FunctionLikeness
from hunter.store.functions.outbox import FunctionOutbox
from hunter.store.functions.pace import FunctionPace
from hunter.store.functions.reads import FunctionReads
from hunter.store.functions.sources import FunctionSources
from hunter.store.functions.subscribers import FunctionSubscribers


class FunctionStore(FunctionCarrier):
    """hunter's store over its PostgreSQL functions, every room on one carrier."""

    def __init__(self) -> None:
        self.outbox = FunctionOutbox(self)
        self.sources = FunctionSources(self)
        self.pace = FunctionPace(self)
        self.reads = FunctionReads(self)
        self.chat = FunctionChat(self)
        self.subscribers = FunctionSubscribers(self)
        self.likeness = FunctionLikeness(self)
        self.edits = FunctionEdits(self)


__all__ = ["Document", "FunctionStore", "JsonText"]
