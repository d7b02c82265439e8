"""A community on one instance (issue 42): 10,000 subscribers, each listing read once and fanned
out to every subscriber it matches.

    uv run python bench/community.py                 # prints the table
    uv run python bench/community.py --write         # and puts it in bench/RESULTS.md
    uv run python bench/community.py --subscribers 2000 --deliver 10 --store postgres

10,000 Telegram chats join (5% of them groups; a tenth say the languages they read, a seventh
where they can work), each with 1 to 5 keywords drawn Zipf-like from
a vocabulary of real job words, Thai and English (the first word is the most common, as
"python" or "ออกแบบ" are). A local board shows 50 new listings, built from the same words, in
one read; hunter's real Poller judges them for every subscriber and records a row for each
match (in a SQLite file, then in PostgreSQL), and the real Deliverer pushes the listings of
the first `--deliver` of them through the real TelegramSender to the Telegram Bot API
stand-in, which answers 429 past
Telegram's limits (30 messages a second for the bot, 1 a second in a chat, 20 a minute in a
group). Measured in one run: the CPU of the read's judging and recording, judge() chat by chat
on a sample for the ratio, the rows and bytes the store holds per subscriber, each pushed
listing's wait from the end of the read to Telegram, the 429s hunter caused, and this
process's peak memory. A benchmark: it reports and never fails.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from hunter.channels.telegram.send import TelegramSender  # noqa: E402
from hunter.deliver.channel import Channels  # noqa: E402
from hunter.deliver.deliverer import Deliverer  # noqa: E402
from hunter.poll.poller import Judging, Poller, judges  # noqa: E402
from hunter.rules.destinations import Destinations  # noqa: E402
from hunter.rules.fanout import Fanout  # noqa: E402
from hunter.rules.filters import judge  # noqa: E402
from hunter.rules.listing import Listing  # noqa: E402
from hunter.settings.config import Config, parse_config  # noqa: E402
from hunter.store.base import Store  # noqa: E402
from hunter.store.sqlite import SQLiteStore  # noqa: E402
from tests.support.board import Board, html_source  # noqa: E402
from tests.support.cli import hunter_command, write_config  # noqa: E402
from tests.support.telegram_standin import TOKEN, TelegramStandIn  # noqa: E402

SECTION = "## A community: 10,000 subscribers on one instance"
SEED = 42
# Real job words of Fastwork, JobThai and the remote boards (tests/support's recorded pages),
# the commonest first: a subscriber's words are drawn Zipf-like from them.
VOCABULARY = [
    "python",
    "ออกแบบ",
    "react",
    "โลโก้",
    "marketing",
    "เว็บไซต์",
    "wordpress",
    "แอดมิน",
    "data",
    "ตัดต่อ",
    "วิดีโอ",
    "seo",
    "content",
    "กราฟิก",
    "shopify",
    "writer",
    "แปลภาษา",
    "excel",
    "django",
    "javascript",
    "typescript",
    "node",
    "flutter",
    "android",
    "ios",
    "figma",
    "ux",
    "ui",
    "illustrator",
    "photoshop",
    "บัญชี",
    "การตลาด",
    "ขายของ",
    "ออนไลน์",
    "บทความ",
    "tiktok",
    "facebook",
    "ads",
    "sql",
    "aws",
    "devops",
    "golang",
    "rust",
    "php",
    "laravel",
    "vue",
    "angular",
    "scraping",
    "ai",
    "chatbot",
    "ไลน์",
    "แอป",
    "ระบบ",
    "นักพัฒนา",
    "โปรแกรมเมอร์",
    "ช่างภาพ",
    "ถ่ายภาพ",
    "พากย์เสียง",
    "ล่าม",
    "สอน",
    "ติว",
    "dashboard",
    "powerbi",
    "tableau",
    "analyst",
    "qa",
    "tester",
    "support",
    "sales",
    "recruiter",
    "hr",
    "ครีเอทีฟ",
    "คอนเทนต์",
]


def zipf_words(rng: random.Random, count: int) -> list[str]:
    weights = [1 / (rank + 1) for rank in range(len(VOCABULARY))]
    chosen: list[str] = []
    while len(chosen) < count:
        word = rng.choices(VOCABULARY, weights)[0]
        if word not in chosen:
            chosen.append(word)
    return chosen


def listings_page(rng: random.Random, count: int, prefix: str) -> list[tuple[str, str]]:
    """`count` listings whose titles hold two or three of the words, any of them."""
    return [
        (f"{prefix}{n}", f"งานด่วน {' '.join(rng.sample(VOCABULARY, rng.randint(2, 3)))} #{n}")
        for n in range(count)
    ]


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM; ru_maxrss elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Database:
    """The store under test, and how many bytes its rows take: a SQLite file, or a database
    on the suite's own PostgreSQL (tests/support/postgres.py: HUNTER_TEST_DATABASE_URL, or
    a server it starts)."""

    def __init__(self, kind: str, folder: Path) -> None:
        self.kind, self.path, self.url = kind, folder / "community.db", ""
        if kind == "postgres":
            from tests.support import postgres

            _name, self.url = postgres.fresh_database()

    def open(self) -> Store:
        if self.kind == "postgres":
            from hunter.store.postgres import PostgresStore

            return PostgresStore(self.url)
        return SQLiteStore(self.path)

    def settle(self) -> None:
        """After a bulk load, what autovacuum soon does on a running store: the tables
        vacuumed and analyzed, the writes flushed. Left to itself it runs during the next
        measure, on the same two cores (a managed database has cores of its own), and made
        the judging measured after the load 0.37 s of CPU against 0.25 s."""
        if self.kind == "postgres":
            import psycopg

            with psycopg.connect(self.url, autocommit=True) as db:
                db.execute("VACUUM ANALYZE")
                db.execute("CHECKPOINT")

    def size(self) -> int:
        """The bytes the rows take now (SQLite: the file, its WAL checkpointed by a close)."""
        if self.kind == "postgres":
            import psycopg

            with psycopg.connect(self.url) as db:
                row = db.execute("SELECT pg_total_relation_size('hunter_seen_jobs')").fetchone()
                return int(row[0]) if row else 0
        return os.path.getsize(self.path)


def hunter_run(
    database: Database,
    board: Board,
    telegram: TelegramStandIn,
    rng: random.Random,
    shown: list[tuple[str, str]],
    folder: Path,
    url: str,
) -> tuple[float, float]:
    """`hunter run --once` as a platform starts it, on this store and its subscribers: a read
    of 50 new listings judged for every subscriber and recorded, then the delivery's minute on
    subscribers. Its own peak resident memory (measured by a parent of its own, which holds
    nothing else) and its wall time: a $5 instance has 512 MB."""
    # Three of the 50 in English, with text enough for the language model, and each its text
    # read as its place too: the run loads the model and the gazetteer for the subscribers with
    # languages and places, as a real community's run does (issue 54).
    english = [
        (f"e{n}", f"Senior {word} developer for our remote team, Lisbon or Bangkok #{n}")
        for n, word in enumerate(("python", "react", "data"))
    ]
    board.serve_jobs("/jobs", [*listings_page(rng, 47, "r"), *english, *shown])
    write_config(
        folder,
        [{**html_source("board", url), "location": ".desc"}],
        owner="telegram:111",
        filter={"include": ["owner-only"]},
        subscribers={"join": "open", "max": 10_000, "messages_per_day": 1_000},
    )
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), **telegram.env()}
    env |= {"DATABASE_URL": database.url} if database.url else {"HUNTER_DB": str(database.path)}
    probe = (
        "import resource, subprocess, sys; "
        f"r = subprocess.run({hunter_command('run', '--once')!r}, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)"
    )
    started = time.monotonic()
    answer = subprocess.run(
        [sys.executable, "-c", probe], cwd=folder, env=env, capture_output=True, text=True
    )
    took = time.monotonic() - started
    kilobytes, code = answer.stdout.split()
    if code != "0":
        print(f"hunter run --once exited {code}: {answer.stderr[-500:]}", file=sys.stderr)
    return int(kilobytes) / 1024, took


def deliver_until_done(
    config: Config,
    store: Store,
    telegram: TelegramStandIn,
    destinations: Destinations,
    name: str,
) -> int:
    """hunter's real Deliverer and TelegramSender on `store`, delivering until a call sends
    nothing: the messages sent."""
    sender = TelegramSender(TOKEN, telegram.url)
    clock = lambda: datetime.now(UTC)  # noqa: E731
    deliverer = Deliverer(
        config,
        store,
        Channels(sender, {"telegram:": sender}),
        clock,
        name,
        threading.Event(),
        destinations=destinations,
    )
    sent = 0
    while (done := deliverer.deliver(1_000_000, frozenset())).sent:
        sent += done.sent
    return sent


def replicas_deliver(
    config: Config, database: Database, telegram: TelegramStandIn, destinations: Destinations
) -> tuple[int, float, int, int]:
    """Three deliverers at once, each with its own connection and sender, until none sends:
    (messages, seconds, the most in any one second, 429s for pace)."""
    before, refused = len(telegram.delivered), telegram.too_fast
    stores = [database.open() for _ in range(3)]

    def deliver_all(store: Store, name: str) -> None:
        deliver_until_done(config, store, telegram, destinations, name)

    threads = [
        threading.Thread(target=deliver_all, args=(store, f"replica{n}"))
        for n, store in enumerate(stores)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started
    for store in stores:
        store.close()
    times = sorted(sent.at.timestamp() for sent in telegram.delivered[before:])
    busiest, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= 1.0:
            first += 1
        busiest = max(busiest, last - first + 1)
    return len(times), seconds, busiest, telegram.too_fast - refused


PLACES = (("กรุงเทพฯ", "ปริมณฑล"), ("Germany", "remote"), ("remote",), ("Portugal", "EU"))


def measure(subscribers: int, listings: int, deliver: int, kind: str = "sqlite") -> list[str]:
    rng = random.Random(SEED)
    folder = Path(tempfile.mkdtemp(prefix="hunter-community-"))
    database = Database(kind, folder)
    board, telegram = Board(), TelegramStandIn()
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = parse_config(
        {
            "owner": "telegram:111",
            "filter": {"include": ["owner-only"]},
            "subscribers": {"join": "open", "max": 10_000, "messages_per_day": 1_000},
            "sources": [html_source("board", url)],
            "schedule": "fixed",
        }
    )
    store = database.open()
    store.migrate()
    now = datetime.now(UTC)
    ids = [(-1_000_000 - n) if n % 20 == 0 else 1_000_000 + n for n in range(subscribers)]
    started = time.monotonic()
    for chat_id in ids:
        chat = f"telegram:{chat_id}"
        store.subscribers.join(chat, False, 10_000, now)
        for word in zipf_words(rng, rng.randint(1, 5)):
            store.chat.tune_word(chat, word, "add", now, 50)
        # Some say what they read and where they can work (issue 54): the run loads the
        # language model and the gazetteer, as a community's does.
        if chat_id % 10 == 3:
            store.chat.tune_languages(chat, ("th", "en"), now)
        if chat_id % 7 == 2:
            store.chat.tune_places(chat, PLACES[chat_id % len(PLACES)], now)
    joined_s = time.monotonic() - started
    database.settle()
    telegram.users |= {i for i in ids if i > 0}
    telegram.groups |= {i for i in ids if i < 0}

    poller = Poller(config, store, lambda: datetime.now(UTC), "bench")
    poller.poll()  # primes the board
    shown: list[tuple[str, str]] = [("seed", "seed listing")]

    # A read of `deliver` listings, delivered: each match's wait from the read to Telegram.
    sent_n, waits, deliver_s = 0, [], 0.0
    if deliver:
        shown = [*listings_page(rng, deliver, "d"), *shown]
        board.serve_jobs("/jobs", shown)
        poller.poll()
        read_at = datetime.now(UTC)
        started = time.monotonic()
        sent_n = deliver_until_done(config, store, telegram, poller.destinations, "bench")
        deliver_s = time.monotonic() - started
        waits = [(sent.at - read_at).total_seconds() for sent in telegram.delivered]
    refused = telegram.too_fast

    # The same again by three replicas at once, each with its own store connection and
    # sender: together they keep the bot's 30 a second (deliver/rate.py).
    three: tuple[int, float, int, int] | None = None
    if deliver:
        shown = [*listings_page(rng, deliver, "r"), *shown]
        board.serve_jobs("/jobs", shown)
        poller.poll()
        three = replicas_deliver(config, database, telegram, poller.destinations)

    # A read of `listings` new ones: its CPU, and what the store keeps of it.
    page = listings_page(rng, listings, "n")
    board.serve_jobs("/jobs", [*page, *shown])
    store.close()
    store = database.open()
    poller.store = store
    size_before = database.size()
    cpu = time.process_time()
    polls = poller.poll().sources
    poll_cpu = time.process_time() - cpu
    rows = polls[0].recorded.get("chats", 0)
    store.close()
    store = database.open()
    grown = database.size() - size_before
    database.settle()

    # The judging alone, and judge() chat by chat on a sample, for the ratio.
    rules = store.chat.rules(datetime.now(UTC))
    found = judges(rules, poller.destinations, config.sources[0])
    # Who judges and their index, made once a poll for the sources of one filter (Judging);
    # each source with news made it again before: the median of five.
    making = []
    for _ in range(5):
        cpu = time.process_time()
        Judging(rules, poller.destinations).source(config.sources[0])
        making.append(time.process_time() - cpu)
    making_cpu = statistics.median(making)
    found = found[1:]  # the owner's aside: the subscribers
    items = [Listing(i, "board", title, f"{url}/{i}") for i, title in page]
    # The median of five: one measure of a third of a second swings by half on a shared VM.
    spent = []
    for _ in range(5):
        cpu = time.process_time()
        fanout = Fanout(found)
        matched = sum(len(fanout.judge(x)) for x in items)
        spent.append(time.process_time() - cpu)
    index_cpu = statistics.median(spent)
    sample = found[:500]
    cpu = time.process_time()
    for x in items:
        for _name, filter_, mutes in sample:
            judge(x, filter_, mutes)
    naive_cpu = (time.process_time() - cpu) * len(found) / len(sample)
    rss = peak_rss_mb()
    store.close()
    run_mb, run_s = hunter_run(database, board, telegram, rng, [*page, *shown], folder, url)
    board.close()
    telegram.close()

    per_day = 1000 / listings  # polls of this size in a day of 1,000 listings
    row_bytes = grown / max(rows, 1)
    daily = rows * per_day / subscribers  # rows a subscriber gets a day
    lines = [
        f"{subscribers:,} subscribers ({subscribers // 20:,} of them groups), 1-5 keywords each "
        f"drawn Zipf-like from {len(VOCABULARY)} real job words (joined in {joined_s:.0f} s); "
        f"one read of {listings} new listings; {kind}; {datetime.now(UTC):%Y-%m-%d}.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| matches of the read (rows made) | {rows:,} ({matched:,} judged again below) |",
        f"| CPU of the whole read (fetch, judge, record) | {poll_cpu:.2f} s |",
        f"| CPU of judging {listings} listings for every subscriber (the index; the median "
        f"of 5) | {index_cpu:.3f} s |",
        f"| the same, judge() chat by chat (from 500 chats) | {naive_cpu:.1f} s "
        f"({naive_cpu / max(index_cpu, 1e-9):.0f}x) |",
        f"| making who judges and their index (once a poll for the sources of one filter; "
        f"before, again for each source with news) | {making_cpu:.3f} s |",
        f"| store: bytes a row | {row_bytes:.0f} |",
        f"| store: rows a subscriber a day (1,000 listings a day) | {daily:.1f} "
        f"({daily * row_bytes / 1024:.1f} KB) |",
    ]
    if deliver:
        p50 = statistics.median(waits) if waits else 0.0
        p90 = statistics.quantiles(waits, n=10)[-1] if len(waits) > 1 else p50
        lines += [
            f"| delivered: the matches of {deliver} listings | {sent_n:,} messages in "
            f"{deliver_s:.0f} s ({sent_n / max(deliver_s, 1e-9):.1f} a second) |",
            f"| read -> on Telegram, median / p90 | {p50:.0f} s / {p90:.0f} s |",
            f"| 429s from Telegram (hunter's own pace) | {refused} |",
        ]
    if three is not None:
        n, seconds, busiest, too_fast = three
        lines += [
            f"| three replicas at once: the matches of {deliver} more listings | {n:,} messages "
            f"in {seconds:.0f} s ({n / max(seconds, 1e-9):.1f} a second in all; the busiest "
            f"second {busiest}) |",
            f"| 429s from Telegram with three replicas (hunter's own pace) | {too_fast} |",
        ]
    lines.append(f"| peak memory of this process (hunter's part of it) | {rss:.0f} MB |")
    lines.append(
        f"| `hunter run --once` on this store: a read of 50 more, judged, recorded, and its "
        f"minute of delivery | peak {run_mb:.0f} MB resident, {run_s:.0f} s |"
    )
    if deliver and deliver_s:
        rate = sent_n / deliver_s
        need = rows * per_day / 86_400
        lines += [
            "",
            f"A day of 1,000 listings like these is {rows * per_day:,.0f} messages, "
            f"{need:.1f} a second all day; one instance sends {rate:.1f} a second (each "
            "push is a claim, its body kept, an attempt mark and a mark sent in the store, "
            "then one sendMessage), under Telegram's 30 for a bot. The peak memory is this "
            "process's, the board and the Bot API stand-in included.",
            "",
            f"Read every 5 minutes, such a day brings {1000 / 288:.1f} listings a read "
            f"(1,000 / 288 reads): the {deliver} delivered above are one such read, all on "
            f"Telegram {deliver_s:.0f} s after it, before the next read. A burst is slower: "
            f"the {rows:,} matches of the read of {listings} would take "
            f"{rows / rate / 60:.0f} minutes as cards, less as subscribers with more than "
            "three waiting get one digest message instead.",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subscribers", type=int, default=10_000)
    parser.add_argument("--listings", type=int, default=50)
    parser.add_argument("--deliver", type=int, default=3, help="listings whose matches are sent")
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    kinds = ("sqlite", "postgres") if args.store == "both" else (args.store,)
    lines: list[str] = []
    for kind in kinds:
        lines += [f"### {'SQLite' if kind == 'sqlite' else 'PostgreSQL'}", ""]
        lines += [*measure(args.subscribers, args.listings, args.deliver, kind), ""]
    print("\n".join(lines))
    if args.write:
        replace_section(SECTION, lines)
    from tests.support import postgres

    postgres.stop_server()


if __name__ == "__main__":
    main()
