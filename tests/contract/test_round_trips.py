"""A poll costs a constant number of database round trips, whatever the number of listings.

On PostgreSQL every port method is one statement in autocommit, so counting the port's calls
counts round trips; the count is taken with a real poll (fetch, parse, record, claim, push,
finish) against a local job board, on both adapters.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from hunter.app.service import Hunter
from hunter.channels.terminal import TerminalSender
from hunter.settings.config import parse_config
from hunter.store.base import Store
from tests.support.board import Board, html_source
from tests.support.counting import CountingStore


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
    board.serve_jobs(path, [(f"{n}", f"job {n}") for n in range(listings)])
    counting.calls.clear()
    hunter.poll()
    return counting.calls


PER_PUSH = {"claim_due", "claim_new", "save_batch", "mark_sent"}


def test_round_trips_do_not_grow_with_listings(store: Store, board: Board, capsys: Any) -> None:
    small = poll_calls(store, board, "/small", 10)
    large = poll_calls(store, board, "/large", 500)
    capsys.readouterr()
    # LINE takes 48 listings per request, so the push loop runs ceil(n / 48) times ...
    assert small["mark_sent"] == 1 and large["mark_sent"] == 11
    for name in PER_PUSH:
        assert large[name] - small[name] == 10, name
    # ... and everything else is the same for 10 listings as for 500.
    fixed = {k: v for k, v in small.items() if k not in PER_PUSH}
    assert fixed == {k: v for k, v in large.items() if k not in PER_PUSH}
    # source_states, the claim of the due sources (two replicas never read one twice),
    # mutes, record (one per source), note_sources, the reads kept, claim_prune
    assert sum(fixed.values()) <= 7, fixed
