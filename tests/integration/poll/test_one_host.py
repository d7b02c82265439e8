"""Many sources on one site (issue 45, finding 10): hunter reads a host two requests at a
time with a short pause each, so 500 sources there cannot all be read within
`fetch_timeout_seconds`, and the ones left over failed every poll and would ring "stopped
working" alarms. A source whose host's turn did not come is not broken: it is noted as
waited, nothing of its health changes, and the next poll reads it first. Fake clock, real
SQLite, a local board counting its hits."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from hunter.app.service import Hunter, worker_name
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
SOURCES = 120  # a poll reads ~30 of them in its 2 s: the rest wait their turn


def test_sources_waiting_for_their_hosts_turn_are_not_failed_and_go_first_next_time(
    tmp_path: Path, board: Board
) -> None:
    urls = [board.serve_jobs(f"/s{n}", [("1", f"job {n}")]) for n in range(SOURCES)]
    config = parse_config(
        {
            "sources": [html_source(f"s{n:03}", url) for n, url in enumerate(urls)],
            "fetch_timeout_seconds": 2,
            "broken_after": 1,
        }
    )
    clock, line = Clock(T0), ScriptedSender()
    read_by_poll = []
    with SQLiteStore(tmp_path / "hunter.db") as store:
        store.migrate()
        hunter = Hunter(config, store, line, clock, worker_name(), threading.Event())
        for _ in range(12):
            report = hunter.poll(ahead=0.0)  # what is due now: the waited, first
            read_by_poll.append(sorted(p.name for p in report.sources if p.verdict.good))
            failed = [p.name for p in report.sources if p.verdict.good is False]
            assert failed == []  # none of them is broken: they waited, nothing failed
            if sum(map(len, read_by_poll)) == SOURCES:
                break
        rows = {row.name: row for row in store.status(clock()).sources}
    assert len(read_by_poll) > 1  # the first poll could not read them all
    every_read = [name for read in read_by_poll for name in read]
    assert sorted(every_read) == sorted(f"s{n:03}" for n in range(SOURCES))
    # each asked once, or twice when its late turn ran out mid-answer
    hits = sorted(board.hits[f"/s{n}"] for n in range(SOURCES))
    assert hits[0] == 1 and hits[-1] <= 2 and hits.count(2) <= 2 * len(read_by_poll), hits
    assert all(len(read) > 0 for read in read_by_poll)  # each poll got on with the line
    assert all(row.fail_streak == 0 and row.broken_at is None for row in rows.values())
    assert not any("stopped working" in str(messages) for _key, messages in line.pushes)
