"""One alert per job (issue 43): how well hunter tells one job from another, and what a look-up
costs.

    uv run python bench/dupes.py              # prints the table
    uv run python bench/dupes.py --write      # and puts it in bench/RESULTS.md
    uv run python bench/dupes.py --stored 20000 --store sqlite

1. The labelled set: 603 real listings of 22 boards (../shared/fixtures/dupes) and the pairs a
   person judged the same job (tests/fixtures/likeness/labels.json), scored as a chat sees it
   (tests/support/likeness_set.py): precision (of the pairs merged, the share truly one job),
   recall (of the true pairs, the share merged), and the repeated alerts saved.
   And made-up listings of the kinds boards post (tests/fixtures/likeness/made_up*.json, issue
   69's pairs never seen), three sets tuned on, two blind.
2. The look-up: `--stored` listings (100,000) kept in the store's likeness table, their titles
   drawn Zipf-like from real job titles and words; then a poll's note (the one call a source's
   read makes) for 1 and for 50 new listings, on SQLite and on PostgreSQL (the suite's own
   server: tests/support/postgres.py), the median of 41, beside the same look-ups on the
   empty store (what a call costs whatever is kept), and the CPU of making one listing's
   likeness. A benchmark: it reports and never fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from hunter.poll.merging import Copies  # noqa: E402
from hunter.rules.likeness import Likeness  # noqa: E402
from hunter.rules.listing import Listing  # noqa: E402
from hunter.store.base import Store  # noqa: E402
from hunter.store.sqlite import SQLiteStore  # noqa: E402
from tests.support import likeness_set  # noqa: E402

SECTION = "## One alert per job: the labelled set and the look-up"
RUNS = 41  # look-ups timed, each kind: the median is reported
NOW = datetime(2026, 12, 3, 9, tzinfo=UTC)
ROLES = [
    "Python Developer",
    "Senior Python Developer",
    "Backend Engineer",
    "Frontend Developer",
    "Data Engineer",
    "DevOps Engineer",
    "Product Designer",
    "UX Researcher",
    "QA Engineer",
    "Mobile Developer",
    "Security Analyst",
    "Data Scientist",
    "Machine Learning Engineer",
    "Technical Writer",
    "Customer Success Manager",
    "Account Executive",
    "Marketing Manager",
    "ออกแบบโลโก้",
    "เขียนบทความ SEO",
    "ตัดต่อวิดีโอ",
    "พัฒนาเว็บไซต์ WordPress",
    "แอดมินเพจ",
    "นักพัฒนา PHP",
]
SENIORITY = ("", "Senior ", "Junior ", "Lead ", "Staff ", "Principal ")
WORDS = [
    "python",
    "react",
    "node",
    "aws",
    "payments",
    "platform",
    "team",
    "remote",
    "build",
    "ship",
    "mentor",
    "review",
    "code",
    "customers",
    "data",
    "pipelines",
    "kubernetes",
    "design",
    "system",
    "figma",
    "research",
    "growth",
    "ออกแบบ",
    "เว็บไซต์",
    "ลูกค้า",
    "งาน",
    "ด่วน",
    "ร้านกาแฟ",
    "โลโก้",
    "บทความ",
    "วิดีโอ",
]


def synthetic(n: int, rng: random.Random) -> Listing:
    """A listing of a title drawn Zipf-like (a few titles are most of a board), at one of a
    few thousand companies, with 30-60 words of text."""
    role = ROLES[min(int(rng.paretovariate(1.2)) - 1, len(ROLES) - 1)]
    title = f"{rng.choice(SENIORITY)}{role} {rng.randrange(400)}"
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(30, 60)))
    source = rng.choice(("remotive", "himalayas", "jobicy", "fastwork", "jobthai"))
    return Listing(
        f"{source}:{n}",
        source,
        title,
        f"https://{source}.test/{n}",
        summary=text,
        company=f"Company {rng.randrange(3000)}",
        location=rng.choice(("Bangkok", "Remote", "Chiang Mai", "Singapore", "")),
    )


def fill(store: Store, stored: int, rng: random.Random) -> list[Listing]:
    listings = [synthetic(n, rng) for n in range(stored)]
    for start in range(0, stored, 2000):
        chunk = listings[start : start + 2000]
        pairs = [(x, Likeness.of(x)) for x in chunk]
        store.likeness.note(pairs, since=NOW, now=NOW - timedelta(days=1))  # kept a day ago
    return listings


def look_ups(store: Store, listings: list[Listing], rng: random.Random) -> dict[str, float]:
    """Milliseconds: a note (not kept) for 1 and for 50 new listings (each a copy of a stored
    title under a new id), and judging what it answered; the median of RUNS."""

    def poll(size: int) -> float:
        picked = [rng.choice(listings) for _ in range(size)]
        new = [(p, Likeness.of(p)) for p in picked]
        new = [(Listing(f"new:{rng.random()}", "new", p.title, p.url), lk) for p, lk in new]
        started = time.perf_counter()
        noted = store.likeness.note(new, NOW - timedelta(days=45), NOW, keep=False)
        copies = Copies(new, noted, False, lambda _chat: True, NOW)  # what the poller runs
        for listing, likeness in new:
            copies.decide(listing, likeness)
        return (time.perf_counter() - started) * 1000

    return {
        "one": statistics.median(poll(1) for _ in range(RUNS)),
        "fifty": statistics.median(poll(50) for _ in range(RUNS)),
    }


def likeness_cpu(rng: random.Random) -> float:
    """Microseconds of CPU to make one listing's likeness."""
    sample = [synthetic(n, rng) for n in range(2000)]
    started = time.process_time()
    for listing in sample:
        Likeness.of(listing)
    return (time.process_time() - started) / len(sample) * 1e6


def labelled() -> list[str]:
    if not likeness_set.DUPES.is_file():
        return ["(../shared/fixtures/dupes is not here: the labelled set is skipped)"]
    score = likeness_set.score()
    missed = sorted(sorted(pair) for pair in score.missed)
    return [
        f"The labelled set: {score.listings} real listings of {score.boards} boards; "
        f"{len(score.same)} pairs labelled the same job, {len(score.apart)} hard pairs labelled "
        f"apart, {len(score.unsure)} unsure pairs counted neither way.",
        "",
        "| precision | recall (pairs) | repeated alerts saved | pairs merged | wrong merges |",
        "|---|---|---|---|---|",
        f"| {score.precision:.3f} | {score.recall:.3f} | {score.copies_merged} of "
        f"{score.copies} ({score.copies_recall:.0%}) | {len(score.judged)} | "
        f"{len(score.wrong)} |",
        "",
        f"Missed ({len(missed)} pairs): " + "; ".join(" ~ ".join(p) for p in missed),
        "",
        *held_back(score),
    ]


def made_up() -> list[str]:
    """Issue 69's pairs never seen: made-up listings of the kinds boards post, by five
    helpers who read no code; three tuned on, two blind."""
    lines = [
        "Made-up listings, in groups of one job and pairs of two jobs alike "
        "(tests/fixtures/likeness/made_up*.json):",
        "",
        "| set | listings | pairs the same job | hard pairs apart | precision | recall (pairs) "
        "| repeated alerts saved | wrong merges |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, path in (
        ("made up, tuned on", likeness_set.MADE_UP),
        ("made up 2, tuned on after its blind measure", likeness_set.MADE_UP_2),
        ("made up 3, tuned on after its measure at the start", likeness_set.MADE_UP_3),
        ("made up 4, tuned on after its measure at the start", likeness_set.MADE_UP_4),
        ("made up, blind", likeness_set.MADE_UP_BLIND),
        ("made up, blind 2 (only its one wrong merge read)", likeness_set.MADE_UP_BLIND_2),
        ("made up, blind 3", likeness_set.MADE_UP_BLIND_3),
    ):
        score = likeness_set.score(path)
        lines.append(
            f"| {name} | {score.listings} | {len(score.same)} | {len(score.apart)} | "
            f"{score.precision:.3f} | {score.recall:.3f} | {score.copies_merged} of "
            f"{score.copies} | {len(score.wrong)} |"
        )
    return lines


def held_back(score: likeness_set.Score) -> list[str]:
    """Recall on a third of the labelled groups held back from tuning (issue 63: every third
    group in the file's order, so the split never moves), and on the rest."""
    import json

    groups = json.loads(likeness_set.LABELS.read_text(encoding="utf-8"))["same"]
    lines = ["| labelled groups | pairs | merged | recall |", "|---|---|---|---|"]
    for name, kept in (("tuned on (2 of 3)", 0), ("held back (1 of 3)", 2)):
        chosen = [g for n, g in enumerate(groups) if (n % 3 == 2) == (kept == 2)]
        pairs = set(likeness_set._pairs(chosen))
        merged = pairs & score.merged
        lines.append(f"| {name} | {len(pairs)} | {len(merged)} | {len(merged) / len(pairs):.3f} |")
    return ["Recall on the labelled groups held back from tuning beside the rest:", "", *lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rng = random.Random(43)
    lines = [*labelled(), "", *made_up()]
    lines += [
        "",
        f"The look-up: {args.stored:,} listings kept; a source's read makes one note call "
        "for all its listings (fresh ones kept, the earlier ones of their titles answered), "
        f"then judges them; milliseconds, the median of {RUNS}:",
        "",
        "| store | 1 new listing | 50 new listings | per listing (of 50) "
        "| 1, nothing kept | 50, nothing kept | 1: what is kept adds |",
        "|---|---|---|---|---|---|---|",
    ]
    kinds = ("sqlite", "postgres") if args.store == "both" else (args.store,)
    for kind in kinds:
        if kind == "sqlite":
            folder = tempfile.mkdtemp(prefix="hunter-dupes-")
            store: Store = SQLiteStore(Path(folder) / "bench.db")
        else:
            from hunter.store.postgres import PostgresStore
            from tests.support import postgres

            _name, url = postgres.fresh_database()
            store = PostgresStore(url)
        store.migrate()
        # The same look-ups on the empty store first: what a call costs whatever is kept (its
        # round trip, planning, the judging in Python), so that the difference is the cost of
        # checking against what is kept.
        empty = look_ups(store, [synthetic(n, rng) for n in range(1_000)], rng)
        listings = fill(store, args.stored, rng)
        if kind == "postgres":
            # What autovacuum does soon after a bulk load (a running store's table grows a
            # listing at a time and is analyzed as it goes): without it the planner may plan
            # for the empty table it saw, and the first look-ups measure that.
            import psycopg

            with psycopg.connect(url, autocommit=True) as db:
                db.execute("ANALYZE hunter_likeness")
                db.execute("CHECKPOINT")  # the load's writes flushed before anything is timed
        took = look_ups(store, listings, rng)
        store.close()
        lines.append(
            f"| {kind} | {took['one']:.2f} | {took['fifty']:.2f} | {took['fifty'] / 50:.3f} "
            f"| {empty['one']:.2f} | {empty['fifty']:.2f} "
            f"| {took['one'] - empty['one']:+.2f} |"
        )
    lines += ["", f"Making one listing's likeness: {likeness_cpu(rng):.0f} µs of CPU."]
    print("\n".join(lines))
    if args.write:
        replace_section(SECTION, lines)
    if "postgres" in kinds:
        from tests.support import postgres

        postgres.stop_server()


if __name__ == "__main__":
    main()
