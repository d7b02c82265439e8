"""hunter's benchmark: what a poll costs, next to its targets and the naive baseline.

    uv run python bench/run.py            # everything, a few minutes; writes bench/RESULTS.md
    uv run python bench/run.py --quick    # smaller numbers, for a quick look

Everything runs on this machine: job boards and a LINE stand-in on 127.0.0.1 (from
tests/support), SQLite in a temporary folder, and PostgreSQL (HUNTER_TEST_DATABASE_URL, or a
private server started with pgserver, as the test suite does). Figures are ratios where the
machine's speed would otherwise decide them. This is a benchmark, not a test: it reports and
never fails on a number.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.naive import SCHEMA, NaiveBot  # noqa: E402
from hunter.app.service import Hunter  # noqa: E402
from hunter.channels.line.push import LineSender  # noqa: E402
from hunter.rules.listing import Listing  # noqa: E402
from hunter.settings.config import Config, parse_config  # noqa: E402
from hunter.sources.reader import parse  # noqa: E402
from hunter.store.base import Store  # noqa: E402
from hunter.store.postgres import PostgresStore  # noqa: E402
from hunter.store.sqlite import SQLiteStore  # noqa: E402
from tests.support import postgres  # noqa: E402
from tests.support.board import Board, html_source, jobs_html  # noqa: E402
from tests.support.cli import base_env, write_config  # noqa: E402
from tests.support.counting import CountingStore  # noqa: E402
from tests.support.line_standin import TO, TOKEN, LineStandIn  # noqa: E402

MONTH_SECTION = "## A month on LINE's free plan"
# A push: its rows claimed, saved, marked sent, and LINE's monthly allowance read and claimed
# for it (the pace, shared by replicas). Everything else is the poll's own.
PER_PUSH = {
    "outbox.claim_due",
    "outbox.claim_new",
    "outbox.save_batch",
    "outbox.mark_sent",
    "pace.state",
    "pace.claim",
}


@dataclass
class Results:
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # what, measured, target
    notes: list[str] = field(default_factory=list)

    def add(self, what: str, measured: str, target: str = "", verdict: str = "") -> None:
        self.rows.append((what, measured, target, verdict))
        print(
            f"{what}: {measured}" + (f" (target {target}) {verdict}" if target else ""), flush=True
        )


def ok(good: bool) -> str:
    return "met" if good else "MISSED"


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def config_for(sources: list[dict[str, Any]], **settings: Any) -> Config:
    return parse_config(
        {"sources": sources, "flood_threshold": 0, "max_alerts_per_poll": 100_000, **settings}
    )


def fresh_postgres() -> tuple[str, str]:
    return postgres.fresh_database()


# -- 1. a poll of many sources against the slowest one --------------------------------------------
def poll_wall_time(results: Results, line: LineStandIn, sources: int, slowest: float) -> None:
    boards = [Board() for _ in range(sources)]  # one host each: per-host limits don't apply
    try:
        raw = []
        for n, board in enumerate(boards):
            latency = 0.05 + (slowest - 0.05) * n / max(sources - 1, 1)
            url = board.serve_jobs(
                "/jobs", [(f"{n}-{k}", f"job {k}") for k in range(20)], hang=latency
            )
            raw.append(html_source(f"s{n}", url))
        with tempfile.TemporaryDirectory() as folder:
            store = SQLiteStore(Path(folder) / "bench.db")
            store.migrate()
            hunter = Hunter(config_for(raw), store, LineSender(TOKEN, TO, line.url))
            hunter.poll()  # primes
            started, cpu = time.perf_counter(), time.process_time()
            hunter.poll()
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            store.close()
    finally:
        for board in boards:
            board.close()
    target = 1.2 * slowest + 0.3
    results.add(
        f"poll of {sources} sources, slowest answers in {slowest:.1f} s",
        f"{wall:.2f} s = {wall / slowest:.2f} x slowest",
        f"<= {target:.2f} s",
        ok(wall <= target),
    )
    results.add(f"CPU time of that poll ({sources} sources x 20 listings)", f"{cpu * 1000:.0f} ms")


# -- 2. round trips per poll as listings grow, and the naive design beside it ---------------------
def poll_calls(
    store: Store, board: Board, line: LineStandIn, path: str, listings: int
) -> tuple[dict[str, int], float]:
    url = board.serve_jobs(path, [("seed", "seed")])
    counting = CountingStore(store)
    hunter = Hunter(
        config_for([html_source(path.strip("/"), url)]),
        counting,  # type: ignore[arg-type]
        LineSender(TOKEN, TO, line.url),
    )
    hunter.poll()
    board.serve_jobs(path, [(f"{n}", f"job {n}") for n in range(listings)])
    counting.calls.clear()
    started = time.perf_counter()
    hunter.poll()
    return dict(counting.calls), time.perf_counter() - started


def naive_poll(
    database_url: str, board: Board, line: LineStandIn, path: str, listings: int
) -> tuple[int, int, float]:
    bot = NaiveBot(database_url, line.url, TOKEN, TO)
    seed = [Listing(f"n:{path}:seed", "n", "seed", "https://x.test/seed")]
    bot.poll(seed, prime=True)
    bot.round_trips = bot.requests = 0
    new = [
        Listing(f"n:{path}:{k}", "n", f"job {k}", f"https://x.test/{k}") for k in range(listings)
    ]
    started = time.perf_counter()
    bot.poll(seed + new)
    elapsed = time.perf_counter() - started
    trips, requests = bot.round_trips, bot.requests
    bot.close()
    return trips, requests, elapsed


def round_trips(results: Results, line: LineStandIn, sizes: list[int]) -> None:
    board = Board()
    try:
        for kind in ("sqlite", "postgres"):
            folder = tempfile.mkdtemp()
            name, url = fresh_postgres()
            store: Store = (
                SQLiteStore(Path(folder) / "rt.db") if kind == "sqlite" else PostgresStore(url)
            )
            store.migrate()
            fixed_counts = []
            for size in sizes:
                before = len(line.pushes)
                calls, wall = poll_calls(store, board, line, f"/{kind}{size}", size)
                pushes = len(line.pushes) - before
                fixed = sum(v for k, v in calls.items() if k not in PER_PUSH)
                per_push = sum(v for k, v in calls.items() if k in PER_PUSH)
                fixed_counts.append(fixed)
                line_text = (
                    f"{sum(calls.values())} round trips ({fixed} per poll + "
                    f"{per_push} for {pushes} pushes), {pushes} LINE requests, "
                    f"{wall:.2f} s"
                )
                if kind == "postgres":
                    n_trips, n_requests, n_wall = naive_poll(url, board, line, f"/n{size}", size)
                    line_text += (
                        f"; naive: {n_trips} round trips, {n_requests} LINE "
                        f"requests, {n_wall:.2f} s"
                    )
                results.add(f"{kind}: a poll with {size} new listings", line_text)
            store.close()
            postgres.drop_database(name)
            results.add(
                f"{kind}: round trips per poll, apart from pushes, {sizes[0]} -> "
                f"{sizes[-1]} listings",
                " -> ".join(map(str, fixed_counts)),
                "constant",
                ok(len(set(fixed_counts)) == 1),
            )
    finally:
        board.close()


# -- 3. parsing ------------------------------------------------------------------------------------
def parse_speed(results: Results) -> None:
    page = jobs_html(
        [(str(n), f"Senior Python developer number {n} for a chatbot") for n in range(4000)],
        budget="฿12,000",
    )
    size_mb = len(page.encode()) / 1e6
    source = config_for([html_source("p", "https://board.test/jobs")]).sources[0]
    now = datetime.now(UTC)
    runs, started = 5, time.perf_counter()
    for _ in range(runs):
        found = parse(source, page, "https://board.test/jobs", now)
    per_mb = (time.perf_counter() - started) / runs / size_mb
    results.add(
        "HTML parse time",
        f"{per_mb * 1000:.0f} ms per MB ({size_mb:.1f} MB page, {len(found.listings)} listings)",
    )


# -- 4. `hunter run` as a platform starts it ------------------------------------------------------
def run_process(results: Results, line: LineStandIn, database_url: str) -> None:
    board = Board()
    folder = Path(tempfile.mkdtemp())
    try:
        sources = [
            html_source(f"s{n}", board.serve_jobs(f"/s{n}", [(f"{n}", "job")])) for n in range(5)
        ]
        write_config(folder, sources)
        env = base_env(folder, DATABASE_URL=database_url, HUNTER_LOG_LEVEL="WARNING", **line.env())
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "hunter", "run"],
            cwd=folder,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        while not board.hits and time.perf_counter() - started < 30:
            time.sleep(0.005)
        first_poll = time.perf_counter() - started
        time.sleep(3)  # the first poll is over; idle until the next one in 30 minutes
        idle_rss = rss_mb(process.pid)
        cpu_before = cpu_seconds(process.pid)
        time.sleep(10)
        idle_cpu = (cpu_seconds(process.pid) - cpu_before) / 10
        process.terminate()
        process.communicate(timeout=30)
    finally:
        board.close()
    results.add(
        "start of `hunter run` to its first request",
        f"{first_poll:.2f} s",
        "<= 3 s",
        ok(first_poll <= 3),
    )
    results.add(
        "resident memory of `hunter run` at idle (PostgreSQL, LINE SDK loaded)",
        f"{idle_rss:.0f} MB",
        "<= 110 MB",
        ok(idle_rss <= 110),
    )
    results.add(
        "CPU of `hunter run` at idle",
        f"{idle_cpu * 100:.2f} % of a core",
        "near zero",
        ok(idle_cpu < 0.01),
    )


# -- 5. memory over many polls -------------------------------------------------------------------
def many_polls(results: Results, line: LineStandIn, database_url: str, polls: int) -> None:
    board = Board()
    try:
        url = board.serve_jobs("/jobs", [("0", "job 0")])
        store = PostgresStore(database_url)
        store.migrate()
        hunter = Hunter(config_for([html_source("b", url)]), store, LineSender(TOKEN, TO, line.url))
        new = 0

        def poll(n: int) -> None:
            nonlocal new
            if n % 50 == 0:  # new listings now and then, so pushes happen too
                new += 2
                board.serve_jobs("/jobs", [(f"{k}", f"job {k}") for k in range(new + 1)])
            hunter.poll()

        for n in range(20):
            poll(n)
        before = rss_mb()
        for n in range(polls):
            poll(n)
        after = rss_mb()
        store.close()
    finally:
        board.close()
    results.add(
        f"memory growth over {polls} polls (PostgreSQL, LINE SDK, pushes)",
        f"{after - before:+.1f} MB ({before:.0f} -> {after:.0f} MB)",
        "< 5 MB",
        ok(after - before < 5),
    )


# -- 6. a big table -------------------------------------------------------------------------------
def big_table(results: Results, line: LineStandIn, rows: int) -> None:
    name, url = fresh_postgres()
    store = PostgresStore(url)
    store.migrate()
    now = datetime.now(UTC)
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:  # seen over 90 days; half older than 45
        db.execute(
            "INSERT INTO hunter_seen_jobs (job_id, source, status, listing, first_seen_at, "
            "last_seen_at, sent_at) SELECT 'old:' || g, 'old', "
            "(ARRAY['sent','ignored','primed'])[1 + g %% 3], '{\"title\": \"x\"}', "
            "%(now)s - (g %% 90) * interval '1 day', %(now)s - (g %% 90) * interval '1 day', "
            "%(now)s FROM generate_series(1, %(rows)s) g",
            {"now": now, "rows": rows},
        )
        db.execute("ANALYZE hunter_seen_jobs")
    store.outbox.claim_prune(
        now, timedelta(hours=24)
    )  # the polls below must not prune: step 2 does
    board = Board()
    try:
        poll_url = board.serve_jobs("/jobs", [("seed", "seed")])
        hunter = Hunter(
            config_for([html_source("big", poll_url)]), store, LineSender(TOKEN, TO, line.url)
        )
        hunter.poll()
        board.serve_jobs("/jobs", [(f"{k}", f"job {k}") for k in range(20)])
        started = time.perf_counter()
        hunter.poll()
        poll_seconds = time.perf_counter() - started
    finally:
        board.close()
    batches: list[float] = []
    total = 0
    before = now - timedelta(days=45)
    started = time.perf_counter()
    while True:
        batch_started = time.perf_counter()
        deleted = store.outbox.prune_batch(before, 5_000)
        batches.append(time.perf_counter() - batch_started)
        total += deleted
        if deleted < 5_000:
            break
    prune_seconds = time.perf_counter() - started
    store.close()
    with psycopg.connect(url, autocommit=True) as db:  # the naive bot, as many ids seen
        db.execute(SCHEMA)
        db.execute(
            "INSERT INTO naive_seen SELECT 'old:' || g, now() FROM generate_series(1, %(rows)s) g",
            {"rows": rows},
        )
    bot = NaiveBot(url, line.url, TOKEN, TO)
    fresh = [Listing(f"n:{k}", "n", f"job {k}", f"https://x.test/{k}") for k in range(20)]
    memory, started = rss_mb(), time.perf_counter()
    bot.poll(fresh)
    naive_seconds, naive_memory = time.perf_counter() - started, rss_mb() - memory
    bot.close()
    postgres.drop_database(name)
    results.add(
        f"a poll with {rows:,} rows in the table (20 new listings)",
        f"{poll_seconds:.2f} s; naive: {naive_seconds:.2f} s, +{naive_memory:.0f} MB to hold "
        "every seen id",
    )
    results.add(
        f"prune of {total:,} of {rows:,} rows",
        f"{prune_seconds:.1f} s in "
        f"{len(batches)} batches of 5,000; the longest batch (lock held) "
        f"{max(batches) * 1000:.0f} ms",
        "short batches, no long lock",
        ok(max(batches) < 1.0),
    )


def next_to_urlwatch(results: Results) -> None:
    """A quiet `run --once` of 50 sources beside urlwatch on the same pages (bench/peer.py),
    in a process of its own: nothing of this long-lived process's state can touch it."""
    from bench.peer import RATIO, RUNS, SOURCES

    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "peer.py"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    measured = json.loads(out.strip().splitlines()[-1])
    ours, theirs, ratio = measured["hunter"], measured["urlwatch"], measured[RATIO][0]
    memory = ours[1] / theirs[1]
    results.add(
        f"quiet `run --once` of {SOURCES} unchanged sources, next to urlwatch 2.29, LINE "
        "configured",
        f"hunter {ours[0] * 1000:.0f} ms, {ours[1]:.0f} MB; urlwatch {theirs[0] * 1000:.0f} ms, "
        f"{theirs[1]:.0f} MB ({ratio:.2f} x its time, the median of {RUNS} runs side by side; "
        f"{memory:.2f} x its memory)",
        "<= 0.80 x urlwatch's time, <= 0.90 x its memory (issue 56)",
        ok(ratio <= 0.8 and memory <= 0.9),
    )
    idle = measured["hunter, nothing due"]
    results.add(
        f"a cron's `run --once` with none of the {SOURCES} sources due (learned schedule)",
        f"{idle[0] * 1000:.0f} ms, {idle[1]:.0f} MB",
        "<= 300 ms",
        ok(idle[0] <= 0.3),
    )


def write(results: Results, command: str, path: Path) -> None:
    pg = postgres.server_url()
    import psycopg

    with psycopg.connect(pg) as db:
        version = db.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
    lines = [
        "# hunter benchmark results",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
        f"{platform.platform()}; Python {platform.python_version()}; PostgreSQL {version} "
        "(local, unix socket).",
        f"Command: `{command}`, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.",
        "",
        "| what | measured | target | |",
        "|---|---|---|---|",
        *(f"| {w} | {m} | {t} | {v} |" for w, m, t, v in results.rows),
        "",
        "The naive design (bench/naive.py) loads every seen id on every poll and pushes and "
        "inserts listing by listing: its round trips and LINE requests grow with the listings, "
        "and a crash between a push and its insert sends that listing twice.",
        *results.notes,
    ]
    # bench/month.py writes its own section (a month takes its own quarter hour): keep it.
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    month = old[old.index(MONTH_SECTION) :] if MONTH_SECTION in old else ""
    path.write_text("\n".join(lines) + "\n" + (f"\n{month}" if month else ""), encoding="utf-8")
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller numbers, quicker")
    args = parser.parse_args()
    quick = args.quick
    results = Results()
    line = LineStandIn(check_spec=False)
    line.quota_limit = 10**9  # the monthly-quota warning is tested elsewhere, not timed here
    name, database_url = fresh_postgres()
    steps: list[Callable[[], None]] = [
        lambda: poll_wall_time(results, line, 10 if quick else 50, 1.0),
        lambda: round_trips(results, line, [10, 100] if quick else [10, 100, 1000]),
        lambda: parse_speed(results),
        lambda: run_process(results, line, database_url),
        lambda: many_polls(results, line, database_url, 100 if quick else 1000),
        lambda: big_table(results, line, 100_000 if quick else 1_000_000),
        lambda: next_to_urlwatch(results),
    ]
    try:
        for step in steps:
            step()
    finally:
        line.close()
        postgres.drop_database(name)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results.notes.append(f"\nThe benchmark process itself peaked at {peak:.0f} MB.")
    command = "uv run python bench/run.py" + (" --quick" if quick else "")
    write(results, command, ROOT / "bench" / ("RESULTS-quick.md" if quick else "RESULTS.md"))


if __name__ == "__main__":
    main()
