"""The learned schedule end to end (issue 34), on SQLite and PostgreSQL: boards on 127.0.0.1
answering JSON with posted times, a cron's `run --once` every 5 minutes on a fake clock (a new
Hunter on a newly opened store per run, as separate processes), and what a user checks: how
often each board was read, that every listing arrived once, and what `hunter status --json`
says of the schedule."""

from __future__ import annotations

import itertools
import json
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from hunter.app.service import Hunter
from hunter.poll import timetable
from hunter.rules.destinations import Destinations
from hunter.settings.config import Config, parse_config
from hunter.status.report import gather
from hunter.status.text import as_json
from hunter.store import Store
from tests.conftest import open_test_store
from tests.support.board import Board, html_source
from tests.support.cli import base_env, start_hunter, write_config
from tests.support.line_standin import LineStandIn, titles_of
from tests.support.scripted import Clock, ScriptedSender

BANGKOK = ZoneInfo("Asia/Bangkok")
START = datetime(2026, 11, 10, 6, 0, tzinfo=BANGKOK)
CRON = timedelta(minutes=5)


def trace(per_hour: Callable[[int], float], seed: int) -> list[datetime]:
    """Posting times from 10 days before START to a day after, Poisson hour by hour."""
    rng, times = random.Random(seed), []
    first = START - timedelta(days=10, hours=START.hour)
    for hour in range(24 * 11):
        rate, t = per_hour(hour % 24), 0.0
        while rate and (t := t + rng.expovariate(rate)) < 1.0:
            times.append(first + timedelta(hours=hour + t))
    return times


def busy(hour: int) -> float:
    return 7.0 if 9 <= hour < 21 else 0.4


def quiet(hour: int) -> float:
    return 0.25 if 9 <= hour < 21 else 0.0


@dataclass
class Boards:
    """Boards posting on their traces, each page the newest 50 with their posted times as
    `stamp` makes them (a board whose clock or dates are wrong)."""

    board: Board
    traces: dict[str, list[datetime]]
    stamps: dict[str, Callable[[datetime, datetime], str | None]] = field(default_factory=dict)

    def show(self, now: datetime) -> None:
        for name, times in self.traces.items():
            stamp = self.stamps.get(name, lambda posted, now: posted.isoformat())
            shown = [(n, t) for n, t in enumerate(times) if t <= now][-50:]
            jobs = [
                {"id": n, "title": f"python {name} {n}", "url": f"https://{name}.test/{n}",
                 **({"posted": s} if (s := stamp(t, now)) else {})}
                for n, t in reversed(shown)
            ]  # fmt: skip
            self.board.serve_json(f"/{name}", {"jobs": jobs})

    def config(self, **top: Any) -> Config:
        sources = [
            {"name": name, "kind": "json", "url": f"{self.board.url}/{name}", "items": "jobs",
             "id": "id", "title": "title", "link": "url", "posted": "posted"}
            for name in self.traces
        ]  # fmt: skip
        raw = {"sources": sources, "timezone": "Asia/Bangkok", "filter": {"include": ["python"]}}
        return parse_config({**raw, **top})


@pytest.fixture
def kind(request: pytest.FixtureRequest) -> str:
    """SQLite, and PostgreSQL too where a test is `@on_both` (replicas claiming on it)."""
    return str(getattr(request, "param", "sqlite"))


on_both = pytest.mark.parametrize("kind", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def opener(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], Store]:
    url = request.getfixturevalue("migrated_pg_url") if kind == "postgres" else None
    return lambda: open_test_store(kind, tmp_path, url)


def cron(
    boards: Boards,
    config: Config,
    opener: Callable[[], Store],
    clock: Clock,
    sender: ScriptedSender,
    until: datetime,
) -> Iterator[Counter[str]]:
    """A `run --once` every CRON until `until`: each run's reads per board."""
    while clock.now < until:
        boards.show(clock.now)
        before = Counter(boards.board.hits)
        store = opener()
        try:
            Hunter(config, store, sender, clock, "cron", threading.Event()).poll_once()
        finally:
            store.close()
        yield Counter(
            {n: boards.board.hits.get(f"/{n}", 0) - before[f"/{n}"] for n in boards.traces}
        )
        clock.now += CRON


def arrived(sender: ScriptedSender) -> Counter[str]:
    """Each listing's title, as many times as a push carried it."""
    return Counter(t for _key, batch in sender.pushes for t in titles_of({"messages": batch}))


def posted_between(boards: Boards, name: str, start: datetime, end: datetime) -> set[str]:
    return {f"python {name} {n}" for n, t in enumerate(boards.traces[name]) if start <= t < end}


@on_both
def test_a_5_minute_cron_reads_a_busy_board_often_and_a_quiet_one_rarely(
    board: Board, opener: Callable[[], Store]
) -> None:
    boards = Boards(board, {"busy": trace(busy, 1), "quiet": trace(quiet, 2)})
    config, clock, sender = boards.config(), Clock(START), ScriptedSender()
    until = START + timedelta(hours=12)  # 06:00 to 18:00: 144 runs
    runs = list(cron(boards, config, opener, clock, sender, until))
    daytime = runs[(9 - 6) * 12 :]  # from 09:00
    reads = sum(daytime, Counter())
    assert reads["busy"] >= 3 * reads["quiet"]
    assert reads["busy"] <= len(daytime) * 3 / 4  # not every run: today's schedule reads 108
    assert reads["quiet"] <= 9 * 60 / 40  # about every 48 minutes at a quarter an hour
    # hunter started at 06:00, its first page showing the night: by 11:00 it has learned the
    # morning, and reads the busy board about every 10 minutes, every 30 (interval_minutes)
    # at most: it posts in every hour of the day
    read = [i for i, r in enumerate(runs) if r["busy"] and i >= 5 * 12]
    gaps = [b - a for a, b in itertools.pairwise(read)]
    assert statistics.median(gaps) <= 2 and max(gaps) <= 6
    got = arrived(sender)
    assert max(got.values()) == 1  # every listing once
    for name in ("busy", "quiet"):
        expected = posted_between(boards, name, START, until - timedelta(hours=1))
        assert expected <= set(got), name  # and none lost
    # What `hunter status --json` says of each board
    store = opener()
    try:
        report = gather(config, store, Destinations(None, ()), sender, clock.now)
        sources = {s["name"]: s["schedule"] for s in json.loads(as_json(report))["sources"]}
    finally:
        store.close()
    assert sources["busy"]["reads_today"] == sum(r["busy"] for r in runs)
    assert sources["busy"]["next_read_reason"] in ("busy", "quiet")
    assert datetime.fromisoformat(sources["quiet"]["next_read_at"]) > clock.now - CRON
    assert sources["busy"]["posted_to_sent"]["median_s"] <= 9 * 60  # the first day
    assert sources["busy"]["posted_to_sent"]["p90_s"] <= 20 * 60
    assert sources["busy"]["listings_an_hour"] > sources["quiet"]["listings_an_hour"]


def _gaps(runs: list[Counter[str]], name: str) -> list[int]:
    """Runs between two reads of `name`."""
    read = [i for i, r in enumerate(runs) if r[name]]
    return [b - a for a, b in itertools.pairwise(read)]


BAD: dict[str, Callable[[datetime, datetime], str | None]] = {
    "future": lambda posted, now: (now + timedelta(hours=7)).isoformat(),  # a timezone off
    "ancient": lambda posted, now: (posted - timedelta(days=3 * 365)).isoformat(),
    "garbled": lambda posted, now: "ลงเมื่อวาน",  # "posted yesterday": not a time
    "absent": lambda posted, now: None,
}


def test_bad_posted_times_never_stall_the_schedule_nor_lose_a_listing(
    board: Board, opener: Callable[[], Store]
) -> None:
    """Four boards as busy as each other, whose posted times are all in the future, years
    old, unreadable or absent: each is read from the new listings the store finds, never
    every run and never less than every slowest_minutes; every listing arrives once."""
    boards = Boards(board, {name: trace(busy, n) for n, name in enumerate(BAD)}, BAD)
    config, clock, sender = boards.config(), Clock(START), ScriptedSender()
    until = START + timedelta(hours=8)
    runs = list(cron(boards, config, opener, clock, sender, until))
    got = arrived(sender)
    assert max(got.values()) == 1
    for name in BAD:
        reads = [r[name] for r in runs]
        assert 8 * 60 / 180 <= sum(reads) < len(runs), name
        assert max(_gaps(runs, name)) <= 180 / 5, name
        assert posted_between(boards, name, START, until - timedelta(hours=3)) <= set(got)


def test_a_clock_that_jumps_back_or_forward_and_a_flood_never_stall_the_schedule(
    board: Board, opener: Callable[[], Store]
) -> None:
    """A VM restored from a snapshot two days old (every next read is two days ahead), then
    resumed a week later, then a board that renumbers 500 listings at once: each source is
    read at the first run after, and every listing arrives once."""
    boards = Boards(board, {"busy": trace(busy, 11)})
    config, clock, sender = boards.config(), Clock(START), ScriptedSender()
    list(cron(boards, config, opener, clock, sender, START + timedelta(hours=4)))
    clock.now -= timedelta(days=2)  # back: the stored next read is two days ahead
    [back] = cron(boards, config, opener, clock, sender, clock.now + CRON)
    assert back["busy"] == 1
    clock.now += timedelta(days=7)  # forward: a week of nothing read
    resumed = list(cron(boards, config, opener, clock, sender, clock.now + 2 * CRON))
    assert resumed[0]["busy"] == 1
    renumbered = [t + timedelta(seconds=1) for t in boards.traces["busy"]] + [clock.now] * 500
    boards.traces["busy"] = sorted(renumbered)
    list(cron(boards, config, opener, clock, sender, clock.now + timedelta(hours=2)))
    got = arrived(sender)
    assert max(n for title, n in got.items() if title.startswith("python")) == 1
    # a flood is one notice (each time a board shows more than 30 new at once), and the
    # schedule kept reading through it
    assert any(title.startswith("📦 busy") for title in got)


def test_every_retry_after_429_and_503_hold_under_the_learned_schedule(
    board: Board, opener: Callable[[], Store]
) -> None:
    """A day of a 5-minute cron: a board with every = "6h" (Remotive asks for 4 reads a day)
    is read 4 times; one answering 429 with Retry-After: 3600 once an hour; one answering 503
    with no time backs off, doubling, to slowest_minutes."""
    boards = Boards(board, {"terms": trace(busy, 5)})
    limited = board.serve(
        "/limited", "slow down", "text/plain", 429, headers={"Retry-After": "3600"}
    )
    down = board.serve("/down", "maintenance", "text/plain", 503)
    config = boards.config(
        sources=[
            {"name": "terms", "kind": "json", "url": f"{board.url}/terms", "items": "jobs",
             "id": "id", "title": "title", "every": "6h"},
            {"name": "limited", "kind": "json", "url": limited, "items": "jobs", "id": "id",
             "title": "title"},
            {"name": "down", "kind": "json", "url": down, "items": "jobs", "id": "id",
             "title": "title"},
        ]
    )  # fmt: skip
    clock, sender = Clock(START), ScriptedSender()
    list(cron(boards, config, opener, clock, sender, START + timedelta(days=1)))
    assert board.hits["/terms"] == 4
    assert 24 <= board.hits["/limited"] <= 25
    # 503 with no time: 10, 20, 40, 80, 160 min apart (never before the 30-minute schedule),
    # then every 3 hours: about 11 reads a day, not 288
    assert 8 <= board.hits["/down"] <= 14


def test_two_replicas_read_each_due_source_once(board: Board, pg_url: str, tmp_path: Path) -> None:
    """Two `hunter run` replicas on one PostgreSQL database wake at the same moments (the
    worst case): each due source is claimed by one of them and read once."""
    boards = Boards(board, {"busy": trace(busy, 7), "quiet": trace(quiet, 8)})
    config, clock, sender = boards.config(), Clock(START), ScriptedSender()
    stores = [open_test_store("postgres", tmp_path, pg_url) for _ in range(2)]
    hunters = [
        Hunter(config, s, sender, clock, f"replica-{n}", threading.Event())
        for n, s in enumerate(stores)
    ]
    gate = threading.Barrier(2)
    reads_per_wake: list[int] = []

    def wake(hunter: Hunter) -> None:
        gate.wait()
        hunter.poll(ahead=0.0)

    try:
        while clock.now < START + timedelta(hours=6):
            boards.show(clock.now)
            before = sum(board.hits.values())
            threads = [threading.Thread(target=wake, args=(h,)) for h in hunters]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            reads_per_wake.append(sum(board.hits.values()) - before)
            clock.now = max(min(h.next_wake() for h in hunters), clock.now + timedelta(seconds=1))
    finally:
        for s in stores:
            s.close()
    assert max(reads_per_wake) <= 2  # never both replicas on one board
    assert sum(reads_per_wake) < 2 * len(reads_per_wake)
    got = arrived(sender)
    assert max(got.values()) == 1


@on_both
def test_a_replica_killed_mid_read_holds_its_source_only_until_its_claim_runs_out(
    board: Board, opener: Callable[[], Store]
) -> None:
    """kill -9 between the claim and the note: the source is nobody's until the claim runs
    out (fetch_timeout_seconds and a minute), then the next poll reads it, and what it posted
    meanwhile arrives once."""
    boards = Boards(board, {"busy": trace(busy, 13)})
    morning = START + timedelta(hours=4)  # 10:00, a busy hour
    config, clock, sender = boards.config(), Clock(morning), ScriptedSender()
    list(cron(boards, config, opener, clock, sender, morning + CRON))  # primes
    store = opener()
    try:
        due_at = store.sources.states()["busy"].not_before
        assert due_at is not None
        clock.now = due_at + timedelta(minutes=20)  # overdue, and listings came meanwhile
        until = timetable.claim_until(config, clock.now)
        assert store.sources.claim({"busy": due_at}, until) == {"busy"}  # then it died
        survivor = Hunter(config, store, sender, clock, "survivor", threading.Event())
        boards.show(clock.now)
        hits = board.hits["/busy"]
        survivor.poll(ahead=0.0)
        assert board.hits["/busy"] == hits  # held by the dead replica's claim
        clock.now = until
        boards.show(clock.now)
        survivor.poll(ahead=0.0)
        assert board.hits["/busy"] == hits + 1
    finally:
        store.close()
    got = arrived(sender)
    expected = posted_between(boards, "busy", morning, clock.now)
    assert expected and expected == set(got) and max(got.values()) == 1


def test_hunter_run_wakes_when_a_source_is_due_not_every_interval(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    """A real `hunter run` with interval_minutes = 600 (a delivery check every 10 hours at
    least) reads a source whose schedule says every 3 seconds (slowest_minutes = 0.05) every
    3 seconds: it sleeps until the next read the store holds, not a whole interval."""
    url = board.serve_jobs("/jobs", [("1", "python job 1")])
    write_config(
        tmp_path,
        [html_source("board", url)],
        schedule="learned",
        interval_minutes=600,
        fastest_minutes=0.05,
        slowest_minutes=0.05,
    )
    process = start_hunter(tmp_path, "run", env=base_env(tmp_path, **line.env()))
    try:
        deadline = time.monotonic() + 30
        while board.hits.get("/jobs", 0) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        first = time.monotonic()
        board.serve_jobs("/jobs", [("2", "python job 2"), ("1", "python job 1")])
        while not line.delivered and time.monotonic() < deadline:
            time.sleep(0.1)
        assert line.delivered == ["python job 2"]  # read again seconds later, and sent
        assert time.monotonic() - first < 10
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
