"""The status page with a long history: 20 sources read every 30 minutes for 45 days (43,200
reads, and a sent listing a source and read), then one `GET /status` and one `/status.json`
answered by hunter's own server from a SQLite store. A benchmark, not a test: it reports and
never fails; issue 36 asks under 200 ms and under 300 KB.

    uv run python bench/status_page.py          # prints the figures
    uv run python bench/status_page.py --write  # and puts them in bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from hunter.deliver import report  # noqa: E402
from hunter.rules.destinations import Destinations  # noqa: E402
from hunter.rules.listing import Listing  # noqa: E402
from hunter.settings.config import parse_config  # noqa: E402
from hunter.status.view import StatusView  # noqa: E402
from hunter.store.records import ReadRow  # noqa: E402
from hunter.store.sqlite import SQLiteStore  # noqa: E402
from hunter.web.health import Liveness  # noqa: E402
from hunter.web.server import HttpServer  # noqa: E402
from hunter.web.status_page import pages  # noqa: E402
from tests.support.scripted import ScriptedSender  # noqa: E402

SECTION = "## The status page with 45 days of history"
SOURCES, DAYS, EVERY = 20, 45, timedelta(minutes=30)
TOKEN = "bench-status-token_0123456789abcdef"


def fill(store: SQLiteStore, now: datetime) -> int:
    names = [f"source{n:02d}" for n in range(SOURCES)]
    reads = 0
    moment = now - timedelta(days=DAYS)
    while moment < now:
        rows = [
            ReadRow(
                name, moment, 50, 3, 1, "HTTP 503" if n == 7 and moment.hour == 3 else None, 0.4
            )
            for n, name in enumerate(names)
        ]
        store.reads.keep(rows)
        listings = [
            Listing(f"{name}:{moment.timestamp():.0f}", name, "python job", "https://x.test/",
                    posted=(moment - timedelta(minutes=9)).isoformat(timespec="seconds"))
            for name in names
        ]  # fmt: skip
        for listing in listings:
            store.outbox.record(listing.source, [listing], {listing.job_id}, moment)
        key = f"k{moment.timestamp():.0f}"
        if store.outbox.claim_new("bench", key, 100, moment):
            store.outbox.mark_sent(key, moment + timedelta(minutes=1))
        reads += len(rows)
        moment += EVERY
    return reads


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the figures in RESULTS.md")
    args = parser.parse_args()
    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "hunter.db")
        store.migrate()
        for n in range(SOURCES):  # primed first, so that each read's listing waits to be sent
            store.outbox.record(f"source{n:02d}", [], set(), now - timedelta(days=DAYS + 1))
        reads = fill(store, now)
        sources = [{"name": f"source{n:02d}", "url": "https://x.test/", "kind": "rss"}
                   for n in range(SOURCES)]  # fmt: skip
        config = parse_config({"sources": sources})

        def gather() -> StatusView:
            return report.gather(config, store, Destinations(None, ()), ScriptedSender(), now)

        served = pages(TOKEN, gather, "Asia/Bangkok", lambda: now)
        server = HttpServer(Liveness(timedelta(hours=1)), 0, (), "127.0.0.1", pages=served).start()
        figures = {}
        try:
            for path in ("/status", "/status.json"):
                times, size = [], 0
                for _ in range(11):
                    request = urllib.request.Request(
                        f"http://127.0.0.1:{server.port}{path}",
                        headers={"Authorization": f"Bearer {TOKEN}"},
                    )
                    started = time.perf_counter()
                    with urllib.request.urlopen(request, timeout=30) as answer:
                        size = len(answer.read())
                    times.append(time.perf_counter() - started)
                figures[path] = (statistics.median(times[1:]), max(times[1:]), size)
        finally:
            server.close(grace=1.0)
            store.close()
    lines = [
        f"`uv run python bench/status_page.py --write`, {now:%Y-%m-%d}: {SOURCES} sources, "
        f"{reads:,} reads over {DAYS} days ({EVERY.total_seconds() / 60:g} minutes apart) and",
        "a sent listing a source and read, in SQLite; each page asked 11 times by hunter's own",
        "server (the first answer not counted). Issue 36 asks under 200 ms and under 300 KB.",
        "",
        "| page | median | slowest | size |",
        "|---|---|---|---|",
        *(
            f"| `{path}` | {median * 1000:.0f} ms | {slowest * 1000:.0f} ms | "
            f"{size / 1024:.0f} KB |"
            for path, (median, slowest, size) in figures.items()
        ),
    ]
    print("\n".join(lines))
    if args.write:
        replace_section(SECTION, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
