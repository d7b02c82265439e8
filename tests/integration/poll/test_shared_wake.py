"""With share_sources, `hunter run` wakes for the sources its replica reads. One that
another replica holds, even one it has not read yet, does not wake it every second: it looks
again within interval_minutes, when a dead replica's lease may have run out."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hunter.app.service import Hunter
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def test_a_replica_does_not_wake_for_a_source_another_one_holds(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", [("1", "python job")])
    config = parse_config(
        {"sources": [html_source("jobs", url)], "share_sources": True, "interval_minutes": 30}
    )
    clock, line = Clock(T0), ScriptedSender()
    path = tmp_path / "hunter.db"
    with SQLiteStore(path) as first, SQLiteStore(path) as second:
        first.migrate()
        a = Hunter(config, first, line, clock, "replica-a", threading.Event())
        b = Hunter(config, second, line, clock, "replica-b", threading.Event())
        # a has taken the source and not read it yet (it is reading, or it died meanwhile)
        assert first.sources.lease(["jobs"], "replica-a", T0, T0 + timedelta(hours=1))
        polled = b.poll()
        assert board.hits.get("/jobs") is None and polled.not_due == 1
        assert b.next_wake() == T0 + timedelta(minutes=30)  # not now, and then every second
        a.poll()
        assert board.hits["/jobs"] == 1
        assert T0 < a.next_wake() <= T0 + timedelta(minutes=30)  # a's own next read
