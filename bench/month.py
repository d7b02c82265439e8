"""A month on LINE's free plan: hunter's pace against the first release's push-per-poll.

    uv run python bench/month.py          # 12 runs of 30 simulated days; prints the table
    uv run python bench/month.py --write  # and puts it into bench/RESULTS.md

A fake clock drives the real poller, deliverer and SQLite store through November 2026 in
Bangkok, polling every 30 minutes. The job board and LINE are the stand-ins of tests/support on
127.0.0.1; the LINE stand-in counts the month's messages as LINE does (one per accepted push)
and answers 429 once the plan is spent. Listings appear at random (seeded) times between 08:00
and 22:00, a fixed number a day. Delays run from a listing's appearance on the board to LINE
accepting the push that carried it, with quiet hours (23:00-07:00, when hunter pushes nothing)
left out, so that a night's wait is not counted as lateness. The baseline is the same code with
pacing off and no quiet hours: a push in every poll that found something, which is what the
first release did.

Who gets the alerts (`--to`): LINE_TO a user (one message a push), LINE_TO a group of 4 (four
messages a push: LINE counts each recipient), or both side by side (LINE_TO a user and a
[[chats]] group of 4 with the same keywords: each listing goes to both, 1 + 4 messages), or
LINE_TO a group of 4 beside a [[chats]] Telegram group with the same keywords (the Telegram
Bot API stand-in of tests/support, on the same fake clock): Telegram has no monthly quota, so
its group gets each listing at the first poll that sees it, while LINE's waits for the pace.
The "even spread" column is the delay an even spread of the month allows: the month's active
hours over the pushes the plan pays for, (plan - reserve) / messages per push.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from hunter.app.service import Hunter  # noqa: E402
from hunter.channels.line.push import LineSender  # noqa: E402
from hunter.channels.telegram.send import TelegramSender  # noqa: E402
from hunter.deliver.channel import Channel, Channels  # noqa: E402
from hunter.rules.calendar import Calendar, QuietHours  # noqa: E402
from hunter.settings.config import parse_config  # noqa: E402
from hunter.store.sqlite import SQLiteStore  # noqa: E402
from tests.support.board import Board, html_source  # noqa: E402
from tests.support.line_standin import TO, TOKEN, LineStandIn  # noqa: E402
from tests.support.telegram_standin import TOKEN as TELEGRAM_TOKEN  # noqa: E402
from tests.support.telegram_standin import TelegramStandIn  # noqa: E402

BANGKOK = ZoneInfo("Asia/Bangkok")
MONTH_START = datetime(2026, 11, 1, tzinfo=BANGKOK)
DAYS = int(os.environ.get("HUNTER_MONTH_DAYS", "30"))
POLL = timedelta(minutes=30)
QUIET = "23:00-07:00"
PAGE_SIZE = 50  # the board shows its newest 50 listings, as boards do
PLANS = (200, 300)
RATES = (3, 15, 40)
SEED = 20261101
GROUP = "C" + "4b" * 16  # a group of 4 in the LINE stand-in
TELEGRAM_GROUP = -100222  # a supergroup in the Telegram stand-in
BESIDE = "group of 4 + Telegram group"
# LINE messages per listing
AUDIENCES = {"user": 1, "group of 4": 4, "user + group of 4": 5, BESIDE: 4}


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.now = start.astimezone(UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Run:
    behaviour: str  # "paced" or "baseline"
    plan: int
    rate: int
    audience: str = "user"
    listings: int = 0
    pushes: int = 0  # messages LINE counted
    refused: int = 0  # 429 answers
    delivered: int = 0
    waiting: int = 0  # appeared, not on LINE when the month ended
    delays: tuple[float, ...] = ()  # minutes, quiet hours left out
    exhausted_days: int = 0
    first_exhausted: int | None = None  # day of the month

    def percentile(self, share: float) -> float:
        ordered = sorted(self.delays)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def stream(rate: int, seed: int) -> list[tuple[str, datetime]]:
    """(id, appearance) of `rate` listings a day between 08:00 and 22:00 Bangkok time."""
    chance = random.Random(seed)
    out = []
    for day in range(DAYS):
        opening = MONTH_START + timedelta(days=day, hours=8)
        for n in range(rate):
            at = opening + timedelta(seconds=chance.uniform(0, 14 * 3600))
            out.append((f"d{day:02d}n{n:02d}", at))
    return sorted(out, key=lambda item: item[1])


def simulate(
    behaviour: str,
    plan: int,
    rate: int,
    board: Board,
    line: LineStandIn,
    telegram: TelegramStandIn,
    folder: Path,
    audience: str = "user",
) -> list[Run]:
    """The month's run on LINE, and beside it (BESIDE) the Telegram group's."""
    paced = behaviour == "paced"
    clock = FakeClock(MONTH_START)
    line.pushes, line.accepted = [], {}  # a fresh channel for this month
    line.quota_limit, line.clock = plan, clock
    telegram.delivered, telegram.clock = [], clock
    line.members[GROUP] = 4
    name = f"{behaviour}-{plan}-{rate}-{audience.replace(' ', '')}"
    path = f"/{name}"
    url = board.serve_jobs(path, [("seed", "python seed")])
    source = html_source("board", url)
    raw = {
        "sources": [source],
        "timezone": "Asia/Bangkok",
        "filter": {"include": ["python"]},
        "backoff_seconds": [1, 1, 1, 1, 1],
    }
    if paced:
        raw["quiet_hours"] = QUIET
    if audience == "user + group of 4":
        raw["chats"] = [{"name": "studio", "to": GROUP, "include": ["python"]}]
    others: dict[str, Channel] = {}
    if audience == BESIDE:
        raw["chats"] = [{"name": "tg", "to": f"telegram:{TELEGRAM_GROUP}", "include": ["python"]}]
        # Telegram's own pace is kept by the sender in real seconds: none pass on a fake clock.
        others["telegram:"] = TelegramSender(TELEGRAM_TOKEN, telegram.url, sleep=lambda s: None)
    config = parse_config(raw)
    listings = stream(rate, SEED + rate)
    appeared = {f"python job {job_id}": at for job_id, at in listings}
    store = SQLiteStore(folder / f"{name}.db")
    store.migrate()
    line_to = GROUP if audience in ("group of 4", BESIDE) else TO
    sender = Channels(LineSender(TOKEN, line_to, line.url), others)
    hunter = Hunter(
        config, store, sender, clock, "bench", threading.Event(), pacing=paced, line_to=line_to
    )
    hunter.deliverer.sleep = lambda seconds: None  # a retry is due at once on the fake clock
    end = MONTH_START + timedelta(days=DAYS)
    shown = 0
    exhausted: set[int] = set()
    try:
        while clock.now < end:
            while shown < len(listings) and listings[shown][1] <= clock.now:
                shown += 1
            page = [(i, f"python job {i}") for i, _ in listings[max(0, shown - PAGE_SIZE) : shown]]
            board.serve_jobs(path, page or [("seed", "python seed")])
            hunter.poll()
            if line.used >= plan:
                exhausted.add(clock.now.astimezone(BANGKOK).day)
            clock.now += POLL
    finally:
        store.close()
    calendar = Calendar("Asia/Bangkok", QuietHours.parse(QUIET))
    delays = []
    for push in line.pushes:
        if push.status != 200:
            continue
        for title in push.titles:
            if title in appeared:
                delays.append(calendar.active_seconds(appeared[title], push.at) / 60)
    delivered = len(delays)
    expected = len(listings) * (2 if audience == "user + group of 4" else 1)
    runs = [] if audience != BESIDE else [beside(behaviour, plan, rate, telegram, appeared)]
    return [
        Run(
            behaviour=behaviour,
            plan=plan,
            rate=rate,
            audience=audience,
            listings=expected,
            pushes=sum(p.recipients for p in line.pushes if p.status == 200),
            refused=sum(1 for p in line.pushes if p.status == 429),
            delivered=delivered,
            waiting=expected - delivered,
            delays=tuple(delays),
            exhausted_days=len(exhausted),
            first_exhausted=min(exhausted) if exhausted else None,
        ),
        *runs,
    ]


def beside(
    behaviour: str, plan: int, rate: int, telegram: TelegramStandIn, appeared: dict[str, datetime]
) -> Run:
    """The Telegram group's month, from what reached it and when."""
    calendar = Calendar("Asia/Bangkok", QuietHours.parse(QUIET))
    delays = []
    for sent in telegram.delivered:
        title = sent.text.split("\n", 1)[0]
        if sent.chat_id == TELEGRAM_GROUP and title in appeared:
            delays.append(calendar.active_seconds(appeared[title], sent.at) / 60)
    return Run(
        behaviour=behaviour,
        plan=plan,
        rate=rate,
        audience="Telegram group (beside it)",
        listings=len(appeared),
        delivered=len(delays),
        waiting=len(appeared) - len(delays),
        delays=tuple(delays),
    )


def minutes(value: float) -> str:
    if value >= 1440:
        return f"{value / 1440:.1f} d"
    if value >= 90:
        return f"{value / 60:.1f} h"
    return f"{value:.0f} min"


def even_spread(plan: int, audience: str) -> float | None:
    """Minutes between pushes when the month's messages are spread evenly over its active
    hours: (plan - reserve) / messages per push, over 16 active hours a day; None without a
    quota (Telegram)."""
    if audience not in AUDIENCES:
        return None
    reserve = min(10, plan // 10)
    pushes = (plan - reserve) / AUDIENCES[audience]
    return DAYS * 16 * 60 / pushes


def table(runs: list[Run]) -> list[str]:
    lines = [
        "| to | behaviour | plan | a day | messages | 429s | delivered | median | p90 | "
        "even spread | max | waiting at the end | days exhausted |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        exhausted = (
            f"{r.exhausted_days} (from day {r.first_exhausted})" if r.first_exhausted else "0"
        )
        median = statistics.median(r.delays) if r.delays else 0.0
        spread = even_spread(r.plan, r.audience)
        lines.append(
            f"| {r.audience} | {r.behaviour} | {r.plan} | {r.rate} | {r.pushes} | {r.refused} | "
            f"{r.delivered}/{r.listings} | {minutes(median)} | {minutes(r.percentile(0.9))} | "
            f"{minutes(spread) if spread is not None else 'no quota'} | "
            f"{minutes(max(r.delays, default=0))} | "
            f"{r.waiting} | {exhausted} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the table in RESULTS.md")
    parser.add_argument("--plans", type=int, nargs="*", default=list(PLANS))
    parser.add_argument("--rates", type=int, nargs="*", default=list(RATES))
    parser.add_argument("--to", nargs="*", default=list(AUDIENCES), choices=list(AUDIENCES))
    args = parser.parse_args()
    runs = []
    board = Board()
    # LINE's month, as the stand-in counts it, is Bangkok's here, like hunter's: the table then
    # shows the pace and not where the two months' edges happen to fall.
    line = LineStandIn(check_spec=False, month_zone=BANGKOK)
    telegram = TelegramStandIn()
    with tempfile.TemporaryDirectory() as folder:
        for audience in args.to:
            for plan in args.plans:
                for rate in args.rates:
                    for behaviour in ("paced", "baseline"):
                        if audience != "user" and behaviour == "baseline" and rate != 15:
                            continue  # the first release with a group: one rate shows it
                        if audience in ("user + group of 4", BESIDE) and rate != 15:
                            continue
                        if audience == BESIDE and behaviour == "baseline":
                            continue  # the pace is what the comparison is about
                        month = simulate(
                            behaviour, plan, rate, board, line, telegram, Path(folder), audience
                        )
                        runs += month
                        print("\n".join(table(month)[2:]), flush=True)
    board.close()
    line.close()
    telegram.close()
    lines = table(runs)
    print("\n".join(lines))
    if args.write:
        write_results(lines)
    return 0


def write_results(lines: list[str]) -> None:
    """Replace the month section of RESULTS.md (or add it) with this table."""
    replace_section(
        "## A month on LINE's free plan",
        [
            "`uv run python bench/month.py --write`: 30 simulated days (November 2026,",
            "Bangkok), a poll every 30 min, listings between 08:00 and 22:00; paced runs keep",
            f"quiet hours {QUIET}.",
            "Delays are from a listing's appearance on the board to LINE accepting it, quiet",
            "hours left out. The baseline is the first release's behaviour: a push in every",
            "poll that found something, no pacing, no quiet hours. A LINE group of 4 beside a",
            "Telegram group: the Telegram group's delays are to the Telegram stand-in taking",
            "each message (no quota: each listing goes at the first poll that sees it).",
            "",
            *lines,
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
