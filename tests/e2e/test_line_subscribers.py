"""A LINE friend who joins (issue 42), as a user runs it: `[subscribers] join = "open"` with
`on = ["line"]`, the owner on LINE (LINE_TO), `hunter run` with PORT answering signed webhook
events and polling a local board every 3 s, against the LINE stand-in. The friend adds the
bot, sets a word from the chat and gets the next listing of that word, pushed to its own
user id and counted in LINE's month (each friend's push costs a message); the owner's word
never reaches it, nor its word the owner. A friend of a setup without `on` naming LINE is
told the bot is private, as before."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, start_hunter, write_config
from tests.support.line_standin import TO, LineStandIn
from tests.support.local_server import free_port, wait_for
from tests.support.webhook import SECRET, STRANGER, event, payload, post


def start(folder: Path, board: Board, line: LineStandIn, **subscribers: Any) -> tuple[Any, str]:
    """hunter run, primed, with its webhook's address; the board shows a seed."""
    env = base_env(folder, LINE_CHANNEL_SECRET=SECRET, **line.env())
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    write_config(
        folder,
        [html_source("board", url)],
        interval_minutes=0.05,
        filter={"include": ["owner-word"]},
        subscribers=subscribers,
    )
    assert run_hunter(folder, "run", "--once", env=env).returncode == 0  # primes
    port = free_port()
    process = start_hunter(folder, "run", env={**env, "PORT": str(port)})
    wait_for(f"http://127.0.0.1:{port}/healthz", 200, 60)
    return process, f"http://127.0.0.1:{port}"


def say(line: LineStandIn, url: str, kind: str, **fields: Any) -> list[str]:
    """What hunter replies to the stranger's event."""
    token = line.chat.issue_token()
    before = len(line.chat.replies)
    assert post(url, payload(event(kind, STRANGER, reply_token=token, **fields))).status_code == 200
    deadline = time.monotonic() + 20
    while len(line.chat.replies) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    return [text for reply in line.chat.replies[before:] for text in reply.texts]


def pushed_to(line: LineStandIn, to: str) -> list[str]:
    return [t for p in line.pushes if p.status == 200 and p.to == to for t in p.titles]


def stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    _out, err = process.communicate(timeout=30)
    return err


def test_a_line_friend_joins_sets_a_word_and_gets_its_listings(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    process, url = start(tmp_path, board, line, join="open", on=["line"])
    try:
        welcome = say(line, url, "follow")
        assert welcome and "private" not in " ".join(welcome).lower()
        added = say(line, url, "message", text="เพิ่ม rust")
        assert any("rust" in text for text in added), added
        before = line.used
        board.serve_jobs(
            "/jobs",
            [("j1", "rust backend engineer"), ("j2", "owner-word job"), ("seed", "seed listing")],
        )
        deadline = time.monotonic() + 30
        while (not pushed_to(line, STRANGER) or not pushed_to(line, TO)) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.1)
        assert pushed_to(line, STRANGER) == ["rust backend engineer"]
        assert pushed_to(line, TO) == ["owner-word job"]  # the owner's word, the owner's push
        assert line.used == before + 2  # each friend's push is a message of LINE's month
    finally:
        err = stop(process)
    assert SECRET not in err and line.token not in err
    assert not line.violations and not line.chat.violations


def test_without_on_naming_line_a_friend_is_told_the_bot_is_private(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    process, url = start(tmp_path, board, line, join="open", on=["telegram"])
    try:
        told = say(line, url, "message", text="เพิ่ม rust")
        assert any("private" in text.lower() for text in told), told
        board.serve_jobs("/jobs", [("j1", "rust backend engineer"), ("seed", "seed listing")])
        read = board.hits.get("/jobs", 0)
        deadline = time.monotonic() + 30
        while board.hits.get("/jobs", 0) < read + 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # two polls after the post: nothing may reach the stranger
        assert board.hits.get("/jobs", 0) >= read + 2
        assert pushed_to(line, STRANGER) == []
    finally:
        stop(process)
