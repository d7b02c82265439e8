"""Several chats through the CLI: `hunter run --once` on a real PostgreSQL against the LINE
stand-in, which counts a push to a group once per member and answers LINE's member-count
endpoints. A listing matching the owner's chat and a group of 4 is pushed once to each, LINE's
count grows by 1 + 4, and `hunter status` says so per chat."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import TO, LineStandIn

GROUP = "C" + "4c" * 16


def config_with_a_group(folder: Path, url: str) -> None:
    path = write_config(folder, [html_source("board", url)], filter={"include": ["python"]})
    with path.open("a", encoding="utf-8") as toml:
        toml.write(f'[[chats]]\nname = "studio"\nto = "{GROUP}"\ninclude = ["python", "logo"]\n')


def test_a_listing_for_the_owner_and_a_group_of_4_costs_5_messages(
    tmp_path: Path, board: Board, line: LineStandIn, migrated_pg_url: str
) -> None:
    line.members[GROUP] = 4
    line.quota_limit = 300
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config_with_a_group(tmp_path, url)
    env = base_env(tmp_path, DATABASE_URL=migrated_pg_url, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs("/jobs", [("seed", "seed"), ("1", "python scraper"), ("2", "logo design")])
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    # The owner's new listing, and the group's two (a new user's find: only the owner's said)
    assert "3 listings, 1 new matching (+2 for the other chats), 0 primed" in result.stderr
    pushed = {p.to: sorted(p.titles) for p in line.pushes if p.status == 200}
    assert pushed == {TO: ["python scraper"], GROUP: ["logo design", "python scraper"]}
    assert line.used == 1 + 4 and not line.violations
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert len([p for p in line.pushes if p.status == 200]) == 2  # nothing twice

    status = run_hunter(tmp_path, "status", "--json", env=env)
    chats = {c["name"]: c for c in json.loads(status.stdout)["chats"]}
    assert chats["owner"] == {
        "name": "owner",
        "to": TO,
        "recipients": 1,
        "gone": False,  # LINE never said the bot left
        "messages_this_month": 1,
        "sent_this_month": 1,  # listings
        "waiting": 0,
        "stuck": 0,
        "mutes": [],
        "changed": "",  # nothing changed from LINE (hunter tuning)
        "tuning": None,
        "held": "",
    }
    studio = chats["studio"]
    assert (studio["recipients"], studio["messages_this_month"], studio["sent_this_month"]) == (
        4,
        4,
        2,
    )
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert f"studio ({GROUP}): 4 recipients, 4 messages this month, 0 waiting" in text


def test_a_board_id_ending_in_a_chats_name_reaches_the_owner_and_the_chat(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """Issue 45, finding 3, as a user runs it (SQLite): a chat's rows were "<id>#<chat>", so a
    board id "7" then "7#studio" left "7#studio" with neither the owner nor studio, and
    "7#studio" then "7" left studio without "7". Now each listing reaches each chat, once."""
    line.members[GROUP] = 1
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config_with_a_group(tmp_path, url)
    env = base_env(tmp_path, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    shown = [("seed", "seed")]
    for native in ("7", "7#studio", "8#studio", "8"):
        shown.insert(0, (native, f"python {native}"))
        board.serve_jobs("/jobs", shown)
        assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    pushed: dict[str, list[str]] = {}
    for push in line.pushes:
        if push.status == 200:
            pushed.setdefault(push.to, []).extend(push.titles)
    titles = ["python 7", "python 7#studio", "python 8", "python 8#studio"]
    assert sorted(pushed[TO]) == sorted(pushed[GROUP]) == titles  # each, once, to each


def test_a_line_group_alone_gets_its_alerts_without_line_to(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """A new user's find: channels.md says a chat on LINE gets its alerts without LINE_TO, but
    the token without LINE_TO was refused ("LINE_TO is not set"). With a [[chats]] on LINE it
    is that chat's channel; without one, the refusal stands."""
    line.members[GROUP] = 3
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config_with_a_group(tmp_path, url)
    env = {k: v for k, v in base_env(tmp_path, **line.env()).items() if k != "LINE_TO"}
    check = run_hunter(tmp_path, "check", env=env)
    assert "LINE_TO is not set" not in check.stdout + check.stderr, check.stdout
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    board.serve_jobs("/jobs", [("seed", "seed"), ("1", "logo design")])
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert {p.to: p.titles for p in line.pushes if p.status == 200} == {GROUP: ["logo design"]}
    write_config(tmp_path, [html_source("board", url)])  # no chat on LINE: the token's alone
    alone = run_hunter(tmp_path, "check", env=env)
    assert alone.returncode == 2 and "LINE_TO is not set" in alone.stderr


def test_a_line_to_that_is_no_id_is_refused_at_start(tmp_path: Path, board: Board) -> None:
    """A new user's find: LINE_TO with a space inside passed check, and LINE refused every
    push ("the property, 'to', is invalid"), each listing stuck in turn, the run green."""
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    write_config(tmp_path, [html_source("board", url)])
    for wrong, said in (
        ("Uaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaa", "a space inside"),
        ("U" + "A" * 32, "capital letters"),
        ("Uzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "not a display name"),
    ):
        env = base_env(tmp_path, LINE_CHANNEL_ACCESS_TOKEN="t" * 40, LINE_TO=wrong)
        result = run_hunter(tmp_path, "check", env=env)
        assert result.returncode == 2 and said in result.stderr, (wrong, result.stderr)
