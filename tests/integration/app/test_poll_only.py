"""A month of poll-only life, as GitHub Actions or cron gives it: every run a fresh
`hunter run --once` (a new process: a new Hunter and a newly opened store), started every 30
minutes by a scheduler that is often late (5-40 minutes) and sometimes drops a run, on a fake
clock. Listings appear all day; the board breaks for half a day once. Nothing is lost, nothing
is pushed twice, the pace keeps to the plan, the broken board is announced once and its
recovery once, and the daily prune still runs every day."""

from __future__ import annotations

import random
import threading
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from hunter.app.service import Hunter, worker_name
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import titles_of
from tests.support.scripted import Clock, ScriptedSender

BANGKOK = ZoneInfo("Asia/Bangkok")
START = datetime(2026, 11, 1, tzinfo=BANGKOK)
DAYS = 30
PLAN = 300


def schedule(rng: random.Random) -> list[datetime]:
    """When the runs really start: every 30 minutes, 30% of them 5-40 minutes late, 10% never."""
    runs = []
    for slot in range(DAYS * 48):
        due = START + timedelta(minutes=30 * slot)
        chance = rng.random()
        if chance < 0.10:
            continue  # dropped
        late = timedelta(minutes=rng.uniform(5, 40)) if chance < 0.40 else timedelta()
        runs.append(due + late)
    return sorted(runs)


def test_a_month_of_late_and_dropped_runs_loses_and_repeats_nothing(
    tmp_path: Path, board: Board
) -> None:
    rng = random.Random(20261201)
    appear = sorted(
        START + timedelta(days=day, hours=8, seconds=rng.uniform(0, 14 * 3600))
        for day in range(DAYS)
        for _ in range(8)
    )
    titles = {at: f"python job {n}" for n, at in enumerate(appear)}
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config = parse_config(
        {
            "sources": [html_source("board", url)],
            "timezone": "Asia/Bangkok",
            "filter": {"include": ["python"]},
            "quiet_hours": "23:00-07:00",
            "broken_after": 3,
        }
    )
    clock, line = Clock(START), ScriptedSender()
    line.quota_answer = (PLAN, 0)
    broken = (START + timedelta(days=10, hours=6), START + timedelta(days=10, hours=18))
    prunes: set[str] = set()
    path = tmp_path / "hunter.db"
    for run_at in schedule(rng):
        clock.now = run_at
        shown = [(str(n), titles[at]) for n, at in enumerate(appear) if at <= run_at][-50:]
        if broken[0] <= run_at < broken[1]:
            board.serve("/jobs", "maintenance", status=503)
        else:
            board.serve_jobs("/jobs", shown or [("seed", "seed")])
        line.quota_answer = (PLAN, sum(1 for _ in line.pushes))
        with SQLiteStore(path) as store:  # a fresh process each run: nothing kept in memory
            store.migrate()
            hunter = Hunter(config, store, line, clock, worker_name(), threading.Event())
            report = hunter.poll()
            if report.pruned is not None:
                prunes.add(f"{run_at.astimezone(BANGKOK):%Y-%m-%d}")

    pushed = [t for _key, messages in line.pushes for t in titles_of({"messages": messages})]
    listings = [t for t in pushed if t.startswith("python job")]
    assert len(listings) == len(set(listings)), "a listing was pushed twice"
    with SQLiteStore(path) as store:
        states = store.outbox.job_states()
    for n, at in enumerate(appear):
        state = states.get(f"board:{n}")
        assert state in ("sent", "pending"), (titles[at], state)  # never lost
        assert (state == "sent") == (titles[at] in listings)
    waiting = [t for t in titles.values() if t not in listings]
    assert len(waiting) <= 8, waiting  # at most the last evening's, after the last push
    assert len(line.pushes) <= PLAN
    notices = [t for t in pushed if not t.startswith("python job")]
    assert len(notices) == 2 and "stopped" in notices[0].casefold(), notices
    assert len(prunes) >= DAYS - 1, sorted(prunes)  # every day (the first run may not)
