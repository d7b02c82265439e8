"""A user's mistake: one line naming the problem and the fix, the right exit code, no
traceback, no secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config

PASSWORD = "s3cret-Pa55word"
TOKEN = "line-token-never-printed-123456"

GOOD = {
    "name": "board",
    "kind": "html",
    "url": "https://board.test/jobs",
    "item": "li",
    "title": "a",
    "link": "a@href",
}


def check_one_line(result: object, code: int, *needles: str) -> None:
    stdout, stderr = result.stdout, result.stderr  # type: ignore[attr-defined]
    assert result.returncode == code, stderr  # type: ignore[attr-defined]
    assert "Traceback" not in stdout + stderr
    lines = [line for line in stderr.splitlines() if line.startswith("hunter: ")]
    assert len(lines) == 1, stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    for secret in (PASSWORD, TOKEN):
        assert secret not in stdout + stderr


@pytest.mark.parametrize(
    ("toml", "needles"),
    [
        ("interval_minutes = 30\n[[sources]\n", ("not valid TOML", "line 2")),
        (
            "interval_minute = 30\n",
            (
                "unknown key 'interval_minute' (did you mean 'interval_minutes'?)",
                "interval_minutes",
            ),
        ),
        (
            '[[sources]]\nname = "b"\nitem = "li"\ntitle = "a"\nlink = "a@href"\n',
            ("(b)", "missing or invalid url"),
        ),
        (
            '[[sources]]\nname = "b"\nurl = "https://x.test"\nitem = "li[" \ntitle = "a"\n'
            'link = "a@href"\n',
            ("item = 'li['", "not a valid CSS selector"),
        ),
        (
            '[[sources]]\nname = "b"\nurl = "https://x.test"\nitem = "li"\ntitle = "a:::bad"\n'
            'link = "a@href"\n',
            ("title", "not a valid CSS selector"),
        ),
        (
            '[[sources]]\nname = "b"\nkind = "rss2"\nurl = "https://x.test"\ntitle = "t"\n',
            ("kind 'rss2' is not supported",),
        ),
        (
            'timezone = "Bangkok"\n[[sources]]\nname = "b"\nurl = "https://x.test"\nitem = "li"\n'
            'title = "a"\nlink = "a@href"\n',
            ("unknown timezone", "Asia/Bangkok"),
        ),
        ("", ("no [[sources]]",)),
        (
            '[[sources]]\nname = "b"\nurl = "https://x.test"\nitem = "li"\nitems = "x"\n'
            'title = "a"\nlink = "a@href"\n',
            (
                "unknown key 'items' (did you mean 'item'?) for kind 'html'",
                "accept",
                "include, item, kind",
            ),
        ),
        (
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\nitem = "li"\n',
            ("unknown key 'item' for kind 'rss'", "accept", "headers", "url"),
        ),
        (
            'quiet_hours = "11pm-7am"\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ("quiet_hours", '"HH:MM-HH:MM"', '"23:00-07:00"'),
        ),
        (
            'monthly_messages = 0\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ("monthly_messages must be from 1",),
        ),
        (
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            '[[chats]]\nname = "design"\nto = "Cnot-an-id"\n',
            ("[[chats]] #1 (design)", "to must be a LINE user (U...), group (C...)"),
        ),
        (
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            f'[[chats]]\nname = "design"\nto = "C{"0" * 32}"\nsources = ["fastwork"]\n',
            ("no source named 'fastwork'", "the sources are f"),
        ),
        (
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            f'[[chats]]\nname = "design"\nto = "C{"0" * 32}"\ninclude_words = ["logo"]\n',
            (
                "[[chats]] #1",
                "unknown key 'include_words'",
                "include, languages, merge, min_budget",
            ),
        ),
        (  # issue 45, finding 13: the owner's name in status lines and `--chat`
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            f'[[chats]]\nname = "LINE_TO"\nto = "C{"0" * 32}"\n',
            ("[[chats]] #1: name 'LINE_TO' is the owner's chat", "give this chat another name"),
        ),
        (  # a Cyrillic "е" in "dеsign" reads as the Latin one
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            f'[[chats]]\nname = "d\u0435sign"\nto = "C{"0" * 32}"\n',
            ("[[chats]] #1", "letters A-Z and a-z", "d\u0435sign"),
        ),
        (  # a new user's find: said "no [[sources]]", which they thought they had written
            '[sources]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n',
            ("[sources] is written with one bracket on each side: write [[sources]]",),
        ),
        (  # and "[filter]: expected a table of settings, got list"
            '[[filter]]\ninclude = ["python"]\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ("[[filter]] is written with two brackets on each side", "written [filter]"),
        ),
        (  # a new user's find: "unknown key 'owner'" and the filter's keys
            '[filter]\nowner = "telegram:5"\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ("[filter]: owner is a key of the top level", "move it above [filter]"),
        ),
        (  # and "'en' is not one" of the codes, of a code that is
            '[filter]\nlanguages = "en"\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ('languages must be a list, in brackets: languages = ["en"]',),
        ),
        (  # a new user's find: a country's code for its language, and no hint of the right one
            '[filter]\nlanguages = ["th", "jp"]\n[[sources]]\nname = "f"\nkind = "rss"\n'
            'url = "https://x.test/feed"\n',
            ("'jp' is not one (write 'ja')",),
        ),
        (  # a new user's find: two searches of one preset, and no word of how to have both
            '[[sources]]\npreset = "remoteok"\n[[sources]]\npreset = "remoteok"\n',
            ("two sources are named 'remoteok'", 'give each its own name = "..."'),
        ),
        (  # ... and a near miss of a key, with no "did you mean"
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            'inclde = ["python"]\n',
            ("unknown key 'inclde' (did you mean 'include'?) for kind 'rss'",),
        ),
        (  # a new user's find: "at end of document; fix that line", and no line named
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            'include = ["python",\n  "django",\n\n# the end\n',
            (
                "the file ends inside the value of include that starts on line 5",
                "a list's ],",
            ),
        ),
        (  # ... and a preset's `search` misspelt: no "did you mean", nor search in the list
            '[[sources]]\npreset = "jobsdb"\nserach = "php"\n',
            ("unknown key 'serach' (did you mean 'search'?) for preset 'jobsdb'",),
        ),
        (  # ... and a word without its quotes: "Invalid value; fix that line"
            "[filter]\nplaces = [เชียงใหม่]\n",
            ('a text needs its quotes on line 2: write "เชียงใหม่"',),
        ),
        (  # ... never said back where it may be a secret pasted in the file unquoted
            f"LINE_CHANNEL_ACCESS_TOKEN = {TOKEN}\n",
            ('a text needs its quotes on line 1: put it between "quotes"',),
        ),
        (  # ... and a number's typo was "the file ends inside" a value that ends there
            "interval_minutes = 3O\n",
            ("line 1", "fix that line"),
        ),
        (  # ... and a string's quote left out: "Illegal character '\n'"
            '[[sources]]\nname = "f\nkind = "rss"\n',
            ('a string on line 2 is not closed: add its closing quote (")',),
        ),
        (  # and "set TOKEN where hunter runs", a variable there is not
            '[[sources]]\nname = "f"\nkind = "rss"\nurl = "https://x.test/feed"\n'
            '[[chats]]\nname = "tg"\nto = "telegram:5"\ntoken = "123:abc"\n',
            (
                "token belongs in the environment",
                "set LINE_CHANNEL_ACCESS_TOKEN or TELEGRAM_BOT_TOKEN",
            ),
        ),
    ],
    ids=[
        "malformed",
        "unknown-key",
        "no-url",
        "bad-item-css",
        "bad-title-css",
        "bad-kind",
        "bad-timezone",
        "no-sources",
        "json-key-on-html",
        "html-key-on-rss",
        "quiet-hours-form",
        "monthly-messages-zero",
        "chat-bad-to",
        "chat-unknown-source",
        "chat-unknown-key",
        "chat-named-line-to",
        "chat-look-alike-name",
        "sources-one-bracket",
        "filter-two-brackets",
        "owner-under-filter",
        "languages-a-string",
        "languages-a-country-code",
        "two-presets-one-name",
        "source-key-near-miss",
        "toml-unclosed-list",
        "preset-search-misspelt",
        "toml-unquoted-word",
        "toml-unquoted-secret",
        "toml-number-typo",
        "toml-unclosed-string",
        "token-in-a-chat",
    ],
)
def test_bad_config_exits_2(tmp_path: Path, toml: str, needles: tuple[str, ...]) -> None:
    (tmp_path / "hunter.toml").write_text(toml, encoding="utf-8")
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    check_one_line(result, 2, *needles)


def test_missing_config_file(tmp_path: Path) -> None:
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    check_one_line(result, 2, "hunter.toml", "hunter.example.toml")


def test_unreachable_database_exits_1_without_its_password(tmp_path: Path) -> None:
    write_config(tmp_path, [GOOD])
    url = f"postgresql://hunter:{PASSWORD}@127.0.0.1:9/hunter?connect_timeout=3"
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path, DATABASE_URL=url))
    check_one_line(result, 1, "cannot reach PostgreSQL", "DATABASE_URL")


def test_a_database_name_that_does_not_resolve_says_so(tmp_path: Path) -> None:
    """A new user's find: Render's Internal Database URL, from a laptop, said "failed to
    resolve host 'dpg-abc123-a': [Errno -2] Name or service not known", where deploy.md
    promises "the name ... does not resolve" and the External URL to use."""
    write_config(tmp_path, [GOOD])
    url = f"postgresql://hunter:{PASSWORD}@dpg-abc123-a.invalid/hunter?connect_timeout=3"
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path, DATABASE_URL=url))
    assert result.returncode == 1 and PASSWORD not in result.stdout + result.stderr
    assert "the name dpg-abc123-a.invalid does not resolve" in result.stdout
    assert "External Database URL" in result.stdout


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (
            {"LINE_CHANNEL_ACCESS_TOKEN": TOKEN},
            ("LINE_TO is not set", "Basic settings", "LINE_CHANNEL_SECRET"),
        ),
        ({"LINE_CHANNEL_ACCESS_TOKEN": TOKEN, "LINE_TO": "my friend"}, ("LINE_TO must be",)),
        (  # a new user's find: a character short was "not a display name"
            {"LINE_CHANNEL_ACCESS_TOKEN": TOKEN, "LINE_TO": "U" + "a1" * 15 + "b"},
            ("LINE_TO has 32 characters where an ID has 33", "copy it whole"),
        ),
        ({"DATABASE_URL": f"mysql://u:{PASSWORD}@h/db"}, ("PostgreSQL URL",)),
        (
            {"LINE_CHANNEL_SECRET": PASSWORD},
            ("LINE_CHANNEL_SECRET is set but LINE_CHANNEL_ACCESS_TOKEN is not", "set it"),
        ),
        ({"HUNTER_STATUS_TOKEN": "short-" + PASSWORD[:4]}, ("HUNTER_STATUS_TOKEN must be",)),
    ],
    ids=[
        "no-line-to",
        "bad-line-to",
        "short-line-to",
        "not-postgres",
        "secret-without-token",
        "short-status-token",
    ],
)
def test_bad_environment_exits_2(
    tmp_path: Path, extra: dict[str, str], needles: tuple[str, ...]
) -> None:
    write_config(tmp_path, [GOOD])
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path, **extra))
    check_one_line(result, 2, *needles)


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    check_one_line(run_hunter(tmp_path, "fly", env=base_env(tmp_path)), 2, "hunter --help")
    write_config(tmp_path, [GOOD])
    check_one_line(run_hunter(tmp_path, "retry", env=base_env(tmp_path)), 2, "--all")


def test_every_source_failing_exits_1(tmp_path: Path, board: Board) -> None:
    write_config(tmp_path, [html_source("gone", board.url + "/missing")])
    check_one_line(
        run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path)),
        1,
        "every source failed",
        "hunter check",
    )


def test_one_failing_source_does_not_stop_the_others(tmp_path: Path, board: Board) -> None:
    url = board.serve_jobs("/jobs", [("1", "python job")])
    write_config(tmp_path, [html_source("ok", url), html_source("gone", board.url + "/x")])
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "source gone: HTTP 404" in result.stderr
    assert "primed silently: 1 listing recorded" in result.stderr


def test_two_shapes_of_status_at_once_are_refused(tmp_path: Path) -> None:
    """A new user's find: `status --json --markdown` printed JSON and dropped the other."""
    write_config(tmp_path, [GOOD])
    result = run_hunter(tmp_path, "status", "--json", "--markdown", env=base_env(tmp_path))
    check_one_line(result, 2, "--markdown: not allowed with argument --json")
