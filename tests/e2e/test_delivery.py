"""Delivery through every fault: each listing on LINE exactly once, none silently lost.

Each test drives the `hunter` CLI as a subprocess against a real PostgreSQL and the LINE
stand-in, which fails on demand. Backoff and lease are shortened in the config so that the
tests need not wait minutes; the logic is the same as with the defaults.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from hunter.store.postgres import PostgresStore
from hunter.store.states import RowStatus
from tests.support import postgres
from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, signalled, start_hunter, write_config
from tests.support.line_standin import TOKEN, LineStandIn
from tests.support.tcp_proxy import Proxy

FAST = {"backoff_seconds": [0.2, 0.2, 0.2, 0.2, 0.5], "lease_seconds": 2}


@dataclass
class Setup:
    folder: Path
    board: Board
    line: LineStandIn
    database_url: str

    def __post_init__(self) -> None:
        self.env = base_env(self.folder, DATABASE_URL=self.database_url, **self.line.env())
        self.seed = [("seed", "seed listing")]
        self.url = self.board.serve_jobs("/jobs", self.seed)
        self.configure()

    def configure(self, **settings: Any) -> None:
        write_config(self.folder, [html_source("board", self.url)], **{**FAST, **settings})

    def run(
        self, *args: str, own_process: bool = False, **env: str
    ) -> subprocess.CompletedProcess[str]:
        return run_hunter(self.folder, *args, env={**self.env, **env}, own_process=own_process)

    def prime_then_post(self, count: int, title: str = "python job {n}") -> list[str]:
        """Prime the source, then show `count` new matching listings; their titles."""
        assert self.run("run", "--once").returncode == 0
        titles = [title.format(n=n) for n in range(1, count + 1)]
        self.board.serve_jobs("/jobs", [(f"j{n}", t) for n, t in enumerate(titles, 1)] + self.seed)
        return titles

    def states(self) -> dict[str, str]:
        with PostgresStore(self.database_url) as store:
            return {k: v for k, v in store.outbox.job_states().items() if not k.endswith(":seed")}

    def mid_push(self, answer: str, *args: str) -> subprocess.Popen[str]:
        """hunter started with `args`, once its first push reached LINE, whose answer is
        `answer` ("hold": none, "slow": two seconds late)."""
        self.line.script.append(answer)
        process = start_hunter(self.folder, *args, env=self.env)
        deadline = time.monotonic() + 30
        while not self.line.pushes and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.line.pushes, "hunter never pushed"
        return process

    def status(self) -> dict[str, Any]:
        result = self.run("status", "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)


@pytest.fixture
def setup(tmp_path: Path, board: Board, line: LineStandIn, migrated_pg_url: str) -> Setup:
    return Setup(tmp_path, board, line, migrated_pg_url)


def assert_once(line: LineStandIn, titles: list[str]) -> None:
    assert sorted(line.delivered) == sorted(titles)


def test_two_500s_then_ok(setup: Setup) -> None:
    titles = setup.prime_then_post(3)
    setup.line.script.extend([500, 500])
    result = setup.run("run", "--once")
    assert result.returncode == 0, result.stderr
    assert [p.status for p in setup.line.pushes] == [500, 500, 200]
    assert len({p.key for p in setup.line.pushes}) == 1  # one retry key for every attempt
    assert len({json.dumps(p.body) for p in setup.line.pushes}) == 1  # the identical body
    assert_once(setup.line, titles)
    assert set(setup.states().values()) == {"sent"}


def test_a_lost_response_is_not_sent_twice(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    setup.line.script.append("drop")
    result = setup.run("run", "--once")
    assert result.returncode == 0, result.stderr
    assert [p.status for p in setup.line.pushes] == [200, 409]  # the retry met its own key
    assert_once(setup.line, titles)
    assert set(setup.states().values()) == {"sent"}


def test_kill_9_mid_push_then_restart(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    process = setup.mid_push("hold", "run", "--once")
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    assert set(setup.states().values()) == {"sending"}  # the row says exactly what is known
    time.sleep(FAST["lease_seconds"] + 0.5)
    result = setup.run("run", "--once")
    assert result.returncode == 0, result.stderr
    assert [p.status for p in setup.line.pushes] == [200, 409]
    assert_once(setup.line, titles)
    assert set(setup.states().values()) == {"sent"}


def test_three_processes_at_once_split_the_work(setup: Setup) -> None:
    titles = setup.prime_then_post(30)
    setup.configure(max_alerts_per_poll=10)  # so that the work can be split at all
    started = time.monotonic()
    processes = [start_hunter(setup.folder, "run", "--once", env=setup.env) for _ in range(3)]
    outputs = [p.communicate(timeout=90) for p in processes]
    elapsed = time.monotonic() - started
    for process, (_out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err
    assert elapsed < 60  # nobody sat on another's lock until a timeout
    # A listing is queued once, whoever reads the board; each process delivers what waits
    # when it gets there, and a claim skips rows another process holds (SKIP LOCKED). One that
    # came before the listings were queued, or found nothing free, sends nothing, and what is
    # left waits for the next poll: never lost, never doubled. At 10 a poll, three more polls
    # are enough for all 30 however the first three fell.
    for _ in range(3):
        if set(setup.states().values()) == {"sent"}:
            break
        assert setup.run("run", "--once").returncode == 0
    assert_once(setup.line, titles)
    assert all(p.status == 200 for p in setup.line.pushes)  # no request met another's key
    assert set(setup.states().values()) == {"sent"}


def test_wrong_token_then_retry_all(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    bad = setup.run("run", "--once", LINE_CHANNEL_ACCESS_TOKEN="wrong-token-value")
    assert bad.returncode == 2, bad.stderr  # a cron's run goes red, with the fix
    assert "hunter: LINE rejected the channel access token" in bad.stderr.splitlines()[-1]
    assert "wrong-token-value" not in bad.stdout + bad.stderr
    rows = setup.status()["rows"]
    assert {r["status"] for r in rows} == {"stuck"}
    assert all("check LINE_CHANNEL_ACCESS_TOKEN" in r["last_error"] for r in rows)
    assert setup.line.delivered == []
    text = setup.run("status").stdout
    assert "LINE rejected the channel access token" in text and "hunter retry --all" in text
    assert setup.run("retry", "--all").returncode == 0
    assert setup.run("run", "--once").returncode == 0
    assert_once(setup.line, titles)


def test_a_long_outage_heals_by_itself(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    setup.line.script.extend([503] * 5)
    down = setup.run("run", "--once")
    assert down.returncode == 0, down.stderr
    assert [p.status for p in setup.line.pushes] == [503] * 5
    parked = setup.status()["rows"]
    assert {r["status"] for r in parked} == {"stuck"}
    assert all("sent again by itself" in r["last_error"] for r in parked)
    time.sleep(0.6)  # the parked batch's probe falls due (backoff_seconds[-1])
    up = setup.run("run", "--once")  # LINE is back; nobody ran a command
    assert up.returncode == 0, up.stderr
    assert_once(setup.line, titles)
    assert set(setup.states().values()) == {"sent"}


def test_monthly_limit_waits_without_burning_attempts(setup: Setup) -> None:
    titles = setup.prime_then_post(3)
    setup.line.quota_exhausted = True
    for _ in range(3):
        result = setup.run("run", "--once")
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("monthly message limit") == 1  # one warning per poll
    status = setup.status()
    assert status["outbox"]["pending"] == 3
    # Waiting, attempts unspent, and status says why
    assert [(r["status"], r["attempts"]) for r in status["rows"]] == [("pending", 0)] * 3
    assert all("monthly message limit" in r["last_error"] for r in status["rows"])
    said = setup.run("status").stdout
    assert "chat owner waits: LINE's monthly message limit is reached" in said, said
    setup.line.quota_exhausted = False
    assert setup.run("run", "--once").returncode == 0
    assert_once(setup.line, titles)


@contextlib.contextmanager
def behind_a_proxy(database_url: str) -> Iterator[tuple[Proxy, str]]:
    """The test database behind a TCP proxy a test can cut ("the database is down"), and the
    URL that reaches it through the proxy."""
    socket_path = postgres.unix_socket_of(database_url)
    parts = urlsplit(database_url)
    proxy = Proxy(socket_path or (parts.hostname or "127.0.0.1", parts.port or 5432))
    try:
        userinfo = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else "postgres@"
        yield (
            proxy,
            urlunsplit((parts.scheme, f"{userinfo}127.0.0.1:{proxy.port}", parts.path, "", "")),
        )
    finally:
        proxy.close()


def test_database_lost_between_push_and_its_result(setup: Setup) -> None:
    with behind_a_proxy(setup.database_url) as (proxy, proxied):
        setup.env["DATABASE_URL"] = proxied
        titles = setup.prime_then_post(2)
        setup.line.on_accept = proxy.cut
        lost = setup.run("run", "--once")
        assert lost.returncode == 1  # the run failed, and says so
        assert "PostgreSQL" in lost.stderr and "Traceback" not in lost.stderr
        setup.line.on_accept = None
        proxy.restore()
        assert set(setup.states().values()) == {"sending"}
        time.sleep(FAST["lease_seconds"] + 0.5)
        again = setup.run("run", "--once")
        assert again.returncode == 0, again.stderr
        assert [p.status for p in setup.line.pushes] == [200, 409]
        assert_once(setup.line, titles)


def test_a_worker_whose_database_blinked_polls_again_within_seconds(setup: Setup) -> None:
    """A new user's find: the database restarted for a few seconds, the poll failed, and
    `hunter run` read nothing more for half an hour (its interval). A failed poll is tried
    again as a failed push is: after backoff_seconds' first, doubled, up to the interval."""
    with behind_a_proxy(setup.database_url) as (proxy, proxied):
        setup.configure(interval_minutes=0.1, backoff_seconds=[1, 1, 1, 1, 1])  # polls 6 s apart
        process = start_hunter(setup.folder, "run", env={**setup.env, "DATABASE_URL": proxied})
        try:

            def read_after(hits: int) -> bool:  # the board is read again within 30 s
                deadline = time.monotonic() + 30
                while setup.board.hits.get("/jobs", 0) <= hits and time.monotonic() < deadline:
                    time.sleep(0.05)
                return setup.board.hits.get("/jobs", 0) > hits

            assert read_after(0)  # the first poll
            proxy.cut()
            time.sleep(8)  # a poll fails, and is tried again after 1 s, 2 s, 4 s
            proxy.restore()
            assert read_after(setup.board.hits["/jobs"])
        finally:
            process.send_signal(signal.SIGTERM)
            _out, err = process.communicate(timeout=60)
        assert "; tried again in 1 s" in err and "; tried again in 2 s" in err, err
        assert "Traceback" not in err


def test_one_rejected_listing_does_not_hold_back_the_others(setup: Setup) -> None:
    titles = setup.prime_then_post(5)
    bad = titles[2]
    setup.line.reject.add(bad)
    result = setup.run("run", "--once")
    assert result.returncode == 0, result.stderr
    assert_once(setup.line, [t for t in titles if t != bad])
    rows = setup.status()["rows"]
    assert [(r["title"], r["status"]) for r in rows] == [(bad, "stuck")]
    assert "LINE rejected this listing: The request body has 1 error(s)" in rows[0]["last_error"]
    assert "May not be empty" in rows[0]["last_error"]


def test_25_new_listings_take_one_push(setup: Setup) -> None:
    titles = setup.prime_then_post(25)
    assert setup.run("run", "--once").returncode == 0
    assert len(setup.line.pushes) == 1  # the issue allows 2; hunter packs 48 per push
    assert_once(setup.line, titles)


def test_beyond_the_cap_listings_wait_and_the_alert_says_so(setup: Setup) -> None:
    setup.configure(max_alerts_per_poll=4)
    titles = setup.prime_then_post(7)
    assert setup.run("run", "--once").returncode == 0
    assert len(setup.line.delivered) == 4
    texts = [m["text"] for m in setup.line.pushes[0].body["messages"] if m["type"] == "text"]
    assert texts == ["3 more new listings wait for the next poll (max_alerts_per_poll = 4)."]
    assert setup.run("run", "--once").returncode == 0
    assert_once(setup.line, titles)


def test_quota_warning_once_a_month(setup: Setup) -> None:
    # Pacing keeps hunter's own pushes inside the plan, so the warning now means someone else
    # spends the channel's messages: here 189 of 200 are gone before hunter's first push.
    setup.line.quota_limit = 200
    setup.line.others_used = 189
    setup.prime_then_post(1)
    warned = setup.run("run", "--once")  # the last message of the pace's budget, then a notice
    assert len(setup.line.delivered) == 1
    assert "190 of this month's 200 LINE messages are used" in warned.stderr
    setup.board.serve_jobs("/jobs", [("k1", "python extra one"), ("k2", "python extra two")])
    assert setup.run("run", "--once").returncode == 0  # the notice spends the reserve ...
    assert sorted(setup.line.delivered[1:]) == [  # ... and carries what waits with it
        "python extra one",
        "python extra two",
        "📈 190 of this month's 200 LINE messages are used",
    ]
    setup.board.serve_jobs("/jobs", [("k3", "python extra three")])
    held = setup.run("run", "--once")  # only the reserve is left: listings wait for next month
    assert held.returncode == 0 and len(setup.line.delivered) == 4
    assert "1 held by the pace" in held.stderr
    text = setup.run("status").stdout
    assert "LINE quota: 191 of 200 messages used this month" in text


def test_status_shows_the_pace(setup: Setup) -> None:
    setup.line.quota_limit = 200
    setup.line.others_used = 5
    setup.prime_then_post(2)
    assert setup.run("run", "--once").returncode == 0
    text = setup.run("status").stdout
    assert (
        "Pace: 200 messages this month, 6 used, 10 kept for hunter's notices; a push every ~"
        in (text)
    )
    assert "next push may go" in text and "0 listings wait for it" in text
    pace = setup.status()["pace"]
    assert {k: pace[k] for k in ("plan", "used", "reserve", "pushes_this_month", "waiting")} == {
        "plan": 200,
        "used": 6,
        "reserve": 10,
        "pushes_this_month": 1,
        "waiting": 0,
    }
    assert pace["push_every_seconds"] > 0 and pace["next_push_at"]


def test_sigterm_mid_push_exits_0_and_delivers_once(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    process = setup.mid_push("slow", "run")
    err, took = signalled(process, signal.SIGTERM, timeout=25)
    assert process.returncode == 0, err
    assert took < 25
    assert "SIGTERM received" in err
    restart = setup.run("run", "--once")
    assert restart.returncode == 0
    assert_once(setup.line, titles)
    assert set(setup.states().values()) == {"sent"}
    assert TOKEN not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_cron_run_stopped_mid_push_finishes_it_and_leaves_the_rest_waiting(
    setup: Setup, signum: signal.Signals
) -> None:
    """GitHub cancels a run with SIGINT, then SIGTERM 7.5 s later, then SIGKILL: the push in
    flight finishes (not left `sending` for the next run to call stuck), no new one starts,
    and the rest wait for the next run. Two chats: a push each."""
    group = "C" + "0" * 32
    setup.line.members[group] = 3
    setup.configure(chats=[{"name": "studio", "to": group}])
    titles = setup.prime_then_post(2)
    process = setup.mid_push("slow", "run", "--once")
    process.send_signal(signum)
    _out, err = process.communicate(timeout=25)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err
    assert f"{signum.name} received" in err
    assert "2 listings wait for the next run" in err
    assert [p.status for p in setup.line.pushes] == [200]  # finished; no new push started
    assert sorted(setup.line.delivered) == sorted(titles)
    again = setup.run("run", "--once")
    assert again.returncode == 0, again.stderr
    assert sorted(setup.line.delivered) == sorted(titles * 2)  # each chat's, once
    with PostgresStore(setup.database_url) as store:
        assert store.outbox.counts()[RowStatus.SENDING] == 0


def test_a_run_with_no_source_due_says_what_it_sent(setup: Setup) -> None:
    """A new user's find: `run --once` printed "1 source not due yet, so none was read" in a
    run that had just sent what waited."""
    setup.configure(schedule="learned")
    assert setup.run("run", "--once").returncode == 0  # primes
    setup.board.serve_jobs("/jobs", [("j1", "python job 1"), *setup.seed])
    setup.line.script.append(400)  # LINE refuses it: stuck until a person says
    assert setup.run("run", "--once", "--all").returncode == 0
    assert setup.run("retry", "--all").returncode == 0
    again = setup.run("run", "--once")
    assert again.returncode == 0, again.stderr
    assert "1 source not due yet, so none was read; 1 alert that waited sent" in again.stdout
    assert_once(setup.line, ["python job 1"])


def test_a_rate_limit_waits_then_delivers_once(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    setup.line.script.append(429)  # "The API rate limit has been exceeded"
    limited = setup.run("run", "--once")
    assert limited.returncode == 0, limited.stderr
    assert [p.status for p in setup.line.pushes] == [429]  # no hammering: delivery stopped
    assert {r["status"] for r in setup.status()["rows"]} == {"retry"}
    time.sleep(0.3)
    assert setup.run("run", "--once").returncode == 0
    assert [p.status for p in setup.line.pushes] == [429, 200]
    assert_once(setup.line, titles)


def test_a_200_whose_body_is_not_lines_is_delivery(setup: Setup) -> None:
    titles = setup.prime_then_post(2)
    setup.line.script.append("html")  # LINE took it; a proxy answered 200 with a web page
    result = setup.run("run", "--once")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert [p.status for p in setup.line.pushes] == [200]  # a 200 is delivery: not sent again
    assert_once(setup.line, titles)
    assert setup.states() == dict.fromkeys(setup.states(), "sent")


def test_a_trickling_answer_ends_at_the_push_deadline(setup: Setup) -> None:
    titles = setup.prime_then_post(1)
    setup.line.script.append("trickle")  # one byte every 2 s: no read ever times out
    started = time.monotonic()
    result = setup.run("run", "--once", own_process=True)  # the push's thread ends with it
    assert result.returncode == 0, result.stderr
    # lease_seconds = 2 in these tests, so the deadline is its floor of 5 s, not minutes.
    assert time.monotonic() - started < 20
    assert "no complete answer within 5 s" in result.stderr
    assert_once(setup.line, titles)


def test_a_quiet_cron_run_with_line_set_loads_nothing_of_lines(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """Issue 56: a quiet `run --once` with LINE configured, as users have it, imported
    urllib3 for LINE's errors (about a tenth of the run). Neither it nor LINE's SDK is
    loaded before a push or a failure needs them."""
    env = base_env(tmp_path, **line.env(), PYTHONPROFILEIMPORTTIME="1")
    url = board.serve_jobs("/quiet", [("1", "python job")])
    write_config(tmp_path, [html_source("quiet", url)], schedule="fixed")
    assert run_hunter(tmp_path, "run", "--once", env=env, own_process=True).returncode == 0
    quiet = run_hunter(tmp_path, "run", "--once", env=env, own_process=True)
    assert quiet.returncode == 0 and board.hits["/quiet"] == 2
    imported = {line.split("|")[-1].strip() for line in quiet.stderr.splitlines() if "|" in line}
    assert "hunter.channels.line.push" in imported  # LINE is the channel, and set
    assert not {m for m in imported if m.startswith(("urllib3", "linebot"))}, sorted(imported)
    assert line.pushes == []
