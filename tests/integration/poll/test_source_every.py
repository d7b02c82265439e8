"""A source's own pace (`every`): a site whose terms ask for a few reads a day is read no more
often, whatever hunter's interval, kept in the store so that replicas and separate
`run --once` processes (cron, GitHub Actions) keep to it too. Fake clock, real SQLite, a
local board counting its hits."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hunter.app.service import Hunter, worker_name
from hunter.errors import ConfigError
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 0, 0, tzinfo=UTC)


def test_a_6_hour_source_is_read_4_times_a_day_beside_a_30_minute_one(
    tmp_path: Path, board: Board
) -> None:
    slow = board.serve_jobs("/slow", [("1", "python job")])
    fast = board.serve_jobs("/fast", [("1", "python job")])
    config = parse_config(
        {
            "sources": [html_source("slow", slow) | {"every": "6h"}, html_source("fast", fast)],
            "filter": {"include": ["python"]},
        }
    )
    clock, line = Clock(T0), ScriptedSender()
    polls = 0
    while clock.now < T0 + timedelta(days=1):
        # Each poll a separate process: a new Hunter on a newly opened store.
        with SQLiteStore(tmp_path / "hunter.db") as store:
            store.migrate()
            Hunter(config, store, line, clock, worker_name(), threading.Event()).poll()
        polls += 1
        clock.advance(30 * 60 + (7 if polls % 3 == 0 else 0))  # a little late, at times
    assert polls == 48
    assert board.hits["/slow"] == 4 and board.hits["/fast"] == 48


@pytest.mark.parametrize(
    ("every", "message"),
    [
        ("soon", 'every must be a duration such as "6h"'),
        (6, 'every must be a duration such as "6h"'),
        ("0h", "more than 0 and at most 7 days"),
        ("30d", "more than 0 and at most 7 days"),
    ],
)
def test_a_bad_every_is_one_line(every: object, message: str) -> None:
    source = {"name": "b", "kind": "rss", "url": "https://x.test/feed", "every": every}
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_config({"sources": [source]})
