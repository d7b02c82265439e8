"""hunter as a user runs it: the CLI as a subprocess, a job board and LINE on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from tests.support.board import Board, html_source
from tests.support.cli import on_both_stores, run_hunter, write_config
from tests.support.line_standin import TOKEN, LineStandIn

FIRST = [("1", "Old python job"), ("2", "Old logo job"), ("3", "Old writing job")]
NEW = [("4", "New Python bot"), ("5", "Logo design"), ("6", "python scraper for a shop")]


@on_both_stores
def test_prime_then_alert_each_new_match_once(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    url = board.serve_jobs("/jobs", FIRST, budget="฿8,000")
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})

    first = run_hunter(tmp_path, "run", "--once", env=env)
    assert first.returncode == 0, first.stderr
    assert line.pushes == []  # priming is silent
    assert "primed silently: 3 listings" in first.stderr

    board.serve_jobs("/jobs", NEW + FIRST, budget="฿8,000")
    second = run_hunter(tmp_path, "run", "--once", env=env)
    assert second.returncode == 0, second.stderr
    assert sorted(line.delivered) == ["New Python bot", "python scraper for a shop"]
    assert len(line.pushes) == 1  # both in one request

    for _ in range(2):  # a re-poll and a restart (every run is a new process)
        again = run_hunter(tmp_path, "run", "--once", env=env)
        assert again.returncode == 0, again.stderr
    assert len(line.pushes) == 1
    for result in (first, second, again):
        assert TOKEN not in result.stdout + result.stderr

    status = run_hunter(tmp_path, "status", "--json", env=env)
    assert '"sent_last_24h": 2' in status.stdout


@on_both_stores
def test_hostile_listing_is_still_alerted_and_valid(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    url = board.url + "/feed"
    board.serve_json("/feed", {"jobs": []})
    source = {
        "name": "api",
        "kind": "json",
        "url": url,
        "items": "jobs",
        "id": "id",
        "title": "title",
        "link": "link",
        "summary": "summary",
    }
    write_config(tmp_path, [source])
    board.serve_json("/feed", {"jobs": [{"id": 0, "title": "seed", "link": "https://x.test/0"}]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    hostile = [
        {
            "id": 1,
            "title": "งานด่วน 🚀🔥 " * 1500,
            "link": "https://x.test/1",
            "summary": "ก" * 20000,
        },
        {"id": 2, "title": "Click me", "link": "javascript:alert(1)"},
        {"id": 3, "title": "Long link", "link": "https://x.test/?q=" + "a" * 3000},
    ]
    board.serve_json("/feed", {"jobs": hostile})
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    delivered = line.delivered
    assert (
        len(delivered) == 3 and delivered[0].startswith("งานด่วน 🚀🔥") and "Click me" in delivered
    )
    # The `line` fixture fails the test if any request broke the spec or LINE's limits.
