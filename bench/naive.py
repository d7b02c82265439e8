"""The design most job-alert bots use, written honestly, as the benchmark's baseline.

Every poll loads every id it ever saw into memory, then for each new matching listing pushes
one LINE message and inserts one row after the push. It is simple and mostly works; what it
costs is what the benchmark measures: a query that grows with the table, two round trips and
one LINE request per listing, and (not measured here) a listing lost or sent twice whenever the
process dies between the push and the insert.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import psycopg

from hunter.rules.listing import Listing

SCHEMA = "CREATE TABLE IF NOT EXISTS naive_seen (job_id text PRIMARY KEY, seen_at timestamptz)"


class NaiveBot:
    def __init__(self, database_url: str, line_url: str, token: str, to: str) -> None:
        self.db = psycopg.connect(database_url, autocommit=True)
        self.db.execute(SCHEMA)
        self.http = httpx.Client(base_url=line_url, headers={"Authorization": f"Bearer {token}"})
        self.to = to
        self.round_trips = 0
        self.requests = 0

    def close(self) -> None:
        self.db.close()
        self.http.close()

    def _sql(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        self.round_trips += 1
        cursor = self.db.execute(sql, params)
        return cursor.fetchall() if cursor.description else []

    def poll(self, listings: list[Listing], prime: bool = False) -> int:
        seen = {row[0] for row in self._sql("SELECT job_id FROM naive_seen")}
        sent = 0
        for listing in listings:
            if listing.job_id in seen:
                continue
            if not prime:
                self._push(listing)
                sent += 1
            self._sql(
                "INSERT INTO naive_seen VALUES (%s, now()) ON CONFLICT DO NOTHING",
                (listing.job_id,),
            )
        return sent

    def _push(self, listing: Listing) -> None:
        import uuid

        self.requests += 1
        body = {
            "to": self.to,
            "messages": [{"type": "text", "text": f"{listing.title}\n{listing.url}"}],
        }
        self.http.post(
            "/v2/bot/message/push",
            content=json.dumps(body),
            headers={"Content-Type": "application/json", "X-Line-Retry-Key": str(uuid.uuid4())},
        )
