"""The integration tier: hunter's real parts in this process against real local servers (a
job board, the LINE stand-in, hunter's own HTTP server) on 127.0.0.1, with a real SQLite store
and, where time matters, a fake clock. The CLI as a subprocess is tests/e2e; every database
adapter is tests/contract."""

from __future__ import annotations

from tests.support.sqlite_store import store

__all__ = ["store"]
