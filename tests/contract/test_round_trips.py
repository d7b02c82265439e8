"""A poll costs a constant number of database round trips, whatever the number of listings.

On PostgreSQL every port method is one statement in autocommit, so counting the port's calls
counts round trips; the count is taken with a real poll (fetch, parse, record, claim, push,
finish) against a local job board, on both adapters.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from hunter.app.service import Hunter, PollReport
from hunter.channels.terminal import TerminalSender
from hunter.settings.config import parse_config
from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from tests.support.board import Board, html_source
from tests.support.counting import CountingStore
from tests.support.scripted import Clock


def poll_calls(store: Store, board: Board, path: str, listings: int) -> Counter[str]:
    """The port calls of one poll that finds `listings` new listings on a primed source."""
    url = board.serve_jobs(path, [("seed", "seed")])
    config = parse_config(
        {
            "sources": [html_source(path.strip("/"), url)],
            "max_alerts_per_poll": 10_000,
            "flood_threshold": 0,  # 500 new listings are a flood otherwise
        }
    )
    counting = CountingStore(store)
    hunter = Hunter(
        config,
        counting,
        TerminalSender(),  # type: ignore[arg-type]
        clock=lambda: datetime.now(UTC),
    )
    hunter.poll()  # primes
    # Ids of this page's own: the same ids on one host are one link, one job on two sources
    board.serve_jobs(path, [(f"{path.strip('/')}-{n}", f"job {n}") for n in range(listings)])
    counting.calls.clear()
    hunter.poll()
    return counting.calls


PER_PUSH = {"outbox.claim_due", "outbox.claim_new", "outbox.save_batch", "outbox.mark_sent"}


def test_round_trips_do_not_grow_with_listings(store: Store, board: Board, capsys: Any) -> None:
    small = poll_calls(store, board, "/small", 10)
    large = poll_calls(store, board, "/large", 500)
    capsys.readouterr()
    # LINE takes 48 listings per request, so the push loop runs ceil(n / 48) times ...
    assert small["outbox.mark_sent"] == 1 and large["outbox.mark_sent"] == 11
    for name in PER_PUSH:
        assert large[name] - small[name] == 10, name
    # ... and everything else is the same for 10 listings as for 500.
    fixed = {k: v for k, v in small.items() if k not in PER_PUSH}
    assert fixed == {k: v for k, v in large.items() if k not in PER_PUSH}
    # the sources' rows, the claim of the due sources (two replicas never read one twice),
    # the chats' rules, record (one for all sources), the sources' notes, the reads kept,
    # the outbox's next due row and the daily prune's claim
    assert sum(fixed.values()) <= 8, fixed


def test_a_cron_run_with_nothing_due_only_looks(store: Store, board: Board) -> None:
    """Issue 34: a 5-minute cron's run when no source is due reads the sources' rows, keeps
    its time, and checks what waits in the outbox: no claim, no note, no history, no read."""
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config = parse_config({"sources": [html_source("jobs", url)]})
    counting = CountingStore(store)
    clock = datetime.now(UTC)
    hunter = Hunter(config, counting, TerminalSender(), clock=lambda: clock)  # type: ignore[arg-type]
    hunter.poll_once()  # reads and primes; its next read is half an hour away
    counting.calls.clear()
    clock += timedelta(minutes=5)
    report = hunter.poll_once()
    assert report.sources == [] and report.not_due == 1
    assert board.hits["/jobs"] == 1
    looked = set(counting.calls)
    assert not {"sources.claim", "sources.note", "sources.keep", "outbox.record"} & looked, looked
    # the run's time, the sources' rows, the deliverer's one look at the outbox (issue 44:
    # anything to claim, and when the next retry is due) and the daily prune's claim; no
    # chats' rules: nothing to judge (issue 56)
    assert "chat.rules" not in looked
    assert sum(counting.calls.values()) <= 4, counting.calls
    assert "outbox.claim_due" not in looked and "outbox.claim_new" not in looked


def test_a_quiet_poll_costs_the_same_whatever_its_pages_and_sources(
    store: Store, board: Board, capsys: Any
) -> None:
    """Issue 56: a read that shows the page it showed last time (nothing new) was recorded
    again, a round trip a source, and judged with the chats' rules. Now a quiet poll costs the
    same for 1 or 5 sources of 10 or 50 listings; a page shown unchanged is recorded again
    once a day, so that the prune never takes a listing still shown."""
    costs = []
    for sources, listings in ((1, 10), (5, 50)):
        tag = f"{sources}x{listings}"
        paths = [f"/{tag}-{s}" for s in range(sources)]
        config = parse_config(
            {
                "sources": [
                    html_source(path.strip("/"), board.serve_jobs(path, [(f"{path}-{i}", f"job {i}")
                                for i in range(listings)]))
                    for path in paths
                ]
            }
        )  # fmt: skip
        counting = CountingStore(store)
        clock = Clock(datetime.now(UTC))
        hunter = Hunter(config, counting, TerminalSender(), clock=clock)  # type: ignore[arg-type]
        hunter.poll()  # primes
        clock.advance(3600)
        counting.calls.clear()
        hunter.poll()
        costs.append(dict(counting.calls))
        assert "outbox.record" not in counting.calls and "chat.rules" not in counting.calls
        clock.advance(24 * 3600)  # a day later, unchanged still: recorded again, once
        counting.calls.clear()
        hunter.poll()
        assert counting.calls["outbox.record"] == sources
    capsys.readouterr()
    assert costs[0] == costs[1]
    # the sources' rows, the claim of the due ones, their notes, the reads kept, the outbox's
    # look and the daily prune's claim
    assert sum(costs[0].values()) <= 6, costs[0]


def on_the_wire(
    store: Store, store_kind: str, request: pytest.FixtureRequest, hunter: Hunter
) -> tuple[PollReport, int | None]:
    """A cron run (`run --once`: the store opened, then poll_once) and what it cost on the
    wire: libpq's ReadyForQuery messages on PostgreSQL (one a round trip), the PostgREST
    stand-in's calls on Supabase (one an HTTPS call); None on SQLite (no wire)."""
    if store_kind == "postgres":
        assert isinstance(store, PostgresStore) and store._db is not None
        with tempfile.TemporaryFile() as trace:
            store._db.pgconn.trace(trace.fileno())
            store.migrate()  # what opening the store costs a new run
            report = hunter.poll_once()
            store._db.pgconn.untrace()
            trace.seek(0)
            lines = trace.read().decode().splitlines()
        return report, sum("\tB\t" in line and "ReadyForQuery" in line for line in lines)
    if store_kind == "supabase":
        api = request.getfixturevalue("supabase")
        api.calls.clear()
        store.migrate()
        report = hunter.poll_once()
        return report, sum(api.calls.values())
    return hunter.poll_once(), None


def test_a_cron_run_with_nothing_due_is_one_look_on_the_wire(
    store: Store, store_kind: str, board: Board, request: pytest.FixtureRequest
) -> None:
    """Issue 56, must-show 1: a `run --once` with nothing due costs at most 2 round trips on
    PostgreSQL (the store's opening look, then the run's one look) and at most 3 HTTPS calls
    on Supabase."""
    url = board.serve_jobs("/wire", [("seed", "seed")])
    config = parse_config({"sources": [html_source("wire", url)]})
    clock = Clock(datetime.now(UTC))
    hunter = Hunter(config, store, TerminalSender(), clock=clock)  # type: ignore[arg-type]
    hunter.poll_once()  # reads and primes; its next read is half an hour away
    clock.advance(300)
    report, cost = on_the_wire(store, store_kind, request, hunter)
    assert cost is None or cost <= {"postgres": 2, "supabase": 3}[store_kind], cost
    assert cost is None or cost >= 2  # counted for real: the opening and the look
    assert report.sources == [] and report.not_due == 1 and board.hits["/wire"] == 1


def test_a_cron_run_that_reads_and_finds_nothing_new_is_four_round_trips(
    store: Store, store_kind: str, board: Board, request: pytest.FixtureRequest
) -> None:
    """Issue 56, must-show 1: a `run --once` that reads its sources and finds nothing new
    costs at most 4 round trips on PostgreSQL (the store's opening look, the run's look, the
    claim of the due sources, their notes with the reads kept) and at most 6 HTTPS calls on
    Supabase, whatever the number of sources."""
    urls = [
        board.serve_jobs(f"/q{n}", [(f"{n}-{i}", f"job {i}") for i in range(20)]) for n in range(3)
    ]
    sources = [html_source(f"q{n}", url) for n, url in enumerate(urls)]
    config = parse_config({"sources": sources, "schedule": "fixed"})  # every run reads all
    clock = Clock(datetime.now(UTC))
    hunter = Hunter(config, store, TerminalSender(), clock=clock)  # type: ignore[arg-type]
    hunter.poll_once()  # primes
    clock.advance(1800)
    report, cost = on_the_wire(store, store_kind, request, hunter)
    assert cost is None or cost <= {"postgres": 4, "supabase": 6}[store_kind], cost
    assert cost is None or cost >= 4  # counted for real: opening, look, claim, notes
    assert len(report.sources) == 3 and not any(s.error for s in report.sources)
    assert all(board.hits[f"/q{n}"] == 2 for n in range(3))


def test_a_quiet_cron_run_ends_on_its_one_look(store: Store, board: Board) -> None:
    """Nothing due, nothing to send, no prune due: `poll_once` ends on the look it made
    (quiet_run), and asks the store nothing more; its line says the source is not due."""
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config = parse_config({"sources": [html_source("jobs", url)]})
    counting = CountingStore(store)
    clock = datetime.now(UTC)
    hunter = Hunter(config, counting, TerminalSender(), clock=lambda: clock)  # type: ignore[arg-type]
    hunter.poll_once()  # reads and primes; its next read is half an hour away, the prune done
    counting.calls.clear()
    clock += timedelta(minutes=5)
    report = hunter.poll_once()
    assert dict(counting.calls) == {"sources.look": 1}, counting.calls
    assert report.sources == [] and "1 not due yet" in report.line()
