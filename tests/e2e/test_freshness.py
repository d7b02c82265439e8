"""How fresh listings reach the chat, as a user reads it (issue 34): a board that says when
each listing was posted, `hunter run --once` alerting it on LINE, then `hunter status` (text
and JSON) and สถานะ's line, with SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.support.board import Board
from tests.support.cli import on_both_stores, run_hunter, write_config
from tests.support.line_standin import LineStandIn


def answer(jobs: list[tuple[int, timedelta]]) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {
        "jobs": [
            {"id": n, "title": f"python job {n}", "url": f"https://x.test/{n}",
             "posted": (now - ago).isoformat()}
            for n, ago in jobs
        ]
    }  # fmt: skip


@on_both_stores
def test_status_says_how_long_listings_took_from_posted_to_sent(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    url = board.serve_json("/api", answer([(1, timedelta(hours=3))]))
    source = {"name": "api", "kind": "json", "url": url, "items": "jobs", "id": "id",
              "title": "title", "link": "url", "posted": "posted"}  # fmt: skip
    write_config(tmp_path, [source])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    jobs = [(1, timedelta(hours=3)), (2, timedelta(minutes=10)), (3, timedelta(minutes=20))]
    board.serve_json("/api", answer(jobs))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert sorted(line.delivered) == ["python job 2", "python job 3"]
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    fresh = status["sources"][0]["freshness"]
    assert fresh["sent"] == 2 and fresh["posted_times"] == 2
    assert 10 * 60 <= fresh["posted_to_sent"]["median_s"] <= 16 * 60  # (10 + 20) / 2 min
    assert 18 * 60 <= fresh["posted_to_sent"]["p90_s"] <= 22 * 60
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert "posted -> sent: median 1" in text and "(2 sent in 7 days, 2 with a posted time)" in text
    markdown = run_hunter(tmp_path, "status", "--markdown", env=env)
    assert markdown.returncode == 0
    [row] = [line for line in markdown.stdout.splitlines() if line.startswith("| api |")]
    assert "`······█` 2 |" in row  # today's two, after six days of none


@on_both_stores
def test_status_says_each_sources_reads_today_and_its_next_read(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    """Issue 34: per source, the reads today, when it is read next and why, as text and JSON."""
    url = board.serve_json("/api", answer([(1, timedelta(hours=3))]))
    source = {"name": "api", "kind": "json", "url": url, "items": "jobs", "id": "id",
              "title": "title", "link": "url", "posted": "posted"}  # fmt: skip
    write_config(tmp_path, [source], schedule="learned")
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes, learns
    board.serve_json("/api", answer([(1, timedelta(hours=3)), (2, timedelta(minutes=4))]))
    second = run_hunter(tmp_path, "run", "--once", env=env)  # seconds later: nothing is due
    assert "1 not due yet" in second.stderr and line.delivered == []
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    schedule = status["sources"][0]["schedule"]
    assert schedule["reads_today"] == 1
    assert schedule["read_budget"] == 96  # twice what interval_minutes = 30 reads (issue 56)
    assert schedule["next_read_reason"] in ("busy", "quiet", "new")
    next_read = datetime.fromisoformat(schedule["next_read_at"])
    assert timedelta(minutes=4) <= next_read - datetime.now(UTC) <= timedelta(hours=3)
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert "1 read today (at most 96 a day); next read " in text
    assert " hour for it (~" in text or "still learning its hours" in text
