"""A worker process for the pace's race test: its own connection, claims from a given moment."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from hunter.store.postgres import PostgresStore
from hunter.store.records import Pace


def claim_many(database_url: str, pace: Pace, tries: int, start_at: float) -> int:
    """Claim `tries` times from `start_at` (time.time()) on; how many claims were granted."""
    granted = 0
    with PostgresStore(database_url) as store:
        store.schema_version()  # connected before the start, so that all begin together
        time.sleep(max(0.0, start_at - time.time()))
        for _ in range(tries):
            granted += store.pace.claim(pace, datetime.now(UTC)).granted
    return granted
