"""hunter's webhook under a stranger's attack, next to an earlier hunter's, in one run.

    uv run python bench/siege.py                  # this checkout and the first webhook (a1cc299)
    uv run python bench/siege.py --write          # and puts the table into bench/RESULTS.md
    uv run python bench/siege.py --seconds 10     # a shorter attack, for a quick look
    uv run python bench/siege.py --held-small --write   # issue 29's attack, next to cdd37b2
    uv run python bench/siege.py --third --write        # issue 37's two, next to d9d92cb

Each hunter runs as `hunter run` with PORT and LINE_CHANNEL_SECRET (SQLite, one local board,
the LINE stand-in), first left idle (its resident memory with the webhook on), then attacked
from this process on 127.0.0.1 (tests/support/siege.py): 500 connections trickling their
headers a byte every 5 s and 200 holding the last byte of a 1 MB body for the whole attack,
16 clients posting 1 MB unsigned bodies for half of it, while a signed request and a /healthz
go every half second. With --held-small, issue 29's attack instead: 600 connections each
send a whole signed-looking head announcing a 60 KB body, then nothing, and open again as soon
as they are closed; the earlier hunter is cdd37b2, the release it broke. With --third, issue
37's two, each on its own: 4 connections pipelining GET /healthz back to back, then 4 clients
posting 600 KB bodies in one-byte chunks, while Telegram's webhook is probed beside LINE's;
the earlier hunter is d9d92cb. The earlier hunter
runs from a temporary `git worktree` of its commit with the same interpreter and packages.
A benchmark, not a test: it reports and never fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from tests.support.board import Board, html_source  # noqa: E402
from tests.support.cli import base_env, write_config  # noqa: E402
from tests.support.line_standin import LineStandIn  # noqa: E402
from tests.support.local_server import free_port, wait_for  # noqa: E402
from tests.support.siege import Attack, besiege, raise_open_file_limit  # noqa: E402
from tests.support.telegram_standin import TelegramStandIn  # noqa: E402
from tests.support.webhook import SECRET  # noqa: E402

SECTION = "## The webhook under attack"
BEFORE = "a1cc299"  # the release that first served the webhook (http.server, a thread each)
HELD_SMALL_SECTION = "## The webhook under the second attack: held small bodies"
HELD_SMALL_BEFORE = "cdd37b2"  # the release whose connection slots they filled
HELD_SMALL = Attack(slowloris=0, held_bodies=0, posters=0, held_small=600)
THIRD_SECTION = "## The webhook under the third attack: pipelining and one-byte chunks"
THIRD_BEFORE = "d9d92cb"  # the release whose loop one connection could hold
THIRD = {
    "4 connections pipelining GET /healthz": Attack(
        slowloris=0, held_bodies=0, posters=0, pipeliners=4, probe_every=0.25
    ),
    "4 clients posting one-byte chunks": Attack(
        slowloris=0, held_bodies=0, posters=0, chunkers=4, probe_every=0.25
    ),
}
TELEGRAM_SECRET = "bench-telegram-webhook-secret_0123456"
IDLE_SECONDS = 20


def measure(
    code: Path,
    attack: Attack,
    board: Board,
    line: LineStandIn,
    telegram: TelegramStandIn | None = None,
    idle_seconds: float = IDLE_SECONDS,
) -> dict[str, object]:
    """Start the hunter in `code`, let it idle, attack it, stop it; what was seen."""
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    port = free_port()
    chat: dict[str, str] = {}
    if telegram is not None:
        chat = telegram.env() | {"TELEGRAM_WEBHOOK_SECRET": TELEGRAM_SECRET}
    with tempfile.TemporaryDirectory() as folder:
        write_config(Path(folder), [html_source("board", url)], interval_minutes=30)
        env = base_env(
            Path(folder),
            PORT=str(port),
            LINE_CHANNEL_SECRET=SECRET,
            PYTHONPATH=str(code),
            HUNTER_LOG_LEVEL="ERROR",  # the old server logs each refusal: keep the pipe quiet
            **line.env(),
            **chat,
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "hunter", "run"],
            cwd=folder,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(f"http://127.0.0.1:{port}/healthz", 200, 60)
            time.sleep(idle_seconds)
            idle = _rss_mb(process.pid)
            secret = TELEGRAM_SECRET if telegram is not None else ""
            report = besiege("127.0.0.1", port, process.pid, SECRET, attack, secret)
            time.sleep(2)
            after = _rss_mb(process.pid)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    return {"idle_rss_mb": idle, "rss_mb_after": after, **report.summary()}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _rows(before: dict[str, object], after: dict[str, object]) -> Callable[..., str]:
    def row(what: str, key: str, unit: str = "") -> str:
        return f"| {what} | {before.get(key)}{unit} | {after.get(key)}{unit} |"

    return row


def table(before: dict[str, object], after: dict[str, object], attack: Attack) -> list[str]:
    row = _rows(before, after)
    return [
        f"| what | {BEFORE} (http.server) | this hunter |",
        "|---|---|---|",
        row("resident memory at idle, webhook on", "idle_rss_mb", " MB"),
        row("signed requests answered 200", "signed_200"),
        row("signed requests sent", "signed"),
        row("slowest signed request", "signed_max_s", " s"),
        row("median signed request", "signed_median_s", " s"),
        row("/healthz answered", "healthz_answered"),
        row("slowest /healthz", "healthz_max_s", " s"),
        row(f"slowloris connections (of {attack.slowloris}) dropped", "slow_dropped"),
        row("... the last of them dropped after", "slow_dropped_max_s", " s"),
        row("... still open at the end", "slow_still_open"),
        row(f"held 1 MB bodies (of {attack.held_bodies}) still open at the end", "held_still_open"),
        row("answers to the unsigned 1 MB posts (status: count)", "unsigned_answers"),
        row("threads, at most", "threads_max"),
        row("resident memory, at most", "rss_mb_max", " MB"),
        row("resident memory after the attack", "rss_mb_after", " MB"),
        row("open files, at most", "open_files_max"),
    ]


def held_small_table(before: dict[str, object], after: dict[str, object], base: str) -> list[str]:
    row = _rows(before, after)
    return [
        f"| what | {base} | this hunter |",
        "|---|---|---|",
        row("connections the attack opened (600 at a time)", "held_small_opened"),
        row("signed requests answered 200", "signed_200"),
        row("signed requests sent", "signed"),
        row("slowest signed request", "signed_max_s", " s"),
        row("/healthz answered", "healthz_answered"),
        row("/healthz asked", "healthz"),
        row("threads, at most", "threads_max"),
        row("resident memory, at most", "rss_mb_max", " MB"),
        row("open files, at most", "open_files_max"),
    ]


def third_table(results: dict[str, tuple[dict[str, object], dict[str, object]]]) -> list[str]:
    lines = [f"| attack | what | {THIRD_BEFORE} | this hunter |", "|---|---|---|---|"]
    for name, (before, after) in results.items():
        for what, key, unit in (
            ("LINE's signed requests answered 200, of sent", "signed", ""),
            ("... median", "signed_median_s", " s"),
            ("... p99", "signed_p99_s", " s"),
            ("... slowest", "signed_max_s", " s"),
            ("Telegram's answered 200, of sent", "telegram", ""),
            ("... p99", "telegram_p99_s", " s"),
            ("... slowest", "telegram_max_s", " s"),
            ("/healthz p99", "healthz_p99_s", " s"),
            ("/healthz slowest", "healthz_max_s", " s"),
            ("answers the attackers read", "pipelined_answers", ""),
            ("answers to the chunked posts (status: count)", "chunked_answers", ""),
        ):
            if not before.get(key) and not after.get(key):
                continue  # the other attack's row
            if key in ("signed", "telegram"):
                cells = [f"{side.get(key + '_200')} of {side.get(key)}" for side in (before, after)]
            else:
                cells = [f"{side.get(key)}{unit}" for side in (before, after)]
            lines.append(f"| {name} | {what} | {cells[0]} | {cells[1]} |")
            name = ""
    return lines


def third(seconds: float, before_commit: str, write: bool) -> int:
    """Issue 37's two attacks, each against the earlier hunter and this one."""
    board, line, telegram = Board(), LineStandIn(check_spec=False), TelegramStandIn()
    results: dict[str, tuple[dict[str, object], dict[str, object]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "before"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(old), before_commit],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            for name, attack in THIRD.items():
                attack = replace(attack, seconds=seconds)
                sides = [measure(code, attack, board, line, telegram, 2) for code in (old, ROOT)]
                print(name, json.dumps(sides), flush=True)
                results[name] = (sides[0], sides[1])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
    board.close()
    line.close()
    telegram.close()
    lines = third_table(results)
    print("\n".join(lines))
    if write:
        day = time.strftime("%Y-%m-%d", time.gmtime())
        replace_section(
            THIRD_SECTION,
            [
                f"`uv run python bench/siege.py --third --write`, {day}: each attack for",
                f"{seconds:g} s from 127.0.0.1 on `hunter run` with PORT, LINE_CHANNEL_SECRET and",
                "Telegram's webhook, while a signed LINE request, a Telegram update and a /healthz",
                "go every quarter second. Before, a connection's buffered requests (or chunks)",
                "were all handled before any other connection's turn; now each connection yields",
                "between two of them, one with 8 requests waiting in a row is closed, and a body",
                "whose pieces average under 512 bytes (after 32) is refused with 400.",
                "",
                *lines,
            ],
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the table in RESULTS.md")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the attack lasts")
    parser.add_argument("--before", default=None, help="the earlier commit to compare with")
    parser.add_argument(
        "--held-small", action="store_true", help="issue 29's held-small-bodies attack instead"
    )
    parser.add_argument(
        "--third", action="store_true", help="issue 37's pipelining and one-byte chunks instead"
    )
    args = parser.parse_args()
    raise_open_file_limit()
    if args.third:
        return third(args.seconds, args.before or THIRD_BEFORE, args.write)
    if args.held_small:
        attack = replace(HELD_SMALL, seconds=args.seconds)
        args.before = args.before or HELD_SMALL_BEFORE
    else:
        attack = Attack(seconds=args.seconds, posting_seconds=args.seconds / 2)
        args.before = args.before or BEFORE
    board, line = Board(), LineStandIn(check_spec=False)
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "before"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(old), args.before],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            before = measure(old, attack, board, line)
            print("before:", json.dumps(before), flush=True)
            after = measure(ROOT, attack, board, line)
            print("after:", json.dumps(after), flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
    board.close()
    line.close()
    if args.held_small:
        lines = held_small_table(before, after, args.before)
    else:
        lines = table(before, after, attack)
    print("\n".join(lines))
    if args.write:
        write_results(lines, args.seconds, args.held_small)
    return 0


def write_results(lines: list[str], seconds: float, held_small: bool) -> None:
    """Replace this section of RESULTS.md (or add it), leaving the others as they are."""
    day = time.strftime("%Y-%m-%d", time.gmtime())
    if held_small:
        replace_section(
            HELD_SMALL_SECTION,
            [
                f"`uv run python bench/siege.py --held-small --write`, {day}: a {seconds:g} s",
                "attack from 127.0.0.1 on `hunter run` with PORT and LINE_CHANNEL_SECRET: 600",
                "connections each send a whole POST /line/webhook head with any signature and",
                "`Content-Length: 60000`, then no body, and open again as soon as they are",
                "closed. Before, a connection whose head was in counted as being answered and",
                "was never dropped to make room; now only one whose whole request is in is, and a",
                "body that stops moving for 2 s is refused.",
                "",
                *lines,
            ],
        )
        return
    replace_section(
        SECTION,
        [
            f"`uv run python bench/siege.py --write`, {day}:",
            f"a {seconds:g} s attack from 127.0.0.1 (tests/support/siege.py) on `hunter run` with",
            "PORT and LINE_CHANNEL_SECRET, after it idled 20 s. LINE needs every signed request",
            "answered 200 within 2 s.",
            "",
            *lines,
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
