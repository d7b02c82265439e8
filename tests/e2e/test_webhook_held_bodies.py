"""`hunter run` with the webhook on, under issue 29's second attack for 30 s: 600 connections
each send a whole signed-looking head announcing a 60 KB body, then nothing, and open again as
soon as the server closes them. Before the fix they filled every connection slot (a connection
whose head was in counted as busy and was never dropped to make room): LINE got 2 answers of
23, /healthz 3 of 23. LINE's signed requests must each be answered 200 within 2 s."""

from __future__ import annotations

from pathlib import Path

from tests.support.board import Board, html_source
from tests.support.cli import base_env, start_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.local_server import free_port, wait_for
from tests.support.siege import Attack, besiege
from tests.support.webhook import SECRET

HELD_SMALL_BODIES = Attack(slowloris=0, held_bodies=0, posters=0, held_small=600, seconds=30)


def test_held_small_bodies_never_shut_line_out(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    write_config(tmp_path, [html_source("board", url)], interval_minutes=30)
    port = free_port()
    env = base_env(tmp_path, PORT=str(port), LINE_CHANNEL_SECRET=SECRET, **line.env())
    process = start_hunter(tmp_path, "run", env=env)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", 200, 60)
        report = besiege("127.0.0.1", port, process.pid, SECRET, HELD_SMALL_BODIES)
    finally:
        process.terminate()
        _out, log = process.communicate(timeout=40)
    summary = report.summary()
    assert report.held_small_opened > 600, summary  # the server closed them, they came back
    assert len(report.signed) >= 40, summary
    assert all(status == 200 for status, _ in report.signed), summary
    assert report.slowest_signed() < 2.0, summary
    assert report.healthz and all(status == 200 for status, _ in report.healthz), summary
    assert process.returncode == 0 and "Traceback" not in log
