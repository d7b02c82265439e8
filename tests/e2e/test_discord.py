"""Discord beside LINE, as a user runs it: the CLI as a subprocess, the owner on LINE and a
team's channel on Discord ([[chats]] to = "discord:team", its webhook URL in
DISCORD_WEBHOOK_TEAM), with a SQLite file and with PostgreSQL, against a Discord stand-in
that answers as Discord's docs say (tests/support/discord_standin.py). Each listing reaches
each chat once with its link; a mention in a listing pings nobody; a 429 is waited out; a
deleted webhook is asked at most once a poll, then held as gone with its rows kept, and they
go once a webhook is back; the webhook's token is in no output."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.discord_standin import TOKEN, WEBHOOK_ID, DiscordStandIn
from tests.support.line_standin import LineStandIn
from tests.support.local_server import free_port

FAST = {"backoff_seconds": [0.2, 0.2, 0.2, 0.2, 0.5], "lease_seconds": 2}


@pytest.fixture
def dc_env(env: dict[str, str], discord: DiscordStandIn) -> dict[str, str]:
    return {**env, "DISCORD_WEBHOOK_TEAM": discord.webhook_url()}


def configure(folder: Path, url: str, **more: Any) -> None:
    write_config(
        folder,
        [html_source("board", url)],
        filter={"include": ["python"]},
        chats=[{"name": "team", "to": "discord:team"}],
        **FAST,
        **more,
    )


def run(folder: Path, env: dict[str, str], *args: str) -> Any:
    result = run_hunter(folder, *(args or ("run", "--once")), env=env)
    assert result.returncode in (0, 1), result.stderr
    return result


def prime_then_post(
    folder: Path, board: Board, env: dict[str, str], titles: list[str], **more: Any
) -> str:
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    configure(folder, url, **more)
    assert run(folder, env).returncode == 0
    jobs = [(f"j{n}", title) for n, title in enumerate(titles, start=1)]
    board.serve_jobs("/jobs", [*jobs, ("seed", "python seed")])
    return url


def test_each_listing_reaches_line_and_discord_once_with_its_link(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    prime_then_post(tmp_path, board, dc_env, ["python bot", "python scraper"])
    assert line.pushes == [] and discord.messages == []  # priming is silent
    started = run(tmp_path, dc_env)
    assert "alerts to LINE and Discord" in started.stdout
    run(tmp_path, dc_env)  # the same page again: nothing twice
    assert sorted(line.delivered) == ["python bot", "python scraper"]
    assert sorted(discord.titles()) == ["python bot", "python scraper"]
    links = sorted(link for posted in discord.messages for link in posted.links)
    assert [link.split("?")[0] for link in links] == [f"{board.url}/job/j1", f"{board.url}/job/j2"]
    assert line.used == 1  # Discord's message costs LINE nothing
    status = run(tmp_path, dc_env, "status").stdout
    assert "team (discord:team): Discord, no monthly quota, 2 sent this month" in status
    check = run(tmp_path, dc_env, "check").stdout
    assert f"Discord: team (discord:team): webhook 'hunter alerts' (id {WEBHOOK_ID})" in check
    said = started.stdout + started.stderr + status + check
    assert TOKEN not in said and discord.webhook_url() not in said  # never shown


@pytest.mark.parametrize("owner", [None, "discord:team"], ids=["chats", "owner"])
def test_a_discord_only_setup_on_a_host_is_told_no_missing_channel(
    tmp_path: Path,
    board: Board,
    discord: DiscordStandIn,
    migrated_pg_url: str,
    owner: str | None,
) -> None:
    """A new user's find: on GitHub Actions, alerts to a [[chats]] on Discord (or an owner
    there), with no LINE, were delivered, yet every run warned "no channel is set on GitHub
    Actions" and `hunter check` failed on it. No chat's alerts go to the channel of ids
    without a prefix, so nothing stands in for it, and nothing is said of it."""
    env = {
        **base_env(tmp_path, DATABASE_URL=migrated_pg_url, GITHUB_ACTIONS="true"),
        "DISCORD_WEBHOOK_TEAM": discord.webhook_url(),
    }
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    chats = [] if owner else [{"name": "team", "to": "discord:team"}]
    more = {"owner": owner} if owner else {}
    write_config(
        tmp_path, [html_source("board", url)], filter={"include": ["python"]}, chats=chats, **more
    )
    assert run(tmp_path, env).returncode == 0
    board.serve_jobs("/jobs", [("j1", "python bot"), ("seed", "python seed")])
    result = run(tmp_path, env)
    assert result.returncode == 0 and "no channel is set" not in result.stdout + result.stderr
    assert discord.titles() == ["python bot"]
    check = run(tmp_path, env, "check")
    assert check.returncode == 0, check.stdout
    assert "no channel is set" not in check.stdout and "Discord: " in check.stdout
    status = run(tmp_path, env, "status").stdout
    assert "wait for a channel" not in status


def test_a_mention_in_a_listing_pings_no_one(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    prime_then_post(tmp_path, board, dc_env, ["python @everyone <@&123> @here"])
    run(tmp_path, dc_env)
    assert discord.titles() == ["python @everyone <@&123> @here"]  # shown as written
    assert discord.pinged == [[]]
    body = discord.messages[0].body
    assert body["allowed_mentions"] == {"parse": []}


def test_a_429_and_a_500_are_waited_out_and_delivered_once(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    prime_then_post(tmp_path, board, dc_env, [f"python {n}" for n in range(14)])
    discord.script.extend(["429:0.3", "500"])
    run(tmp_path, dc_env)
    run(tmp_path, dc_env)
    assert sorted(discord.titles()) == sorted(f"python {n}" for n in range(14))  # each once
    status = json.loads(run(tmp_path, dc_env, "status", "--json").stdout)
    assert status["rows"] == []


def test_the_webhooks_rate_limit_headers_are_obeyed(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    """60 listings are 6 posts in a row; Discord takes 5 per 2 s: the sender reads
    X-RateLimit-Remaining 0 and waits X-RateLimit-Reset-After instead of meeting a 429."""
    titles = [f"python {n}" for n in range(60)]
    prime_then_post(tmp_path, board, dc_env, titles, max_alerts_per_poll=200, flood_threshold=100)
    run(tmp_path, dc_env)
    assert len(discord.messages) == 6 and len(discord.titles()) == 60
    assert discord.limited == 0


def test_a_lost_answer_is_held_never_sent_twice(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    prime_then_post(tmp_path, board, dc_env, ["python lost"])
    discord.script.append("lost")
    run(tmp_path, dc_env)
    run(tmp_path, dc_env)
    assert discord.titles() == ["python lost"]  # once, though no answer came
    [row] = json.loads(run(tmp_path, dc_env, "status", "--json").stdout)["rows"]
    assert row["status"] == "stuck" and "delivery unknown" in row["last_error"]
    # A new user's find: `hunter prime` dropped it for good; it may have arrived, and only
    # `hunter retry` decides
    assert run(tmp_path, dc_env, "prime").returncode == 0
    [row] = json.loads(run(tmp_path, dc_env, "status", "--json").stdout)["rows"]
    assert row["status"] == "stuck" and "delivery unknown" in row["last_error"]


def test_a_deleted_webhook_is_held_as_gone_and_its_rows_go_when_it_is_back(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    prime_then_post(tmp_path, board, dc_env, ["python a"])
    discord.deleted.add(WEBHOOK_ID)
    run(tmp_path, dc_env)
    # Asked once (its check before the first post), told 10015 "Unknown Webhook"
    assert discord.checks + discord.executions == 1
    jobs = [("j1", "python a"), ("j2", "python b"), ("seed", "python seed")]
    board.serve_jobs("/jobs", jobs)
    for _ in range(2):
        run(tmp_path, dc_env)
    assert discord.checks + discord.executions == 1  # held as gone: not asked again
    gone = [title for title in line.delivered if title.startswith("🚪")]
    assert gone == ["🚪 The bot is no longer in chat team (discord:team)"]  # told once
    status = json.loads(run(tmp_path, dc_env, "status", "--json").stdout)
    assert status["outbox"]["pending"] == 2  # waiting, not lost
    # A new webhook for the channel, its URL set where hunter runs: the rows go.
    discord.webhooks["9876543210"] = TOKEN
    back = {**dc_env, "DISCORD_WEBHOOK_TEAM": discord.webhook_url("9876543210")}
    run(tmp_path, back)
    assert sorted(discord.titles()) == ["python a", "python b"]
    assert json.loads(run(tmp_path, back, "status", "--json").stdout)["outbox"]["pending"] == 0


def test_a_discord_chat_without_its_webhook_stops_with_one_line(
    tmp_path: Path, board: Board, dc_env: dict
) -> None:
    configure(tmp_path, board.serve_jobs("/jobs", [("1", "python")]))
    missing = {k: v for k, v in dc_env.items() if k != "DISCORD_WEBHOOK_TEAM"}
    result = run_hunter(tmp_path, "run", "--once", env=missing)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "[[chats]] 'team' is a Discord channel, and DISCORD_WEBHOOK_TEAM is not set" in (
        result.stderr
    )
    bad = "https://example.com/not/a/webhook-secret-part"
    result = run_hunter(tmp_path, "run", "--once", env={**dc_env, "DISCORD_WEBHOOK_TEAM": bad})
    assert result.returncode == 2 and "is not a Discord webhook URL" in result.stderr
    assert bad not in result.stderr
    # A new user's find: a webhook's path at another host, or Discord's over http, passed:
    # its token would have gone to a typo's domain, or travelled unencrypted
    secret = "T" * 68
    for url, said in (
        (f"https://discordd.com/api/webhooks/1234/{secret}", "names 'discordd.com', not Discord"),
        (f"http://discord.com/api/webhooks/1234/{secret}", "its token would travel unencrypted"),
    ):
        result = run_hunter(tmp_path, "check", env={**dc_env, "DISCORD_WEBHOOK_TEAM": url})
        assert result.returncode == 2 and said in result.stdout + result.stderr
        assert secret not in result.stdout + result.stderr


@pytest.mark.parametrize("spelling", ["TEAM", "again"])
def test_one_webhook_under_two_names_stops_with_one_line(
    tmp_path: Path, board: Board, dc_env: dict, spelling: str
) -> None:
    """Issue 45, finding 7: "discord:team" beside "discord:TEAM" (both read
    DISCORD_WEBHOOK_TEAM), or two variables holding one URL: `hunter check` passed and the
    channel got every listing twice. One webhook is one destination, however it is spelled."""
    url = board.serve_jobs("/jobs", [("1", "python")])
    chats = [{"name": "team", "to": "discord:team"}, {"name": "two", "to": f"discord:{spelling}"}]
    write_config(tmp_path, [html_source("board", url)], chats=chats)
    env = {**dc_env, "DISCORD_WEBHOOK_AGAIN": dc_env["DISCORD_WEBHOOK_TEAM"]}
    for command in ("check", "run"):
        result = run_hunter(tmp_path, command, *(["--once"] if command == "run" else []), env=env)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        said = result.stdout + result.stderr
        assert "[[chats]] 'team' and [[chats]] 'two' post to one Discord webhook" in said
        assert TOKEN not in said
    # A new user's find: the owner's line and a [[chats]] of one webhook were told to "remove
    # one of the two [[chats]]", and the owner's line is none
    write_config(tmp_path, [html_source("board", url)], chats=chats[:1], owner="discord:team")
    alone = {k: v for k, v in env.items() if not k.startswith("LINE_")}  # no LINE at all
    checked = run_hunter(tmp_path, "check", env=alone)
    said = checked.stdout + checked.stderr
    assert "the owner (owner = \"discord:team\" in hunter.toml) and [[chats]] 'team' post" in said
    assert "from DISCORD_WEBHOOK_TEAM)" in said  # one variable, named once


def test_a_webhook_url_cut_short_fails_the_run_and_its_alerts_go_once_it_is_right(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    """A new user's find: a URL pasted with its token cut short was taken for a chat the bot
    had left (401 Invalid Webhook Token): the run exited 0, the notice told them to unblock a
    bot Discord does not have, and once the URL was right the alert still waited a day."""
    prime_then_post(tmp_path, board, dc_env, ["python a"])
    cut = {**dc_env, "DISCORD_WEBHOOK_TEAM": discord.webhook_url()[:-3]}
    failed = run_hunter(tmp_path, "run", "--once", env=cut)
    assert failed.returncode == 2  # a setting to mend, as a refused Telegram or LINE token
    said = failed.stdout + failed.stderr
    assert "DISCORD_WEBHOOK_TEAM is not the webhook's whole URL" in said
    assert "🚪" not in "".join(line.delivered) and discord.titles() == []
    assert discord.webhook_url()[-30:] not in said  # no part of the token shown
    checked = run_hunter(tmp_path, "check", env=cut)
    assert "DISCORD_WEBHOOK_TEAM is not the webhook's whole URL" in checked.stdout
    run(tmp_path, dc_env, "retry", "--all")
    run(tmp_path, dc_env)  # the URL set right: at once
    assert discord.titles() == ["python a"]


def test_a_hyphenated_channel_name_reads_its_webhook_from_its_variable(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, env: dict
) -> None:
    """A new user's find: Discord names channels "design-team", and `to = "discord:design-
    team"` was refused as no recipient at all; its variable is DISCORD_WEBHOOK_DESIGN_TEAM."""
    url = board.serve_jobs("/jobs", [("seed", "python seed")])
    chats = [{"name": "design-team", "to": "discord:design-team"}]
    write_config(tmp_path, [html_source("board", url)], filter={"include": ["python"]}, chats=chats)
    alone = {k: v for k, v in env.items() if not k.startswith("LINE_")}  # Discord only
    hooked = {**alone, "DISCORD_WEBHOOK_DESIGN_TEAM": discord.webhook_url()}
    assert run(tmp_path, hooked).returncode == 0
    board.serve_jobs("/jobs", [("j1", "python one"), ("seed", "python seed")])
    sent = run(tmp_path, hooked)
    assert sent.returncode == 0 and discord.titles() == ["python one"]
    # A new user's find: with no owner, every poll said "0 new matching (+1 for the other
    # chats)", as if nothing matched
    assert "1 new matching for the chats" in sent.stderr
    # ... and `hunter tuning --chat` named an "owner" chat there is none of
    asked = run_hunter(tmp_path, "tuning", "--chat", "desing-team", env=hooked)
    assert asked.returncode == 2
    assert asked.stderr.strip() == (
        "hunter: no chat named 'desing-team' (did you mean 'design-team'?); the chats are "
        "design-team"
    )
    missing = run_hunter(tmp_path, "check", env=env)
    assert missing.returncode == 2 and "DISCORD_WEBHOOK_DESIGN_TEAM is not set" in (
        missing.stdout + missing.stderr
    )


def test_status_says_why_a_chat_waits_when_its_channel_cannot_be_reached(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    """A new user's find: with Discord out of reach, `hunter status` said "pending 1" and
    "team ... 1 waiting", not why; the reason was only in the run's log, which a cron's user
    never reads."""
    prime_then_post(tmp_path, board, dc_env, ["python a"])
    here = discord.webhook_url()
    gone = re.sub(r":\d+/", f":{free_port()}/", here, count=1)  # nothing listens there
    away = {**dc_env, "DISCORD_WEBHOOK_TEAM": gone}
    assert run(tmp_path, away).returncode in (0, 1)
    status = run(tmp_path, away, "status").stdout
    assert "chat team waits: cannot reach Discord" in status, status
    assert TOKEN not in status
    run(tmp_path, dc_env)  # within reach again: sent, and status says nothing of it
    assert discord.titles() == ["python a"]
    assert "waits:" not in run(tmp_path, dc_env, "status").stdout


def test_status_reads_without_a_discord_chats_webhook_and_says_what_to_set(
    tmp_path: Path, board: Board, line: LineStandIn, discord: DiscordStandIn, dc_env: dict
) -> None:
    """A new user's find: `hunter status`, which only reads, stopped for want of
    DISCORD_WEBHOOK_TEAM, set only where hunter runs. A run still stops for it."""
    prime_then_post(tmp_path, board, dc_env, ["python a"])
    missing = {k: v for k, v in dc_env.items() if k != "DISCORD_WEBHOOK_TEAM"}
    status = run_hunter(tmp_path, "status", env=missing)
    assert status.returncode == 0, status.stderr
    assert "DISCORD_WEBHOOK_TEAM is not set" in status.stdout, status.stdout
    ran = run_hunter(tmp_path, "run", "--once", env=missing)
    assert ran.returncode == 2 and "DISCORD_WEBHOOK_TEAM is not set" in ran.stderr
