"""Tuning from the chat through the real path: `hunter run` answers LINE's signed webhook (the
LINE stand-in checks every reply), and a separate `hunter run --once` on the same database, as
cron would run it, polls and pushes with what the chat changed; on SQLite and on PostgreSQL.
Then `hunter status` shows the changes, `hunter check` judges with them, and
`hunter tuning --reset` brings back hunter.toml's rules."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, start_hunter, write_config
from tests.support.line_standin import TO, LineStandIn, titles_of
from tests.support.local_server import free_port, wait_for
from tests.support.webhook import SECRET, event, payload, post


def test_add_remove_budget_floor_pause_and_resume_change_the_next_poll(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """On SQLite: the chat's rules on every store are tests/contract/test_chat_store.py's."""
    shown = [("seed", "seed")]
    url = board.serve_jobs("/jobs", shown)
    write_config(
        tmp_path, [html_source("board", url)], interval_minutes=600, filter={"include": ["python"]}
    )
    env = base_env(tmp_path, LINE_CHANNEL_SECRET=SECRET, **line.env())
    port = free_port()
    server = start_hunter(tmp_path, "run", env={**env, "PORT": str(port)})
    webhook = f"http://127.0.0.1:{port}"

    def say(text: str) -> str:
        token = line.chat.issue_token()
        assert post(webhook, payload(event("message", TO, token, text=text))).status_code == 200
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            answered = [r for r in line.chat.replies if r.token == token]
            if answered:
                return answered[0].texts[0]
            time.sleep(0.05)
        raise AssertionError(f"no reply to {text!r}")

    def appear(job: str, title: str, budget: str = "") -> list[str]:
        """The board shows one listing more; the titles a separate `run --once` pushes."""
        shown.append((job, title))
        board.serve("/jobs", page(shown, {job: budget}))
        before = len(line.pushes)
        result = run_hunter(tmp_path, "run", "--once", env=env)
        assert result.returncode == 0, result.stderr
        return [t for push in line.pushes[before:] for t in titles_of(push.body)]

    budgets: dict[str, str] = {}

    def page(jobs: list[tuple[str, str]], new: dict[str, str]) -> str:
        budgets.update(new)
        items = "".join(
            f'<li class="job" data-jid="{j}"><h3><a href="https://x.test/{j}">{t}</a></h3>'
            f'<span class="price">{budgets.get(j, "")}</span></li>'
            for j, t in jobs
        )
        return f"<ul>{items}</ul>"

    try:
        wait_for(f"{webhook}/healthz", 200, 60)  # its first poll primed the board
        assert "django" in say("เพิ่ม django")
        assert appear("1", "django api") == ["django api"]
        assert "python" in say("remove python")
        assert appear("2", "python bot") == []
        assert "5,000" in say("งบ 5000")
        assert appear("3", "django small", "฿3,000") == []
        assert appear("4", "django big", "฿8,000") == ["django big"]
        assert "paused" in say("pause")
        assert appear("5", "django later", "฿9,000") == []
        assert "resume" in say("ต่อ")
        assert sorted(appear("6", "django again", "฿9,000")) == ["django again", "django later"]
        assert "$25 ต่อชั่วโมง" in say("งบ $25/ชม.")  # a floor in other terms, beside ฿5,000
        assert "กรุงเทพ" in say("ที่ทำงาน กรุงเทพ ทำงานที่บ้าน")
        assert "th" in say("ภาษา ไทย อังกฤษ")
        assert appear("7", "django hourly", "$20/hr") == []
        assert appear("8", "django rate", "$30/hr") == ["django rate"]
    finally:
        server.terminate()
        server.communicate(timeout=40)
    assert server.returncode == 0

    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    [owner] = status["chats"]
    assert owner["tuning"]["added"] == ["django"] and owner["tuning"]["min_budget"] == 5000
    assert owner["tuning"]["floors"] == [{"amount": 25, "currency": "USD", "period": "hour"}]
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert (
        "changed from LINE: added django; removed python; min budget ฿5,000 a whole job; "
        "min budget 25 USD per hour"
    ) in text
    check = run_hunter(tmp_path, "check", env=env)
    assert "[matches 'django']" in check.stdout, check.stdout  # judged with the chat's words
    assert "[no include keyword]" in check.stdout, check.stdout  # python was removed
    # A new user's find: places and languages set from the chat were in neither, and
    # --reset dropped them without a word ("5 changes made from the chats dropped")
    tuned = run_hunter(tmp_path, "tuning", env=env).stdout
    assert "places กรุงเทพ, remote" in tuned and "languages th, en" in tuned, tuned
    assert "places กรุงเทพ, remote" in text
    reset = run_hunter(tmp_path, "tuning", "--reset", env=env)
    assert reset.returncode == 0 and "hunter.toml's rules apply again" in reset.stdout
    assert "owner: added django; removed python;" in reset.stdout, reset.stdout
    assert "places กรุงเทพ, remote" in reset.stdout and "--reset drops" not in reset.stdout
    assert "no chat changed" in run_hunter(tmp_path, "tuning", env=env).stdout
    assert appear_after_reset(tmp_path, env, board, line) == ["python again"]


def appear_after_reset(
    folder: Path, env: dict[str, str], board: Board, line: LineStandIn
) -> list[str]:
    """hunter.toml's rules again: python, no budget."""
    page = (
        '<ul><li class="job" data-jid="9"><h3><a href="https://x.test/9">python again</a></h3>'
        '<span class="price">฿100</span></li></ul>'
    )
    board.serve("/jobs", page)
    before = len(line.pushes)
    result: subprocess.CompletedProcess[str] = run_hunter(folder, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    return [t for push in line.pushes[before:] for t in titles_of(push.body)]
