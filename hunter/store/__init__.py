"""Where hunter remembers what it has seen and sent: one port, one adapter per database."""

from __future__ import annotations

from hunter.config import Environment
from hunter.store.base import Claimed, SourceNote, StatusReport, Store


def open_store(env: Environment, migrate: bool = True) -> Store:
    """The store the environment names: DATABASE_URL (PostgreSQL), else SQLite at HUNTER_DB."""
    store: Store
    if env.database_url:
        from hunter.store.postgres import PostgresStore

        store = PostgresStore(env.database_url)
    else:
        from hunter.store.sqlite import SQLiteStore

        store = SQLiteStore(env.sqlite_path)
    if migrate:
        try:
            store.migrate()
        except BaseException:
            store.close()
            raise
    return store


__all__ = ["Claimed", "SourceNote", "StatusReport", "Store", "open_store"]
