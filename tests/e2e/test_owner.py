"""The owner is a chat like any other (issue 42): `owner = "<to>"` in hunter.toml names it on
any channel, LINE_TO being its old spelling. A person on Telegram alone gets the global
[filter]'s listings and hunter's own notices there, with no LINE at all; two owners, or an
owner no channel knows, are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.telegram_standin import TelegramStandIn

ME = 111  # a private chat of the Telegram stand-in: a person who pressed Start


def test_an_owner_on_telegram_gets_the_listings_and_the_notices(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    env = base_env(tmp_path, **telegram.env())  # no LINE variable at all
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    write_config(
        tmp_path,
        [html_source("board", url)],
        owner=f"telegram:{ME}",
        broken_after=2,
        filter={"include": ["python"]},
    )
    first = run_hunter(tmp_path, "run", "--once", env=env)
    assert first.returncode == 0, first.stderr
    assert "alerts to Telegram" in first.stdout and telegram.delivered == []  # primed
    board.serve_jobs("/jobs", [("2", "python api"), ("3", "php shop"), ("seed", "python seed")])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # nothing twice
    assert [text.split("\n", 1)[0] for text in telegram.texts(ME)] == ["python api"]
    # the board breaks: the owner is told, on Telegram
    board.serve("/jobs", "down", status=500)
    for _ in range(2):
        run_hunter(tmp_path, "run", "--once", env=env)
    told = [text for text in telegram.texts(ME) if "stopped working" in text]
    assert len(told) == 1 and "board" in told[0]
    check = run_hunter(tmp_path, "check", env={**env})
    assert f"LINE: not configured; the owner is telegram:{ME}" in check.stdout
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    [owner] = status["chats"]
    assert owner["to"] == f"telegram:{ME}" and owner["waiting"] == 0


def test_two_owners_or_an_unknown_one_is_one_line_and_exit_2(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, line: LineStandIn
) -> None:
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    env = base_env(tmp_path, **telegram.env(), **line.env())  # LINE_TO names the LINE owner
    write_config(tmp_path, [html_source("board", url)], owner=f"telegram:{ME}")
    for command in (("check",), ("run", "--once")):
        result = run_hunter(tmp_path, *command, env=env)
        assert result.returncode == 2, result.stderr
        said = result.stderr.strip().splitlines()
        assert len(said) == 1 and "name two owners" in said[0] and "Traceback" not in said[0]
    write_config(tmp_path, [html_source("board", url)], owner="@me")
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path, **telegram.env()))
    assert result.returncode == 2 and "owner must be" in result.stderr
    # A new user's: a username is no chat id, and says where the number is
    write_config(tmp_path, [html_source("board", url)], owner="telegram:@my_username")
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path, **telegram.env()))
    assert result.returncode == 2 and "a username is not a chat id" in result.stderr
    assert telegram.delivered == [] and line.pushes == []


def test_an_owner_written_with_spaces_around_its_prefix_is_that_chat(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    """A new user's find: owner = "telegram: 123456789 " (a space after the colon, one
    pasted after the number) was refused as no chat's id."""
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    write_config(tmp_path, [html_source("board", url)], owner=f"telegram: {ME} ")
    env = base_env(tmp_path, **telegram.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs("/jobs", [("new", "python new"), ("seed", "python seed")])
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert [m.text.splitlines()[0] for m in telegram.delivered] == ["python new"]
