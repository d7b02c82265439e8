"""A value pasted from a dashboard or a password manager: a line end, spaces or quotes around
it are taken off, and the alerts arrive once each. What no token, id or URL holds inside it
(a line break, a tab, an invisible character; in a secret, a space) stops hunter at start
with one line naming the variable, never its value, and nothing claimed. The same for every
channel's variables and hunter's own."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import TOKEN, LineStandIn
from tests.support.telegram_standin import TelegramStandIn

FIRST = [("1", "Old python job")]
NEW = [("2", "New python bot"), ("3", "python scraper")]


def rows(folder: Path) -> dict[str, str]:
    with closing(sqlite3.connect(folder / "hunter.db")) as db:
        return dict(db.execute("SELECT job_id, status FROM hunter_seen_jobs").fetchall())


def primed(folder: Path, board: Board, env: dict[str, str], **settings: object) -> None:
    url = board.serve_jobs("/jobs", FIRST)
    write_config(folder, [html_source("board", url)], filter={"include": ["python"]}, **settings)
    assert run_hunter(folder, "run", "--once", env=env).returncode == 0
    board.serve_jobs("/jobs", NEW + FIRST)


def assert_one_line(result: object, *needles: str, secret: str = TOKEN) -> None:
    out, err = result.stdout, result.stderr  # type: ignore[attr-defined]
    assert result.returncode == 2, err  # type: ignore[attr-defined]
    assert "Traceback" not in out + err
    said = [line for line in err.splitlines() if line.startswith("hunter: ")]
    assert len(said) == 1, err
    for needle in needles:
        assert needle in said[0], said[0]
    assert secret.strip() not in out + err


@pytest.mark.parametrize(
    "around",
    ["{}\n", "{}\r\n", "  {}  ", "\t{} \n", '"{}"', "\u200b{}\ufeff", "'{}'\n"],
    ids=["line-end", "crlf", "spaces", "tab-and-line-end", "quotes", "zero-width", "quoted-line"],
)
def test_a_line_token_and_id_pasted_with_what_surrounds_them_alert_once(
    tmp_path: Path, board: Board, line: LineStandIn, around: str
) -> None:
    clean = base_env(tmp_path, **line.env())
    primed(tmp_path, board, clean)
    pasted = {
        **clean,
        "LINE_CHANNEL_ACCESS_TOKEN": around.format(line.token),
        "LINE_TO": around.format(clean["LINE_TO"]),
    }
    for command in (["check"], ["run", "--once"], ["run", "--once"]):
        result = run_hunter(tmp_path, *command, env=pasted)
        assert "Traceback" not in result.stdout + result.stderr
        assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(line.delivered) == ["New python bot", "python scraper"]
    assert len(line.pushes) == 1
    assert set(rows(tmp_path).values()) <= {"sent", "primed"}


@pytest.mark.parametrize(
    ("name", "inside", "what"),
    [
        ("LINE_CHANNEL_ACCESS_TOKEN", "\n", "a line break"),
        ("LINE_CHANNEL_ACCESS_TOKEN", " ", "a space"),
        ("LINE_CHANNEL_SECRET", " ", "a space"),
        ("LINE_CHANNEL_ACCESS_TOKEN", "\u0e01", "a character no token, key or URL has (U+0E01)"),
        ("LINE_TO", "\r\n", "a line break"),
        ("LINE_CHANNEL_SECRET", "\t", "an invisible character"),
        ("HUNTER_LINE_API_URL", "\u200b", "an invisible character (U+200B)"),
    ],
)
def test_a_line_variable_broken_inside_is_named_and_nothing_is_claimed(
    tmp_path: Path, board: Board, line: LineStandIn, name: str, inside: str, what: str
) -> None:
    clean = base_env(tmp_path, **line.env(), LINE_CHANNEL_SECRET="s" * 32)
    primed(tmp_path, board, clean)
    value = clean[name]
    broken = {**clean, name: value[:10] + inside + value[10:]}
    for command in (["run", "--once"], ["check"], ["run"], ["status"]):
        result = run_hunter(tmp_path, *command, env=broken)
        assert_one_line(result, f"{name} holds {what}", f"set {name} again")
    assert line.pushes == []
    assert "sending" not in rows(tmp_path).values()
    # Once the value is right, each waiting alert arrives once.
    assert run_hunter(tmp_path, "run", "--once", env=clean).returncode == 0
    assert sorted(line.delivered) == ["New python bot", "python scraper"]


def test_a_telegram_token_pasted_with_a_line_end_alerts_once(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    env = base_env(tmp_path, **telegram.env())
    primed(tmp_path, board, env, owner="telegram:111")
    pasted = {**env, "TELEGRAM_BOT_TOKEN": env["TELEGRAM_BOT_TOKEN"] + "\r\n"}
    assert run_hunter(tmp_path, "run", "--once", env=pasted).returncode == 0
    assert run_hunter(tmp_path, "run", "--once", env=pasted).returncode == 0
    firsts = sorted(text.splitlines()[0] for text in telegram.texts(111))
    assert firsts == ["New python bot", "python scraper"]


def test_a_telegram_token_with_a_space_inside_is_named(tmp_path: Path, board: Board) -> None:
    token = "123456:" + "A" * 35
    env = base_env(tmp_path, TELEGRAM_BOT_TOKEN=token[:20] + " " + token[20:])
    write_config(tmp_path, [html_source("board", board.url + "/jobs")], owner="telegram:7001")
    assert_one_line(
        run_hunter(tmp_path, "run", "--once", env=env),
        "TELEGRAM_BOT_TOKEN holds a space",
        secret=token[20:],
    )


@pytest.mark.parametrize(
    ("name", "value", "needle"),
    [
        (
            "DISCORD_WEBHOOK_TEAM",
            "https://discord.com/api/webhooks/1/ab\ncd",
            "DISCORD_WEBHOOK_TEAM",
        ),
        ("DATABASE_URL", "postgresql://u:pw@db.test/x\n\npostgresql://", "DATABASE_URL"),
        ("HUNTER_STATUS_TOKEN", "a" * 20 + "\n" + "b" * 20, "HUNTER_STATUS_TOKEN"),
        ("SUPABASE_SERVICE_ROLE_KEY", "sb_secret_abc def", "SUPABASE_SERVICE_ROLE_KEY"),
        ("HUNTER_TELEGRAM_API_URL", "https://api\n.telegram.test", "HUNTER_TELEGRAM_API_URL"),
    ],
)
def test_any_variable_hunter_reads_broken_inside_is_named(
    tmp_path: Path, name: str, value: str, needle: str
) -> None:
    write_config(
        tmp_path,
        [html_source("board", "https://board.test/jobs")],
        chats=[{"name": "team", "to": "discord:team", "include": ["x"]}]
        if name.startswith("DISCORD")
        else [],
    )
    env = base_env(tmp_path, **{name: value})
    assert_one_line(run_hunter(tmp_path, "check", env=env), needle, secret=value)


def test_a_path_pasted_with_a_line_end_is_the_same_file_and_may_hold_a_space(
    tmp_path: Path, board: Board
) -> None:
    folder = tmp_path / "my jobs"
    folder.mkdir()
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    env = base_env(tmp_path, HUNTER_DB=f" {folder / 'hunter.db'}\n", HUNTER_LOG_LEVEL="info\r\n")
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert (folder / "hunter.db").exists()
    assert "primed silently: 1 listing" in result.stderr


def test_hunter_toml_values_pasted_with_spaces_and_line_ends_read_as_typed(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: `timezone = "Asia/Bangkok "` was an unknown timezone, while an
    owner's or a keyword's pasted space was taken. Every text of hunter.toml is read without
    what was pasted around it, whichever key it is."""
    url = board.serve_jobs("/jobs", [("1", "python seed")])
    source = {**html_source("board ", url + "\n"), "item": " li.job"}
    write_config(
        tmp_path,
        [source],
        timezone="Asia/Bangkok ",
        quiet_hours=" 23:00-07:00\n",
        filter={"include": ["python\n"], "places": ["Bangkok "], "languages": [" en"]},
    )
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "timezone Asia/Bangkok" in check.stdout
    assert "source board: HTTP 200" in check.stdout and "1 listing" in check.stdout
