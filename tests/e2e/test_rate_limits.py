"""One chat's rate limit is that chat's alone, as a user runs it: the owner on LINE, a
Telegram chat and a Discord channel, the CLI as a subprocess over six cron runs with two new
listings each. When Telegram holds one chat (its 429 "retry after N") or Discord one webhook,
every other chat gets each of its twelve listings as they come, and the held chat gets its own
once the limit is over: nothing is lost, nothing twice (issue 45, finding 1: a 429 ended the
whole delivery, and the refused batch, first at every poll, ended the next one too)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.discord_standin import WEBHOOK_ID, DiscordStandIn
from tests.support.line_standin import LineStandIn
from tests.support.telegram_standin import TelegramStandIn

ME = 111  # the Telegram user of the [[chats]] "tg"
RUNS, EACH = 6, 2


@pytest.fixture
def env(
    tmp_path: Path, line: LineStandIn, telegram: TelegramStandIn, discord: DiscordStandIn
) -> dict[str, str]:
    extra = {**line.env(), **telegram.env(), "DISCORD_WEBHOOK_TEAM": discord.webhook_url()}
    return base_env(tmp_path, **extra)


def run(folder: Path, env: dict[str, str]) -> Any:
    result = run_hunter(folder, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    return result


def six_runs(folder: Path, board: Board, env: dict[str, str]) -> list[str]:
    """Prime, then six runs that each find two new matching listings; their titles."""
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    write_config(
        folder,
        [html_source("board", url)],
        filter={"include": ["python"]},
        chats=[{"name": "tg", "to": f"telegram:{ME}"}, {"name": "team", "to": "discord:team"}],
        backoff_seconds=[0.2, 0.2, 0.2, 0.2, 0.5],
    )
    run(folder, env)
    jobs: list[tuple[str, str]] = [("seed", "python seed")]
    for n in range(RUNS):
        jobs = [(f"j{n}{k}", f"python job {n}.{k}") for k in range(EACH)] + jobs
        board.serve_jobs("/jobs", jobs)
        run(folder, env)
    return sorted(title for _id, title in jobs if _id != "seed")


def run_until(folder: Path, env: dict[str, str], arrived: Any) -> None:
    """Run again (a cron) until `arrived()` says so: a 429's wait is a few seconds."""
    deadline = time.monotonic() + 30
    while not arrived() and time.monotonic() < deadline:
        time.sleep(0.5)
        run(folder, env)


def on_telegram(telegram: TelegramStandIn) -> list[str]:
    return sorted(text.split("\n", 1)[0] for text in telegram.texts(ME))


@pytest.mark.parametrize("held", ["telegram", "discord"])
def test_a_chat_held_by_its_429_holds_no_other_chat(
    tmp_path: Path,
    board: Board,
    line: LineStandIn,
    telegram: TelegramStandIn,
    discord: DiscordStandIn,
    env: dict[str, str],
    held: str,
) -> None:
    if held == "telegram":
        telegram.refusing[ME] = 1  # "Too Many Requests: retry after 1", every time
    else:
        discord.refusing[WEBHOOK_ID] = 1.0  # {"retry_after": 1, "global": false}, every time
    titles = six_runs(tmp_path, board, env)
    assert len(titles) == RUNS * EACH == 12
    got = {"telegram": lambda: on_telegram(telegram), "discord": lambda: sorted(discord.titles())}
    assert sorted(line.delivered) == titles  # the owner: all twelve, once each
    assert all(got[other]() == titles for other in got if other != held)  # the other chat
    assert got[held]() == []
    telegram.refusing.clear()  # the limit is over: what waited goes, once
    discord.refusing.clear()
    run_until(tmp_path, env, lambda: len(got[held]()) >= len(titles))
    assert got[held]() == titles
    assert sorted(line.delivered) == titles and all(g() == titles for g in got.values())
