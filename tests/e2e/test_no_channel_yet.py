"""No channel yet, on a host: nobody reads Render's or Railway's log as a chat, so alerts are
never printed there and counted as sent. They wait, the log and the status say so once, and
when a channel is set each arrives once. On a person's own machine the terminal is still
the channel, unless its database is a deployment's (DATABASE_URL, SUPABASE_URL). A host
whose disk does not outlive a run refuses SQLite, GitHub Actions too."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, hunter_command, run_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.telegram_standin import TelegramStandIn

FIRST = [("1", "Old python job")]
NEW = [("2", "New python bot"), ("3", "python scraper")]


def outbox(folder: Path, env: dict[str, str]) -> dict[str, object]:
    result = run_hunter(folder, "status", "--json", env=env)
    assert result.returncode == 0, result.stderr
    document: dict[str, object] = json.loads(result.stdout)
    return document


@pytest.mark.parametrize(
    "host", [{"RENDER": "true"}, {"RAILWAY_PROJECT_ID": "p-1"}], ids=["render", "railway"]
)
def test_alerts_wait_for_a_channel_on_a_host_then_arrive_once(
    tmp_path: Path,
    board: Board,
    line: LineStandIn,
    migrated_pg_url: str,
    host: dict[str, str],
) -> None:
    env = base_env(tmp_path, DATABASE_URL=migrated_pg_url, **host)
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs("/jobs", NEW + FIRST)

    for _ in range(2):
        result = run_hunter(tmp_path, "run", "--once", env=env)
        assert result.returncode == 0, result.stderr
        assert "New python bot" not in result.stdout + result.stderr  # not "sent" to a log
        assert result.stderr.count("no channel is set on") == 1, result.stderr
        assert "LINE_TO, with LINE_CHANNEL_ACCESS_TOKEN" in result.stderr
    status = outbox(tmp_path, env)
    assert status["sent_last_24h"] == 0
    assert status["outbox"]["pending"] == 2  # type: ignore[index]
    assert "alerts wait" in str(status["no_channel"])
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert "2 alerts wait for a channel: no channel is set on" in text
    # ... and the job summary (status --markdown) says it whole: it ended "Set LINE_TO, w"
    markdown = run_hunter(tmp_path, "status", "--markdown", env=env).stdout
    assert "**2 alerts wait for a channel**" in markdown and "DISCORD_WEBHOOK" in markdown
    check = run_hunter(tmp_path, "check", env=env)
    assert check.returncode == 1 and "alerts: FAILED: no channel is set on" in check.stdout

    with_line = {**env, **line.env()}
    for _ in range(2):
        assert run_hunter(tmp_path, "run", "--once", env=with_line).returncode == 0
    assert sorted(line.delivered) == ["New python bot", "python scraper"]
    assert len(line.pushes) == 1
    status = outbox(tmp_path, with_line)
    assert status["sent_last_24h"] == 2 and status["no_channel"] is None


def test_on_a_persons_own_machine_the_terminal_is_the_channel(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    board.serve_jobs("/jobs", NEW + FIRST)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert "New python bot" in result.stdout
    check = run_hunter(tmp_path, "check", env=env)
    assert "alerts: owner -> terminal (printed here: no channel is set" in check.stdout
    # What it printed, not "1 recipient, 0 messages this month" (a new user's find)
    status = run_hunter(tmp_path, "status", env=env).stdout
    assert "owner (terminal): terminal, no monthly quota, 2 sent this month, 0 waiting" in status


def test_a_laptop_run_against_the_deployments_database_leaves_its_alerts_to_its_channel(
    tmp_path: Path, board: Board, line: LineStandIn, migrated_pg_url: str
) -> None:
    """A new user's find: README's `hunter run --once --all`, run on a laptop against the
    deployment's database without its LINE variables, printed the next alert and counted it
    sent; it never reached LINE. A database of its own (DATABASE_URL, SUPABASE_URL) is a
    deployment's: without a channel its alerts wait, and the deployment sends them once."""
    deployed = base_env(tmp_path, DATABASE_URL=migrated_pg_url, **line.env())
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})
    assert run_hunter(tmp_path, "run", "--once", env=deployed).returncode == 0  # primes
    board.serve_jobs("/jobs", NEW + FIRST)

    laptop = base_env(tmp_path, DATABASE_URL=migrated_pg_url)
    result = run_hunter(tmp_path, "run", "--once", "--all", env=laptop)
    assert result.returncode == 0, result.stderr
    assert "New python bot" not in result.stdout + result.stderr
    assert "DATABASE_URL is a database a deployment may share" in result.stderr
    check = run_hunter(tmp_path, "check", env=laptop)
    assert check.returncode == 1 and "alerts: FAILED: no channel is set, and DATABASE_URL" in (
        check.stdout
    )
    assert run_hunter(tmp_path, "run", "--once", env=deployed).returncode == 0
    assert sorted(line.delivered) == ["New python bot", "python scraper"]


def test_a_laptop_run_without_the_owners_chat_never_loses_the_owners_alerts(
    tmp_path: Path, board: Board, line: LineStandIn, migrated_pg_url: str
) -> None:
    """A new user's find: with a [[chats]] group beside the owner, a laptop's `run --once
    --all` against the deployment's database without LINE_TO judged new listings for the
    group alone and recorded them as seen; the owner's match was never sent. Now such a run
    stops with one line, and the deployment sends the owner's alert."""
    group = "C" + "4c" * 16
    line.members[group] = 3
    url = board.serve_jobs("/jobs", FIRST)
    path = write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})
    with path.open("a", encoding="utf-8") as toml:
        toml.write(f'[[chats]]\nname = "friends"\nto = "{group}"\ninclude = ["logo"]\n')
    deployed = base_env(tmp_path, DATABASE_URL=migrated_pg_url, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=deployed).returncode == 0  # primes
    board.serve_jobs("/jobs", [("2", "python bot"), *FIRST])
    assert run_hunter(tmp_path, "run", "--once", env=deployed).returncode == 0
    board.serve_jobs("/jobs", [("3", "python scraper"), ("2", "python bot"), *FIRST])

    laptop = base_env(tmp_path, DATABASE_URL=migrated_pg_url)
    result = run_hunter(tmp_path, "run", "--once", "--all", env=laptop)
    assert result.returncode == 2, result.stderr
    assert "the owner's chat is not set here (LINE_TO" in result.stderr.splitlines()[-1]
    assert run_hunter(tmp_path, "run", "--once", env=deployed).returncode == 0
    assert sorted(line.delivered) == ["python bot", "python scraper"]


def test_a_folder_moved_to_a_database_never_alerts_again_from_its_old_file(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, migrated_pg_url: str
) -> None:
    """A new user's find: tried on a laptop with hunter.db, then moved to PostgreSQL; a new
    terminal without DATABASE_URL opened the old file, which knew nothing of what the
    database sent, and the same job reached Telegram twice. The file is marked as left for
    the database; a run on it stops with one line, and sends nothing."""
    url = board.serve_jobs("/jobs", FIRST)
    sources = [html_source("board", url)]
    write_config(tmp_path, sources, filter={"include": ["python"]}, owner="telegram:111")
    laptop = base_env(tmp_path, **telegram.env())
    assert run_hunter(tmp_path, "run", "--once", env=laptop).returncode == 0  # primes the file
    database = {**laptop, "DATABASE_URL": migrated_pg_url}
    assert run_hunter(tmp_path, "run", "--once", env=database).returncode == 0  # primes it
    board.serve_jobs("/jobs", NEW + FIRST)
    assert run_hunter(tmp_path, "run", "--once", env=database).returncode == 0
    assert sorted(m.text.splitlines()[0] for m in telegram.delivered) == [
        "New python bot",
        "python scraper",
    ]

    for command in (("run", "--once"), ("check",), ("status",)):
        again = run_hunter(tmp_path, *command, env=laptop)
        assert again.returncode == 2, again.stdout + again.stderr
        said = again.stdout + again.stderr
        assert "hunter.db was left for PostgreSQL" in said and "Set DATABASE_URL" in said
        assert "Traceback" not in said and migrated_pg_url not in said
    assert len(telegram.delivered) == 2  # nothing sent again

    (tmp_path / "hunter.db").unlink()  # the folder starts over on its own: primes, sends none
    fresh = run_hunter(tmp_path, "run", "--once", env=laptop)
    assert fresh.returncode == 0, fresh.stderr
    assert len(telegram.delivered) == 2


def test_a_telegram_token_without_a_chat_waits_on_a_host_and_check_names_the_owner_line(
    tmp_path: Path, board: Board, telegram: TelegramStandIn
) -> None:
    env = base_env(tmp_path, RENDER="true", HUNTER_ALLOW_EPHEMERAL_SQLITE="1", **telegram.env())
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]})
    check = run_hunter(tmp_path, "check", env=env)
    assert check.returncode == 1
    assert (
        'TELEGRAM_BOT_TOKEN is set, and no chat is on Telegram: it needs owner = "telegram:'
        '<your chat id>" in hunter.toml' in check.stdout
    )
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    board.serve_jobs("/jobs", NEW + FIRST)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert telegram.delivered == []

    write_config(
        tmp_path, [html_source("board", url)], filter={"include": ["python"]}, owner="telegram:111"
    )
    check = run_hunter(tmp_path, "check", env=env)
    assert "Telegram: bot" in check.stdout and "pushing to owner" in check.stdout
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    firsts = sorted(text.splitlines()[0] for text in telegram.texts(111))
    assert firsts == ["New python bot", "python scraper"]


def test_an_owner_on_telegram_without_its_token_fails_check(tmp_path: Path) -> None:
    write_config(tmp_path, [html_source("board", "https://board.test/jobs")], owner="telegram:111")
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 2, check.stdout  # the environment's mistake, as `run` exits
    assert "Telegram: FAILED: the owner is on Telegram (telegram:111); set TELEGRAM_BOT_TOKEN" in (
        check.stdout
    )


@pytest.mark.parametrize(
    ("host", "needle"),
    [
        ({"GITHUB_ACTIONS": "true"}, "on GitHub Actions each run starts on a new machine"),
        ({"RENDER": "true"}, "on Render the disk is wiped on every deploy"),
        ({"DYNO": "worker.1"}, "on Heroku the disk is wiped on every restart"),
    ],
)
def test_a_host_whose_disk_does_not_last_refuses_sqlite(
    tmp_path: Path, host: dict[str, str], needle: str
) -> None:
    write_config(tmp_path, [html_source("board", "https://board.test/jobs")])
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path, **host))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert needle in result.stderr and "SUPABASE_URL" in result.stderr
    assert not (tmp_path / "hunter.db").exists()


def test_a_systemd_service_whose_output_is_the_journal_is_a_host(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: hunter as a systemd service of one's own server, with no channel
    yet, printed its alerts into the journal and counted them sent. Its stdout being the
    journal (JOURNAL_STREAM names the stream's device and inode, systemd.exec(5)) makes it a
    host: alerts wait. The variable alone, passed on to a terminal's shells, does not."""
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    journal = tmp_path / "journal.log"

    def run_as_a_service(stream: str) -> subprocess.CompletedProcess[str]:
        with journal.open("w") as out:
            mark = os.fstat(out.fileno())
            env = base_env(tmp_path, JOURNAL_STREAM=stream or f"{mark.st_dev}:{mark.st_ino}")
            return subprocess.run(
                hunter_command("run", "--once"),
                cwd=tmp_path,
                env=env,
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                timeout=90,
                check=False,
            )

    assert run_as_a_service("").returncode == 0  # primes
    board.serve_jobs("/jobs", NEW + FIRST)
    result = run_as_a_service("")
    assert result.returncode == 0, result.stderr
    assert "New python bot" not in journal.read_text() + result.stderr
    assert "no channel is set on a systemd service (its output goes to the journal)" in (
        result.stderr
    )
    assert outbox(tmp_path, base_env(tmp_path))["outbox"]["pending"] == 2  # type: ignore[index]
    other = run_as_a_service("1:2")  # the variable of another stream: a person's terminal
    assert other.returncode == 0 and "New python bot" in journal.read_text()
