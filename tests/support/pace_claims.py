"""Worker processes for the pace's race tests: each its own connection, from a given moment."""

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


def take_many(database_url: str, tries: int, start_at: float) -> list[tuple[float, float]]:
    """Take `tries` blocks of Telegram's moments (7, 1/28 s apart) from `start_at` on, each
    asked for at the time it is asked; each block's first moment, and how long its call took
    (the moment is the database's, told in this process's clock from when it was asked: off
    by at most that)."""
    firsts = []
    with PostgresStore(database_url) as store:
        store.schema_version()
        time.sleep(max(0.0, start_at - time.time()))
        for _ in range(tries):
            asked = time.time()
            first = store.pace.take_slots("Telegram", 7, 1 / 28, asked)
            firsts.append((first, time.time() - asked))
    return firsts
