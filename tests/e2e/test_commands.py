"""Every command has help and works as the README says."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hunter.settings.config import load_config
from tests.support.board import Board, html_source
from tests.support.cli import ROOT, base_env, run_hunter, signalled, start_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.local_server import free_port

COMMANDS = ["run", "prime", "prune", "status", "retry", "check", "demo", "telegram"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(tmp_path: Path, command: str) -> None:
    result = run_hunter(tmp_path, command, "--help", env=base_env(tmp_path))
    assert result.returncode == 0 and f"usage: hunter {command}" in result.stdout


def test_primes_help_says_what_it_does_and_drops(tmp_path: Path) -> None:
    """A new user's find: `hunter prime --help` said nothing of what it does, and nothing of
    the alerts still waiting that it leaves unsent."""
    said = run_hunter(tmp_path, "prime", "--help", env=base_env(tmp_path)).stdout
    assert "Record every listing the sources show now as seen" in said
    assert "is not sent either" in " ".join(said.split())


def test_main_help_lists_every_command(tmp_path: Path) -> None:
    result = run_hunter(tmp_path, "--help", env=base_env(tmp_path))
    assert all(command in result.stdout for command in COMMANDS)


def test_the_example_config_is_valid() -> None:
    config = load_config(ROOT / "hunter.example.toml")
    assert [s.name for s in config.sources] == ["fastwork", "remoteok", "weworkremotely"]
    assert [s.kind for s in config.sources] == ["fastwork", "json", "rss"]
    assert config.timezone == "Asia/Bangkok"


def test_demo_primes_alerts_once_and_stays_quiet(tmp_path: Path) -> None:
    result = run_hunter(tmp_path, "demo", env=base_env(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "4 primed, 0 sent" in out
    assert "2 alerts sent, 1 ignored" in out
    assert out.count("🔔") == 2 and "LINE chatbot for a clinic" in out
    assert "3) Poll again" in out and out.rstrip().count("-> 0 sent") == 1


def test_console_script_is_installed(tmp_path: Path) -> None:
    script = shutil.which("hunter")
    assert script, "the `hunter` console script is not on PATH (uv sync installs it)"
    result = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert result.stdout.startswith("hunter ")


def test_check_shows_what_each_source_parses_and_how_each_chat_judges_it(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    url = board.serve_jobs(
        "/jobs",
        [("1", "Python bot"), ("2", "Logo"), ("3", "AI work"), ("4", "More")],
        budget="฿9,500",
    )
    write_config(
        tmp_path,
        [html_source("board", url), html_source("empty", board.url + "/e")],
        filter={"include": ["python"]},
        chats=[{"name": "studio", "to": "C" + "0" * 32, "include": ["logo"]}],
    )
    board.serve("/e", "<html><body>redesigned</body></html>")
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path, **line.env()))
    out = result.stdout
    assert result.returncode == 1  # the empty source is a failed check
    assert "LINE: bot hunter test bot (@hunter-test)" in out
    assert "source board: HTTP 200" in out and "4 listings" in out
    assert "board:1: Python bot, budget 9,500 THB a whole job" in out
    assert "fields found: link 4/4, pay 4/4, summary 4/4" in out
    assert "[matches 'python']" in out
    # Each [[chats]] is judged with its own rules, as the poll judges it.
    assert "chat studio: [no include keyword]" in out and "chat studio: [matches 'logo']" in out
    assert "board:4" not in out  # the first three only
    assert "source empty" in out and "no listings" in out
    assert line.pushes == []  # check sends nothing


def test_prime_status_prune_retry(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", [("1", "python a"), ("2", "python b")])
    write_config(tmp_path, [html_source("board", url)])
    prime = run_hunter(tmp_path, "prime", "--source", "board", env=env)
    assert prime.returncode == 0 and "board: 2 listings recorded as seen, none sent" in prime.stdout
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    assert status["sources"][0]["name"] == "board" and status["sources"][0]["last_count"] == 2
    assert status["outbox"] == {"pending": 0, "sending": 0, "retry": 0, "stuck": 0}
    assert status["last_poll_at"] == status["sources"][0]["last_poll_at"] is not None
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert "board: last poll" in text and "2 listings" in text
    assert "Last poll: 20" in text and "ago" in text.split("Last poll:")[1].splitlines()[0]
    # Rows seen less than a day ago may be of listings still on their page: never pruned
    early = run_hunter(tmp_path, "prune", "--days", "0", env=env)
    assert early.returncode == 2 and "--days must be 1 or more" in early.stderr
    late = run_hunter(tmp_path, "prune", "--days", "99999", env=env)  # a new user's find
    assert late.returncode == 2 and "--days must be 3650 or fewer" in late.stderr
    pruned = run_hunter(tmp_path, "prune", "--days", "1", env=env)
    assert pruned.returncode == 0 and "pruned 0 rows not seen for 1 day (" in pruned.stdout
    retry = run_hunter(tmp_path, "retry", "board:1", env=env)
    assert retry.returncode == 1 and "not stuck (or unknown): board:1" in retry.stderr
    unknown = run_hunter(tmp_path, "prime", "--source", "nope", env=env)
    assert unknown.returncode == 2 and "no source named 'nope'" in unknown.stderr


def test_prime_with_a_source_that_failed_says_so_and_exits_1(tmp_path: Path, board: Board) -> None:
    """A new user's find: prime exited 0 with 1 of 2 sources failed; that one was not primed,
    and what it showed came as alerts when it answered."""
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", [("1", "python a")])
    down = f"http://127.0.0.1:{free_port()}/jobs"
    write_config(tmp_path, [html_source("board", url), html_source("down", down)])
    prime = run_hunter(tmp_path, "prime", env=env)
    assert prime.returncode == 1, prime.stderr
    assert "board: 1 listing recorded as seen, none sent" in prime.stdout
    said = prime.stderr.strip().splitlines()[-1]
    assert "1 source not primed (down)" in said and "hunter prime --source down" in said
    # A second new user's find: "what it shows now would be alerted" was said of a source
    # never read, which its first read primes all the same
    assert "a source never read is primed by its first read" in said
    assert "would be alerted" not in said
    board.serve_jobs("/jobs", [("1", "python a")])
    write_config(tmp_path, [html_source("board", url), html_source("down", url)])
    assert run_hunter(tmp_path, "prime", "--source", "down", env=env).returncode == 0
    write_config(tmp_path, [html_source("board", url), html_source("down", down)])
    again = run_hunter(tmp_path, "prime", env=env).stderr.strip().splitlines()[-1]
    assert "what down shows now would be alerted" in again  # read before: it would


def test_prime_stopped_by_ctrl_c_primes_only_what_it_read(tmp_path: Path, board: Board) -> None:
    """A new user's find: Ctrl-C during prime was ignored, and every source was primed. Now
    it ends the read in flight at once and says what it primed and what it did not."""
    env = base_env(tmp_path)
    fast = board.serve_jobs("/jobs", [("1", "python a")])
    slow = board.serve_jobs("/slow", [("2", "python b")], trickle=2.0)  # never done in time
    write_config(
        tmp_path, [html_source("board", fast), html_source("slow", slow)], fetch_timeout_seconds=60
    )
    process = start_hunter(tmp_path, "prime", env=env)
    deadline = time.monotonic() + 20
    while "/slow" not in [path for path, _ in board.requests] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the fast one read meanwhile
    err, took = signalled(process, signal.SIGINT, timeout=20)
    assert process.returncode == 130, err
    assert took < 10
    assert "stopped by SIGINT: primed board; 1 source not primed" in err
    assert "finishing the reads in flight" in err and "push" not in err  # prime pushes none
    assert "Traceback" not in err


def test_prime_says_the_waiting_alerts_it_leaves_unsent(tmp_path: Path, board: Board) -> None:
    """A new user's find: an alert held by quiet hours, primed after a change of the search,
    was marked seen with not a word, and never came. prime still sends nothing (a person
    decided), and says how many waiting alerts that is."""
    env = base_env(tmp_path)
    hour = datetime.now(UTC).hour  # quiet hours around this moment: the new alert waits
    quiet = f"{(hour - 1) % 24:02d}:00-{(hour + 2) % 24:02d}:00"
    url = board.serve_jobs("/jobs", [("1", "python a")])
    write_config(tmp_path, [html_source("board", url)], quiet_hours=quiet)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs("/jobs", [("1", "python a"), ("2", "python b")])
    held = run_hunter(tmp_path, "run", "--once", env=env)
    assert held.returncode == 0 and "python b" not in held.stdout
    assert "1 held by quiet hours" in held.stderr, held.stderr
    # ... and said where the alerts print (a newcomer's try at night printed nothing)
    until = f"{(hour + 2) % 24:02d}:00 UTC"
    assert f'1 alert held by quiet_hours = "{quiet}" until {until}; `hunter status`' in held.stdout
    prime = run_hunter(tmp_path, "prime", env=env)
    assert prime.returncode == 0, prime.stderr
    assert prime.stdout.strip() == (
        "board: 2 listings recorded as seen, none sent; of them, 1 alert that waited to be "
        "sent (quiet hours, the pace, a failed push) will not be sent"
    )
    again = run_hunter(tmp_path, "prime", env=env)
    assert again.stdout.strip() == "board: 2 listings recorded as seen, none sent"


def test_looking_never_creates_a_database(tmp_path: Path) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    for command in (["status"], ["retry", "--all"], ["prune"]):
        result = run_hunter(tmp_path, *command, env=base_env(tmp_path))
        assert result.returncode == 1, result.stderr
        assert "no hunter database at" in result.stderr and "hunter run" in result.stderr
        assert not (tmp_path / "hunter.db").exists()


def test_a_sqlite_file_replaced_under_a_running_hunter_stops_it(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", [("1", "python seed")])
    write_config(tmp_path, [html_source("b", url)], interval_minutes=0.05)  # every 3 s
    process = start_hunter(tmp_path, "run", env=base_env(tmp_path))
    deadline = time.monotonic() + 30
    while not board.hits.get("/jobs") and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the first poll has recorded
    database = tmp_path / "hunter.db"
    database.unlink()
    database.write_bytes(b"")  # a fresh file at the same path: another inode
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    assert "was deleted or replaced while hunter ran" in err
    assert "Traceback" not in err


def test_the_command_leaves_with_all_it_printed_and_its_own_exit_code(
    tmp_path: Path, board: Board
) -> None:
    """Issue 56: the `hunter` command ends its process at once (hunter.app.leave, no teardown).
    What it printed still arrives whole through a buffered pipe, a few lines as much as the
    schema's 160 KB, and a refused command keeps its exit code and its one line."""
    from hunter.store import schema_sql

    env = {k: v for k, v in base_env(tmp_path).items() if k != "PYTHONUNBUFFERED"}
    printed = run_hunter(tmp_path, "schema", env=env, own_process=True)
    assert printed.returncode == 0 and printed.stdout.rstrip("\n") == schema_sql().rstrip("\n")
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", [("1", "seed")]))])
    assert run_hunter(tmp_path, "prime", env=env).returncode == 0  # in this process
    status = run_hunter(tmp_path, "status", env=env, own_process=True)  # a few lines
    assert status.returncode == 0 and "board" in status.stdout, status.stderr
    refused = run_hunter(tmp_path, "--config", "missing.toml", "check", env=env, own_process=True)
    assert refused.returncode == 2 and "missing.toml" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_thread_still_at_work_is_waited_for_as_before(tmp_path: Path) -> None:
    """hunter.app.leave exits at once only when no other thread is alive: one still working
    finishes, and the process exits with the command's code as Python's own exit would."""
    code = (
        "import sys, threading, time\n"
        "from hunter.app import leave\n"
        "def work():\n"
        "    time.sleep(0.5)\n"
        "    print('finished', flush=True)\n"
        "threading.Thread(target=work).start()\n"
        "sys.exit(leave(3))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 3 and done.stdout == "finished\n", done.stderr


def test_what_a_command_printed_last_is_flushed_before_the_process_leaves() -> None:
    """A line still in stdout's buffer (a pipe is block-buffered) when hunter.app.leave ends the
    process: flushed first, and the code is the command's."""
    code = "import sys\nfrom hunter.app import leave\nprint('said')\nsys.exit(leave(4))\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False,
        env=env, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 4 and done.stdout == "said\n", done.stderr
