"""A burst is delivered, a flood is a board that renumbered (issue 45, finding 2), as a user
runs it: the CLI as a subprocess against a board and the LINE stand-in. More than
`flood_threshold` (30) new listings in one read were all recorded silently, so a cron run
that came late after 31 new listings sent none of them. Now a read is a flood only when none
of what it shows was seen before, and its listings do not say they were posted since the last
read; a board's times without a zone are read in the source's `timezone`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import LineStandIn

SEED = [("1", "python seed one"), ("2", "python seed two")]
NEW_YORK = ZoneInfo("America/New_York")


def run(folder: Path, env: dict[str, str]) -> Any:
    result = run_hunter(folder, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    return result


def test_a_late_run_delivers_all_31_new_listings_and_a_renumbered_board_stays_silent(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    url = board.serve_jobs("/jobs", SEED)
    write_config(tmp_path, [html_source("board", url)], flood_threshold=30)
    run(tmp_path, env)
    burst = [(f"b{n}", f"python burst {n}") for n in range(31)]
    board.serve_jobs("/jobs", [*burst, *SEED])  # 31 new above the two still shown
    run(tmp_path, env)
    assert sorted(line.delivered) == sorted(title for _id, title in burst)  # each, once
    renumbered = [(f"r{n}", f"python renumbered {n}") for n in range(40)]
    board.serve_jobs("/jobs", renumbered)  # nothing seen before is left: a renumbered board
    run(tmp_path, env)
    assert line.delivered[31:] == ["📦 board showed 40 new listings and none it showed before"]


def board_of(board: Board, items: list[tuple[str, datetime]]) -> str:
    """A JSON board writing its posted times as New York's local time, with no zone."""
    document = {
        "jobs": [
            {"id": i, "title": f"python job {i}", "posted": t.astimezone(NEW_YORK).strftime(
                "%Y-%m-%d %H:%M:%S")}
            for i, t in items
        ]
    }  # fmt: skip
    return board.serve_json("/api", document)


def json_source(url: str, **more: Any) -> dict[str, Any]:
    return {"name": "ny", "kind": "json", "url": url, "items": "jobs", "id": "id",
            "title": "title", "posted": "posted", **more}  # fmt: skip


def test_a_burst_that_fills_the_page_is_told_from_a_renumbering_by_its_local_times(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """A board whose page shows 40 and whose times are New York's, without a zone: 40 new
    ones posted since the last read fill the page, nothing seen before is left on it, and
    their times say they are new. Read as UTC (before), they looked five hours old: a flood,
    recorded silently."""
    env = base_env(tmp_path, **line.env())
    now = datetime.now(UTC)
    url = board_of(board, [(f"old{n}", now - timedelta(days=2)) for n in range(40)])
    write_config(tmp_path, [json_source(url, timezone="America/New_York")],
                 timezone="Asia/Bangkok", flood_threshold=30)  # fmt: skip
    run(tmp_path, env)
    board_of(board, [(f"new{n}", now + timedelta(seconds=n)) for n in range(40)])
    run(tmp_path, env)
    assert sorted(line.delivered) == sorted(f"python job new{n}" for n in range(40))
    # renumbered: the same 40, under new ids, keep their times of two days ago
    board_of(board, [(f"again{n}", now - timedelta(days=2)) for n in range(40)])
    run(tmp_path, env)
    assert line.delivered[40:] == ["📦 ny showed 40 new listings and none it showed before"]
