"""Telegram beside LINE, as a user runs it: the CLI as a subprocess, the owner on LINE and a
[[chats]] on Telegram, with a SQLite file and with PostgreSQL. Each matching listing reaches
each chat once; LINE's monthly count grows by LINE's pushes only; and each of Telegram's
failures ends with nothing twice and nothing silently lost: a 500 and a 429 are retried, a
lost answer and a kill -9 mid-send are "delivery unknown" (Telegram has no retry key),
visible and retryable, and a user who blocked the bot stops its rows and is told once."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, start_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.local_server import free_port, wait_for
from tests.support.telegram_standin import TOKEN, TelegramStandIn

FAST = {"backoff_seconds": [0.2, 0.2, 0.2, 0.2, 0.5], "lease_seconds": 2}
ME = 111  # the Telegram user of the [[chats]] "tg"


@pytest.fixture
def tg_env(env: dict[str, str], telegram: TelegramStandIn) -> dict[str, str]:
    return {**env, **telegram.env()}


def configure(folder: Path, url: str) -> None:
    write_config(
        folder,
        [html_source("board", url)],
        filter={"include": ["python"]},
        chats=[{"name": "tg", "to": f"telegram:{ME}"}],
        **FAST,
    )


def prime_then_post(folder: Path, board: Board, env: dict[str, str], titles: list[str]) -> None:
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    configure(folder, url)
    assert run(folder, env).returncode == 0
    jobs = [(f"j{n}", title) for n, title in enumerate(titles, start=1)]
    board.serve_jobs("/jobs", [*jobs, ("seed", "python seed")])


def run(folder: Path, env: dict[str, str], *args: str) -> Any:
    result = run_hunter(folder, *(args or ("run", "--once")), env=env)
    assert result.returncode in (0, 1), result.stderr
    return result


def titles_on_telegram(telegram: TelegramStandIn) -> list[str]:
    return sorted(text.split("\n", 1)[0] for text in telegram.texts(ME))


def rows(folder: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    return json.loads(run(folder, env, "status", "--json").stdout)["rows"]


def test_each_listing_reaches_line_and_telegram_once_and_line_counts_its_own(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    prime_then_post(tmp_path, board, tg_env, ["python bot", "python scraper"])
    assert line.pushes == [] and telegram.delivered == []  # priming is silent
    started = run(tmp_path, tg_env)
    assert "alerts to LINE and Telegram" in started.stdout
    run(tmp_path, tg_env)  # the same page again: nothing twice
    assert sorted(line.delivered) == ["python bot", "python scraper"]
    assert titles_on_telegram(telegram) == ["python bot", "python scraper"]
    assert line.used == 1  # one LINE push of both; Telegram's two messages cost nothing there
    status = run(tmp_path, tg_env, "status").stdout
    assert "tg" in status and "telegram:111" in status
    check = run(tmp_path, tg_env, "check").stdout
    assert "Telegram: bot hunter test (@hunter_test_bot), pushing to tg" in check
    assert TOKEN not in started.stdout + started.stderr + check  # a secret, never shown


def test_a_500_and_a_429_are_retried_and_delivered_once(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    prime_then_post(tmp_path, board, tg_env, ["python one", "python two"])
    telegram.script.extend(["500", "429:1"])
    run(tmp_path, tg_env)
    run(tmp_path, tg_env)
    assert titles_on_telegram(telegram) == ["python one", "python two"]
    assert rows(tmp_path, tg_env) == []  # all sent


def test_a_lost_answer_is_held_never_sent_twice_and_retry_sends_it(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    prime_then_post(tmp_path, board, tg_env, ["python lost"])
    telegram.script.append("lost")
    held = run(tmp_path, tg_env)
    # A new user's find: the cron run went green while the alert waited for a person
    assert held.returncode == 1, held.stderr
    assert "1 alert stuck, delivery unknown" in held.stderr.splitlines()[-1]
    assert "hunter retry --all" in held.stderr and "1 stuck, delivery unknown" in held.stderr
    time.sleep(FAST["lease_seconds"] + 0.5)
    assert run(tmp_path, tg_env).returncode == 0  # nothing more happened: green again
    assert titles_on_telegram(telegram) == ["python lost"]  # once, though no answer came
    [row] = rows(tmp_path, tg_env)
    assert row["status"] == "stuck" and "delivery unknown" in row["last_error"]
    assert run(tmp_path, tg_env, "retry", "--all").returncode == 0
    run(tmp_path, tg_env)
    assert titles_on_telegram(telegram) == ["python lost", "python lost"]  # asked for
    assert rows(tmp_path, tg_env) == []


def test_kill_9_mid_send_holds_the_listing_for_a_person(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    prime_then_post(tmp_path, board, tg_env, ["python killed"])
    telegram.script.append("hold")
    process = start_hunter(tmp_path, "run", "--once", env=tg_env)
    deadline = time.monotonic() + 30
    while not telegram.delivered and time.monotonic() < deadline:
        time.sleep(0.05)
    assert telegram.delivered, "hunter never sent"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    time.sleep(FAST["lease_seconds"] + 0.5)
    run(tmp_path, tg_env)
    assert titles_on_telegram(telegram) == ["python killed"]  # never a second send
    [row] = rows(tmp_path, tg_env)
    assert row["status"] == "stuck" and "hunter stopped while it was sent" in row["last_error"]


def test_a_user_who_blocked_the_bot_stops_its_rows_and_the_owner_is_told_once(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    prime_then_post(tmp_path, board, tg_env, ["python a"])
    run(tmp_path, tg_env)
    assert titles_on_telegram(telegram) == ["python a"]
    telegram.blocked.add(ME)  # the user blocks the bot; two more listings come
    jobs = [("j1", "python a"), ("j2", "python b"), ("j3", "python c"), ("seed", "python seed")]
    board.serve_jobs("/jobs", jobs)
    for _ in range(3):
        run(tmp_path, tg_env)
    sends = [body for method, body in telegram.calls if method == "sendMessage"]
    assert len(sends) == 2  # "python a", then one refusal (403): its rows wait, never a loop
    gone = [title for title in line.delivered if title.startswith("🚪")]
    assert gone == ["🚪 The bot is no longer in chat tg (telegram:111)"]
    [told] = [p for p in line.pushes if p.status == 200 and p.titles == gone]
    assert "Telegram says Forbidden: bot was blocked by the user." in json.dumps(told.body)
    status = json.loads(run(tmp_path, tg_env, "status", "--json").stdout)
    assert status["outbox"]["pending"] == 2  # waiting, not lost


def test_a_telegram_chat_without_a_token_or_with_a_bad_one_stops_with_one_line(
    tmp_path: Path, board: Board, tg_env: dict
) -> None:
    configure(tmp_path, board.serve_jobs("/jobs", [("1", "python")]))
    missing = {k: v for k, v in tg_env.items() if k != "TELEGRAM_BOT_TOKEN"}
    result = run_hunter(tmp_path, "run", "--once", env=missing)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "[[chats]] 'tg' is a Telegram chat, and TELEGRAM_BOT_TOKEN is not set" in result.stderr
    bad = "999:not-a-token-at-all"
    result = run_hunter(tmp_path, "run", "--once", env={**tg_env, "TELEGRAM_BOT_TOKEN": bad})
    assert result.returncode == 2 and "is not a bot token" in result.stderr
    assert bad not in result.stderr


def test_a_token_telegram_refuses_mid_run_stops_the_run_with_the_fix_and_loses_nothing(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, tg_env: dict
) -> None:
    """A token of the right shape that Telegram refuses (revoked in BotFather, or another
    bot's): the first check of a chat met the 401, logged a WARNING, exited 0 and left the
    rows pending with no reason anywhere. Now its push meets it, its row says the fix, the
    run exits 2 with that one line, and once the token is right each listing goes once."""
    prime_then_post(tmp_path, board, tg_env, ["python one", "python two", "python three"])
    revoked = "123456789:AAHrevoked-token-of-the-same-shape_0123"
    bad = {**tg_env, "TELEGRAM_BOT_TOKEN": revoked}
    result = run_hunter(tmp_path, "run", "--once", env=bad)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("hunter: Telegram rejected the bot token: check TELEGRAM_BOT_TOKEN")
    assert "hunter retry --all" in last and revoked not in result.stderr + result.stdout
    assert telegram.texts(ME) == []
    status = run_hunter(tmp_path, "status", env=bad).stdout
    assert "stuck 1" in status and "Telegram rejected the bot token" in status
    assert (
        "tg (telegram:111): Telegram, no monthly quota, 0 sent this month, 2 waiting, 1 stuck"
        in status
    )
    assert run_hunter(tmp_path, "retry", "--all", env=tg_env).returncode == 0
    assert run(tmp_path, tg_env).returncode == 0
    assert titles_on_telegram(telegram) == ["python one", "python three", "python two"]
    assert rows(tmp_path, tg_env) == []  # nothing waits or is stuck


def test_a_worker_started_with_a_token_telegram_refuses_stops_at_start(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, tg_env: dict
) -> None:
    """A new user's find: `hunter run` with a revoked token started and looked healthy until
    the first push met the 401. It proves the token at start, as it does LINE's."""
    configure(tmp_path, board.serve_jobs("/jobs", [("seed", "python seed")]))
    revoked = {**tg_env, "TELEGRAM_BOT_TOKEN": "123456789:AAHrevoked-token-of-the-same-shape_0123"}
    result = run_hunter(tmp_path, "run", env=revoked, timeout=60, own_process=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "hunter: Telegram rejected the bot token (401): check TELEGRAM_BOT_TOKEN (BotFather's "
        "/token)"
    )


def test_a_first_run_once_that_sends_nothing_still_proves_the_token(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, tg_env: dict
) -> None:
    """A new user's find: the first `run --once` (it primes: nothing is sent) with a revoked
    token exited 0, and the cron looked green until the first new listing. A run that pushed
    nothing asks getMe, so the 401 turns it red at once; nothing primed is lost."""
    configure(tmp_path, board.serve_jobs("/jobs", [("seed", "python seed")]))
    revoked = {**tg_env, "TELEGRAM_BOT_TOKEN": "123456789:AAHrevoked-token-of-the-same-shape_0123"}
    result = run_hunter(tmp_path, "run", "--once", env=revoked)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("hunter: Telegram rejected the bot token (401): check TELEGRAM_BOT")
    assert run_hunter(tmp_path, "run", "--once", env=tg_env).returncode == 0
    assert telegram.texts(ME) == []  # the seed was primed, never sent


def test_a_worker_that_cannot_reach_telegram_at_start_goes_on(
    tmp_path: Path, board: Board, tg_env: dict
) -> None:
    """Telegram away at start is no config error: the worker says so and serves (its
    deliveries retry by themselves), as it does for LINE."""
    configure(tmp_path, board.serve_jobs("/jobs", [("seed", "python seed")]))
    port = free_port()
    away = {
        **tg_env,
        "HUNTER_TELEGRAM_API_URL": f"http://127.0.0.1:{free_port()}",
        "PORT": str(port),
    }
    process = start_hunter(tmp_path, "run", env=away)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", 200, 60)
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=60)
    assert "could not check the Telegram token at start (cannot reach Telegram:" in err
    assert "refused the connection" in err and "Traceback" not in err


def test_check_asks_telegram_for_each_chat_and_names_a_wrong_id(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    """A new user's find: an owner id Telegram does not know (a typo, or a person who never
    pressed Start) passed `hunter check`, which asked getMe only; the run then took the chat
    as gone. check asks getChat for each of hunter.toml's Telegram chats."""
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    chats = [{"name": "tg", "to": f"telegram:{ME}"}]
    write_config(tmp_path, [html_source("board", url)], owner="telegram:4242", chats=chats)
    env = {**base_env(tmp_path), **telegram.env()}
    check = run_hunter(tmp_path, "check", env=env)
    assert check.returncode == 1
    lines = check.stdout.splitlines()
    assert (
        "Telegram chat owner (telegram:4242): FAILED: Telegram says Bad Request: chat not found: "
        "check its id, and that its person sent the bot /start (a group: that the bot was added)"
    ) in lines
    assert not [line for line in lines if line.startswith("Telegram chat tg ")]  # it is there
    telegram.users.add(4242)  # its person presses Start
    assert run_hunter(tmp_path, "check", env=env).returncode == 0


def test_a_listing_telegram_refuses_is_told_as_telegrams_refusal(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    """Issue 35: a 400 from Telegram is Telegram's, in `hunter status`, not LINE's."""
    prime_then_post(tmp_path, board, tg_env, ["python refused"])
    telegram.script.append("400:message is too long")
    run(tmp_path, tg_env)
    [row] = rows(tmp_path, tg_env)
    assert row["status"] == "stuck"
    assert row["last_error"] == "Telegram rejected this listing: Bad Request: message is too long"
    status = run(tmp_path, tg_env, "status").stdout
    assert "Telegram rejected this listing" in status and "LINE rejected" not in status


def test_an_ampersand_in_a_title_is_shown_as_one(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, tg_env: dict
) -> None:
    """The stand-in reads Telegram's HTML once, as Telegram does: "&amp;lt;" is "&lt;"."""
    prime_then_post(tmp_path, board, tg_env, ["python R&D &lt;team&gt;"])
    run(tmp_path, tg_env)
    assert titles_on_telegram(telegram) == ["python R&D &lt;team&gt;"]


def test_a_role_next_to_the_chats_words_reaches_telegram_marked_near_them(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    """Made-up listings: a backend developer's chat on Telegram is told of a full-stack
    engineer's job, with the 💡 mark that says it is near its words, not one of them; a
    job of no neighbouring role stays out."""
    from tests.support.cli import base_env

    env = base_env(tmp_path, **telegram.env())
    url = board.serve_jobs("/jobs", [("1", "Seed listing")])
    write_config(
        tmp_path,
        [html_source("board", url)],
        owner="telegram:111",
        filter={"include": ["Backend Developer"]},
    )
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs(
        "/jobs", [("3", "Full-stack Engineer"), ("2", "Pastry Chef"), ("1", "Seed listing")]
    )
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    [text] = telegram.texts(111)
    assert text.startswith("Full-stack Engineer")
    assert "💡" in text and "near your words" in text and "Backend Developer" in text
