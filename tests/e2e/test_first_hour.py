"""A user's first hour: each ordinary mistake gets one clear line naming the problem and the
fix, as the user sees it (the command's output and exit status), and nothing is lost."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, start_hunter, write_config
from tests.support.line_standin import TOKEN, LineStandIn
from tests.support.local_server import free_port, wait_for
from tests.support.telegram_standin import TelegramStandIn

FIRST = [("1", "Old python job")]


def one_line(result: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    assert result.returncode == code, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    said = [line for line in result.stderr.splitlines() if line.startswith("hunter: ")]
    assert len(said) == 1, result.stderr
    for needle in needles:
        assert needle in said[0], said[0]
    return said[0]


# -- the demo never touches a real channel ---------------------------------------------------


def test_the_demo_never_pushes_to_a_real_line(tmp_path: Path, line: LineStandIn) -> None:
    env = base_env(tmp_path, **line.env(), LINE_CHANNEL_SECRET="s" * 32)
    result = run_hunter(tmp_path, "demo", env=env)
    assert result.returncode == 0, result.stderr
    assert line.pushes == []
    assert "alerts go to terminal" in result.stdout
    assert "2 alerts sent" in result.stdout


@pytest.mark.parametrize("where", ["after", "before"])
def test_the_demo_refuses_a_config_it_would_not_read(tmp_path: Path, where: str) -> None:
    args = ["demo", "--config", "no-such.toml"]
    if where == "before":
        args = ["--config", "no-such.toml", "demo"]
    said = one_line(run_hunter(tmp_path, *args, env=base_env(tmp_path)), 2, "reads no hunter.toml")
    assert "hunter check --config no-such.toml" in said


# -- check while a channel cannot be reached -------------------------------------------------


def test_check_with_line_unreachable_says_one_failed_line_and_checks_the_sources(
    tmp_path: Path, board: Board
) -> None:
    port = free_port()  # nothing listens there
    env = base_env(
        tmp_path,
        LINE_CHANNEL_ACCESS_TOKEN="t" * 40,
        LINE_TO="U" + "a" * 32,
        LINE_CHANNEL_SECRET="s" * 32,
        HUNTER_LINE_API_URL=f"http://127.0.0.1:{port}",
    )
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    result = run_hunter(tmp_path, "check", env=env)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "please report" not in result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if "FAILED" in line]
    assert f"127.0.0.1:{port} refused the connection" in failed[0], result.stdout
    assert failed[0].startswith("LINE: FAILED: cannot reach LINE")
    # One cause, one failed check: the rich menu, asked with the same token, is not asked
    assert len(failed) == 1 and "LINE rich menu" not in result.stdout
    assert "source board: HTTP 200" in result.stdout and "1 listing" in result.stdout
    assert result.stdout.rstrip().endswith("1 check failed")


def test_check_with_telegram_unreachable_names_the_host_and_checks_the_sources(
    tmp_path: Path, board: Board
) -> None:
    env = base_env(
        tmp_path,
        TELEGRAM_BOT_TOKEN="123456:" + "A" * 35,
        HUNTER_TELEGRAM_API_URL="http://no-such-host.invalid",
    )
    write_config(
        tmp_path,
        [html_source("board", board.serve_jobs("/jobs", FIRST))],
        owner="telegram:111",
    )
    result = run_hunter(tmp_path, "check", env=env)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "Telegram: FAILED: cannot reach Telegram: the name no-such-host.invalid does not" in (
        result.stdout
    )
    assert "source board: HTTP 200" in result.stdout


def test_a_source_that_cannot_be_reached_is_named_with_its_cause(tmp_path: Path) -> None:
    port = free_port()
    write_config(
        tmp_path,
        [
            html_source("refused", f"http://127.0.0.1:{port}/jobs"),
            html_source("unknown", "http://no-such-host.invalid/jobs"),
        ],
    )
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert f"could not connect: 127.0.0.1:{port} refused the connection" in result.stdout
    assert "could not connect: the name no-such-host.invalid does not resolve" in result.stdout
    assert result.stdout.rstrip().endswith("2 checks failed")  # one a source, not two
    status = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert "refused the connection" in status.stderr
    text = run_hunter(tmp_path, "status", env=base_env(tmp_path)).stdout
    assert "refused the connection" in text and "does not resolve" in text


# -- piped output ----------------------------------------------------------------------------


def piped(
    folder: Path, command: str, lines: int, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """`hunter <command> | head -<lines>` in bash with pipefail: the pipe's exit code is the
    command's."""
    hunter = f"{sys.executable} -m hunter {command}"
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {hunter} | head -{lines}"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "command", ["status", "status --json", "schema", "check"], ids=lambda c: c.replace(" ", "")
)
def test_output_piped_to_head_ends_quietly(tmp_path: Path, board: Board, command: str) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    env = base_env(tmp_path)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    result = piped(tmp_path, command, 1, env)  # many lines at once, a reader that reads one
    assert result.stdout.count("\n") == 1
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
    assert "Exception ignored" not in result.stderr
    assert result.returncode == 0


def test_the_demo_piped_to_head_ends_without_retrying_for_nobody(tmp_path: Path) -> None:
    """A new user's find: `hunter demo | head -3` exited 0 after three warnings "2 listings
    wait (retry): attempt N failed: the terminal's reader has gone", each retry waited out
    for a reader that had left. The demo ends when its reader does."""
    result = piped(tmp_path, "demo", 3, base_env(tmp_path))
    assert result.returncode == 0 and result.stdout.count("\n") == 3
    assert "reader has gone" not in result.stderr and "Traceback" not in result.stderr


def test_a_failing_check_piped_to_head_still_fails(tmp_path: Path) -> None:
    """A new user's find: `hunter check | head -1` of a check that fails exited 0 (the
    closed pipe ended the command): a script's `set -o pipefail` saw success. The checks run
    to their end and the code is theirs."""
    write_config(tmp_path, [html_source("board", f"http://127.0.0.1:{free_port()}/jobs")])
    result = piped(tmp_path, "check", 1, base_env(tmp_path))
    assert result.stdout.count("\n") == 1
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert result.returncode == 1, result.stderr


# -- keywords in hunter.toml are held as the chat holds them ---------------------------------


@pytest.mark.parametrize(
    ("table", "word", "needle"),
    [
        ("filter", "ไ", "a Thai keyword has at least 2 letters"),
        ("filter", "\u0e48", "a keyword starts with a letter or a digit"),
        ("filter", "ก", "a Thai keyword has at least 2 letters"),
        ("filter", "py\u200bthon", "hidden character (U+200B"),
        ("filter", "руthon", "mixes Cyrillic letters"),
        ("chats", "x" * 61, "at most 60 characters"),
    ],
)
def test_a_keyword_in_the_file_is_held_as_the_chat_holds_it(
    tmp_path: Path, table: str, word: str, needle: str
) -> None:
    settings: dict[str, object] = {}
    if table == "filter":
        settings["filter"] = {"include": ["python", word]}
    else:
        settings["chats"] = [{"name": "team", "to": "discord:team", "exclude": [word]}]
    write_config(tmp_path, [html_source("board", "https://board.test/jobs")], **settings)
    said = one_line(run_hunter(tmp_path, "check", env=base_env(tmp_path)), 2, needle)
    assert "include" in said or "exclude" in said


# -- a secret written into hunter.toml -------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "variable"),
    [
        ("LINE_CHANNEL_ACCESS_TOKEN", "LINE_CHANNEL_ACCESS_TOKEN"),
        ("telegram_bot_token", "TELEGRAM_BOT_TOKEN"),
        ("DATABASE_URL", "DATABASE_URL"),
        ("SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SERVICE_ROLE_KEY"),
        ("DISCORD_WEBHOOK_TEAM", "DISCORD_WEBHOOK_TEAM"),
    ],
)
def test_a_secret_in_the_file_is_sent_to_the_environment_unechoed(
    tmp_path: Path, key: str, variable: str
) -> None:
    secret = "do-not-print-me-" + "9" * 20
    path = write_config(tmp_path, [html_source("board", "https://board.test/jobs")])
    path.write_text(f'{key} = "{secret}"\n' + path.read_text(encoding="utf-8"), encoding="utf-8")
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    said = one_line(result, 2, "belongs in the environment", f"set {variable} where hunter runs")
    assert secret not in result.stdout + result.stderr
    assert "unknown key" not in said


# -- hunter.toml as phones and Windows editors save it ---------------------------------------


def test_curly_quotes_are_named(tmp_path: Path) -> None:
    path = write_config(tmp_path, [html_source("board", "https://board.test/jobs")])
    path.write_text(
        "timezone = \u201cAsia/Bangkok\u201d\n" + path.read_text(encoding="utf-8"), encoding="utf-8"
    )
    one_line(run_hunter(tmp_path, "check", env=base_env(tmp_path)), 2, "line 1 has curly quotes")


def test_a_byte_order_mark_and_windows_line_ends_are_read(tmp_path: Path, board: Board) -> None:
    path = write_config(
        tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))], timezone="Asia/Bangkok"
    )
    text = path.read_text(encoding="utf-8").replace("\n", "\r\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "primed silently: 1 listing" in result.stderr


# -- LINE's webhook called while the chat is off ---------------------------------------------


def test_lines_verify_without_the_channel_secret_names_it(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    port = free_port()
    env = base_env(tmp_path, PORT=str(port), LINE_CHANNEL_ACCESS_TOKEN="t" * 40)
    env["LINE_TO"] = "U" + "a" * 32
    env["HUNTER_LINE_API_URL"] = f"http://127.0.0.1:{free_port()}"
    process = start_hunter(tmp_path, "run", env=env)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", 200, 60)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/line/webhook", data=b'{"events": []}', method="POST"
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 404
        assert "LINE_CHANNEL_SECRET" in refused.value.read().decode()
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=60)
    assert "LINE called /line/webhook, but its chat is off here: set LINE_CHANNEL_SECRET" in err
    assert "t" * 40 not in err
    # The start says what is served: not the webhook of a chat that is off (a new user read
    # "serving /healthz and /line/webhook ..." as the chat being on).
    assert f"serving /healthz on port {port}" in err


def test_check_says_the_line_webhook_is_off_without_its_secret(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path, **line.env()))
    assert "LINE webhook: off; set LINE_CHANNEL_SECRET" in result.stdout
    assert TOKEN not in result.stdout


# -- small words -----------------------------------------------------------------------------


def test_one_of_a_thing_is_said_as_one(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("board", f"http://127.0.0.1:{free_port()}/jobs")])
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.stdout.rstrip().splitlines()[-1] == "1 check failed"
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    assert run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)).returncode == 0
    text = run_hunter(tmp_path, "status", env=base_env(tmp_path)).stdout
    assert "1 read today" in text and "1 reads" not in text
    prime = run_hunter(tmp_path, "prime", env=base_env(tmp_path)).stdout
    assert "1 listing recorded as seen" in prime


def test_retry_of_a_row_not_stuck_says_only_that(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    assert run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)).returncode == 0
    result = run_hunter(tmp_path, "retry", "board:1", env=base_env(tmp_path))
    assert result.returncode == 1
    assert "0 stuck rows" not in result.stdout
    assert "not stuck (or unknown): board:1" in result.stderr


def test_a_run_once_with_nothing_due_says_so_where_the_user_looks(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], schedule="learned")
    env = base_env(tmp_path)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0
    assert "1 source not due yet, so none was read" in again.stdout
    assert "hunter run --once --all" in again.stdout


def test_run_help_says_the_schedule_is_learned(tmp_path: Path) -> None:
    for args in (["run", "--help"], ["--help"]):
        result = run_hunter(tmp_path, *args, env=base_env(tmp_path))
        said = " ".join(result.stdout.split())  # argparse wraps its lines
        assert "then every interval_minutes" not in said
        assert "its schedule is learned" in said


def test_sigterm_is_said_once(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    process = start_hunter(tmp_path, "run", env=base_env(tmp_path))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (tmp_path / "hunter.db").exists():
        time.sleep(0.1)
    time.sleep(1.0)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=60)
    assert err.count("SIGTERM received") == 1, err


def test_quiet_hours_without_a_time_zone_say_which_zone_they_are_read_in(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], quiet_hours="23:00-07:00")
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert "quiet hours 23:00-07:00 are read in UTC (the default): set timezone" in check.stdout
    run = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert "quiet hours 23:00-07:00 are read in UTC" in run.stderr
    write_config(
        tmp_path, [html_source("board", url)], quiet_hours="23:00-07:00", timezone="Asia/Bangkok"
    )
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert "quiet hours 23:00-07:00 are read in Asia/Bangkok" in check.stdout
    assert "(the default)" not in check.stdout


def test_a_secret_written_below_a_source_is_still_sent_to_the_environment(
    tmp_path: Path,
) -> None:
    """Appended at the end of the file, a key is TOML's last table's: the last source's."""
    secret = "do-not-print-me-" + "7" * 20
    path = write_config(tmp_path, [html_source("board", "https://board.test/jobs")])
    path.write_text(
        path.read_text(encoding="utf-8") + f'LINE_CHANNEL_ACCESS_TOKEN = "{secret}"\n',
        encoding="utf-8",
    )
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    one_line(result, 2, "belongs in the environment", "read as that source's key")
    assert secret not in result.stdout + result.stderr
    path.write_text(
        path.read_text(encoding="utf-8").replace(f'LINE_CHANNEL_ACCESS_TOKEN = "{secret}"', "")
        + 'owner = "telegram:111"\n',
        encoding="utf-8",
    )
    one_line(
        run_hunter(tmp_path, "check", env=base_env(tmp_path)),
        2,
        "owner is a key of the top level",
        "move it above the first [[sources]]",
    )


def test_filter_keys_appended_below_the_last_source_are_named_as_its_own(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: `places` and `include` appended at the end of the file are TOML's
    last table's, the last source's, and held the other sources' listings for nobody, in
    silence. check and run now say so, and how to make them every source's."""
    url = board.serve_jobs("/jobs", FIRST)
    sources = [html_source("first", url), html_source("last", url)]
    path = write_config(tmp_path, sources)
    path.write_text(
        path.read_text(encoding="utf-8") + 'include = ["python"]\nplaces = ["Bangkok"]\n',
        encoding="utf-8",
    )
    said = (
        "[[sources]] 'last', the last, sets include, places for its own listings alone (TOML "
        "gives every key below a [[sources]] line to that source); for every source, move "
        "them under [filter]"
    )
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert f"  warning: {said}" in check.stdout.splitlines()
    run = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert run.returncode == 0 and said in run.stderr
    # Moved under [filter], or set by every source as its own: nothing to say.
    write_config(tmp_path, sources, filter={"include": ["python"], "places": ["Bangkok"]})
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.stdout.startswith("config:") and "warning: [[sources]]" not in check.stdout
    write_config(tmp_path, [{**s, "include": ["python"]} for s in sources])
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.stdout.startswith("config:") and "warning: [[sources]]" not in check.stdout
    # The example's way: the first source sets its own include; places appended below the
    # last are still named (a new user's find: said nothing then)
    path = write_config(tmp_path, [{**sources[0], "include": ["python"]}, sources[1]])
    path.write_text(path.read_text(encoding="utf-8") + 'places = ["Bangkok"]\n', encoding="utf-8")
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert "warning: [[sources]] 'last', the last, sets places for its own" in check.stdout


def test_check_says_each_chat_once_with_or_without_an_owner(
    tmp_path: Path, board: Board, telegram: TelegramStandIn, line: LineStandIn
) -> None:
    """A new user's find: with [[chats]] and no owner, check said "alerts: tg -> Telegram;
    tg -> Telegram", and with one, what each chat's rules would have brought twice for the
    first [[chats]] and never for the owner."""
    url = board.serve_jobs("/jobs", FIRST)
    chats = [{"name": "tg", "to": "telegram:111"}]
    write_config(tmp_path, [html_source("board", url)], chats=chats)
    env = {**base_env(tmp_path), **telegram.env()}
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # its listings seen
    lines = run_hunter(tmp_path, "check", env=env).stdout.splitlines()
    assert [x for x in lines if x.startswith("alerts:")] == ["alerts: tg -> Telegram"]
    assert len([x for x in lines if x.startswith("chat tg: ")]) == 1
    with_owner = {**env, **line.env()}  # LINE_TO: the owner's chat, on LINE
    lines = run_hunter(tmp_path, "check", env=with_owner).stdout.splitlines()
    assert [x for x in lines if x.startswith("alerts:")] == [
        "alerts: owner -> LINE; tg -> Telegram"
    ]
    assert len([x for x in lines if x.startswith("chat tg: ")]) == 1
    assert len([x for x in lines if x.startswith("chat owner: ")]) == 1


def test_check_makes_no_database(tmp_path: Path, board: Board) -> None:
    """A new user's find: `hunter check` in a folder left a hunter.db there (it made and
    migrated the database it was to look at). It looks only, and says who makes it."""
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 0, check.stdout
    assert not (tmp_path / "hunter.db").exists()
    [said] = [x for x in check.stdout.splitlines() if x.startswith("database: ")]
    assert said.endswith("yet (HUNTER_DB); `hunter run` or `hunter prime` creates it")
    assert run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)).returncode == 0
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert "reachable, schema up to date" in check.stdout


def test_a_place_of_two_countries_in_the_file_says_which_one_it_is_read_as(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], filter={"places": ["Valencia"]})
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    note = "“Valencia” is read as Valencia, VE, the largest so named; for Valencia, ES, write"
    assert f"  warning: {note} “Valencia (ES)”" in check.stdout.splitlines()
    write_config(tmp_path, [html_source("board", url)], filter={"places": ["Valencia (ES)"]})
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 0 and "is read as" not in check.stdout


def test_a_title_selector_that_finds_nothing_is_named_not_the_item_selector(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: items found but their title not, and check said "check the
    item/items selector", the one that was right."""
    source = {**html_source("board", board.serve_jobs("/jobs", FIRST)), "title": "h9.nothing"}
    write_config(tmp_path, [source])
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 1
    assert "items were found, none with a title and an id: check the title and id" in check.stdout
    assert "check the item/items selector" not in check.stdout


def test_status_within_quiet_hours_says_what_waits_waits_for_them(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: at night, status said "1 waiting" beside "Pace: none, every listing
    goes in the poll that finds it" and nothing of the quiet hours that held it."""
    from datetime import UTC, datetime

    hour = datetime.now(UTC).hour
    quiet = f"{hour:02d}:00-{(hour + 2) % 24:02d}:00"  # now is within them
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url)], quiet_hours=quiet, timezone="UTC")
    assert run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)).returncode == 0
    status = run_hunter(tmp_path, "status", env=base_env(tmp_path)).stdout
    [pace] = [line for line in status.splitlines() if line.startswith("Pace: ")]
    assert f"; quiet hours {quiet}, now: nothing is pushed before " in pace


def test_a_port_in_use_is_one_line(tmp_path: Path, board: Board) -> None:
    import socket

    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    taken = socket.socket()
    taken.bind(("0.0.0.0", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        env = base_env(tmp_path, PORT=str(port))
        result = run_hunter(tmp_path, "run", env=env, own_process=True, timeout=60)
    finally:
        taken.close()
    one_line(result, 2, f"PORT {port} is in use by another program", "set PORT to a free port")


@pytest.mark.parametrize(
    ("variables", "needle"),
    [
        (
            {"DISCORD_WEBHOOK_MAIN": "https://discord.com/api/webhooks/1/" + "a" * 68},
            "DISCORD_WEBHOOK_MAIN is set, and no chat is on Discord: it needs a [[chats]] to = "
            '"discord:<name>"',
        ),
        (
            {"LINE_CHANNEL_ACCESS_TOKEN": "t" * 40, "LINE_CHANNEL_SECRET": "s" * 32},
            "LINE_CHANNEL_ACCESS_TOKEN and LINE_CHANNEL_SECRET are set, and no chat is on LINE: "
            "it needs LINE_TO",
        ),
    ],
    ids=["discord", "line"],
)
def test_a_channel_set_halfway_is_named_not_called_unset(
    tmp_path: Path, board: Board, line: LineStandIn, variables: dict[str, str], needle: str
) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    env = base_env(tmp_path, HUNTER_LINE_API_URL=line.url, **variables)
    if "LINE_CHANNEL_ACCESS_TOKEN" in variables:
        line.token = variables["LINE_CHANNEL_ACCESS_TOKEN"]
    check = run_hunter(tmp_path, "check", env=env)
    assert check.returncode == 1, check.stdout
    assert f"alerts: FAILED: {needle}" in check.stdout
    assert "all checks passed" not in check.stdout
    run = run_hunter(tmp_path, "run", "--once", env=env)
    assert needle in run.stderr and "no channel is set" not in run.stderr


def test_a_source_taken_out_of_hunter_toml_is_said_to_be_read_no_more(
    tmp_path: Path, board: Board
) -> None:
    url = board.serve_jobs("/jobs", FIRST)
    write_config(tmp_path, [html_source("board", url), html_source("old", url)])
    assert run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)).returncode == 0
    write_config(tmp_path, [html_source("board", url)])
    text = run_hunter(tmp_path, "status", env=base_env(tmp_path)).stdout
    old = text.split("  old:", 1)[1].split("\n  board:", 1)[0]
    assert "not in hunter.toml any more: read no more" in old and "next read" not in old
    assert "next read" in text.split("  board:", 1)[1]
    document = run_hunter(tmp_path, "status", "--json", env=base_env(tmp_path)).stdout
    assert '"in_config": false' in document and '"in_config": true' in document


def test_check_goes_on_past_a_database_it_refuses_and_exits_as_run_does(
    tmp_path: Path, board: Board
) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    env = base_env(tmp_path, RENDER="true")
    check = run_hunter(tmp_path, "check", env=env)
    assert "database: FAILED: on Render the disk is wiped" in check.stdout
    assert "source board: HTTP 200" in check.stdout  # the rest is still checked
    assert "alerts:" in check.stdout
    assert check.returncode == 2 == run_hunter(tmp_path, "run", "--once", env=env).returncode


def test_an_owner_on_telegram_without_its_token_is_named_as_the_owner(tmp_path: Path) -> None:
    write_config(tmp_path, [html_source("board", "https://board.test/jobs")], owner="telegram:123")
    said = one_line(run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)), 2)
    assert 'the owner (owner = "telegram:123" in hunter.toml) is a Telegram chat' in said
    assert "[[chats]]" not in said
    # `check` exits as `run` does (it said 1), and `status`, which sends nothing, reads the
    # database without the token and says what to set (it stopped for want of it).
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 2 and "TELEGRAM_BOT_TOKEN" in check.stdout
    status = run_hunter(tmp_path, "status", env=base_env(tmp_path))
    assert status.returncode == 0, status.stderr
    assert "alerts wait for a channel: the owner" in status.stdout
    assert "TELEGRAM_BOT_TOKEN is not set" in status.stdout


def test_a_config_path_given_that_does_not_exist_names_the_path(tmp_path: Path) -> None:
    said = one_line(
        run_hunter(tmp_path, "check", "--config", "nope.toml", env=base_env(tmp_path)), 2
    )
    assert "nope.toml: no such config file; check the path" in said
    assert "pass --config PATH" not in said


def test_a_log_level_that_is_none_is_said(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("board", board.serve_jobs("/jobs", FIRST))])
    env = base_env(tmp_path, HUNTER_LOG_LEVEL="verbose")
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0
    assert "HUNTER_LOG_LEVEL is not one of DEBUG, INFO, WARNING, ERROR: INFO is used" in (
        result.stderr
    )


def test_a_source_whose_selectors_find_nothing_says_so_at_each_poll(
    tmp_path: Path, board: Board
) -> None:
    """A new user's find: `item = "li.crad"` (a typo) found nothing, poll after poll, with
    exit 0 and not a word outside `hunter check`. A source that never found a listing is no
    failure (a search may have no result yet), but each poll says so, and so does status."""
    source = {**html_source("board", board.serve_jobs("/jobs", FIRST)), "item": "li.crad"}
    write_config(tmp_path, [source])
    env = base_env(tmp_path)
    for _ in range(2):
        result = run_hunter(tmp_path, "run", "--once", env=env)
        assert result.returncode == 0, result.stderr
        assert "source board: no listing found on its page yet" in result.stderr
        assert "`hunter check` shows what they find" in result.stderr
    status = run_hunter(tmp_path, "status", env=env).stdout
    assert "0 listings (not primed yet: no listing found so far)" in status
    write_config(tmp_path, [html_source("board", board.url + "/jobs")])  # the typo mended
    mended = run_hunter(tmp_path, "run", "--once", env=env)
    assert "no listing found" not in mended.stderr and "1 primed" in mended.stderr


def test_a_first_read_stopped_by_ctrl_c_is_due_again_at_once(tmp_path: Path, board: Board) -> None:
    """A new user's find: Ctrl-C during a first read that hung left its source claimed, so
    the next `run --once` said "1 source not due yet" for a minute. A read a stop cut short
    is due again at once."""
    url = board.serve_jobs("/jobs", FIRST, hang=30)  # no answer before the stop
    write_config(tmp_path, [html_source("board", url)], schedule="learned")
    env = base_env(tmp_path)
    process = start_hunter(tmp_path, "run", "--once", env=env)
    deadline = time.monotonic() + 30
    while not board.hits.get("/jobs") and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert "Traceback" not in err
    board.serve_jobs("/jobs", FIRST)
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    assert "not due yet" not in again.stdout + again.stderr
    assert "1 listing, 0 new matching, 1 primed" in again.stderr
