"""A cold start as GitHub Actions (or any per-minute host) runs hunter: a fresh virtual
environment from uv's restored cache, then one `hunter run --once`, next to the billed minute.

    uv run python bench/coldstart.py           # prints the figures
    uv run python bench/coldstart.py --write   # and puts them into bench/RESULTS.md

Each round copies the project (pyproject.toml, uv.lock, README.md, hunter/) into a temporary
folder, runs `uv sync --locked --no-dev` there into a new environment with uv's cache as it is
(as setup-uv restores it), then `uv run --no-sync hunter run --once` against three job boards
on 127.0.0.1, SQLite, and the LINE stand-in with something to push. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from tests.support.board import Board, html_source  # noqa: E402
from tests.support.cli import write_config  # noqa: E402
from tests.support.line_standin import LineStandIn  # noqa: E402

SECTION = "## A cold start, billed by the minute"
ROUNDS = 3


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr[-2000:]}")
    return time.perf_counter() - started


def one_round(board: Board, line: LineStandIn, n: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "hunter"
        project.mkdir()
        for name in ("pyproject.toml", "uv.lock", "README.md", ".python-version"):
            shutil.copy(ROOT / name, project / name)
        shutil.copytree(
            ROOT / "hunter", project / "hunter", ignore=shutil.ignore_patterns("__pycache__")
        )
        sources = []
        for k in range(3):
            url = board.serve_jobs(f"/r{n}s{k}", [(f"seed{k}", "seed")])
            sources.append(html_source(f"board{k}", url))
        write_config(project, sources, filter={"include": ["python"]})
        # This machine's environment (its uv cache: "restored"), less anything of hunter's.
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("HUNTER_", "LINE_", "SUPABASE_", "DATABASE_", "VIRTUAL_ENV"))
        }
        env |= line.env() | {"HUNTER_DB": str(project / "hunter.db")}
        env["UV_PROJECT_ENVIRONMENT"] = str(project / ".venv")
        sync = timed(["uv", "sync", "--locked", "--no-dev", "--quiet"], project, env)
        once = ["uv", "run", "--no-sync", "hunter", "run", "--once"]
        timed(once, project, env)  # the first run primes the boards (the database's first day)
        for k in range(3):
            board.serve_jobs(f"/r{n}s{k}", [(f"seed{k}", "seed"), (f"{n}-{k}", "python job")])
        pushes = len(line.pushes)
        poll = timed(once, project, env)
        assert len(line.pushes) == pushes + 1, "the timed run was to push the 3 new listings"
        return sync, poll


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the figures in RESULTS.md")
    args = parser.parse_args()
    board, line = Board(), LineStandIn(check_spec=False)
    rounds = [one_round(board, line, n) for n in range(ROUNDS)]
    board.close()
    line.close()
    sync = statistics.median(r[0] for r in rounds)
    poll = statistics.median(r[1] for r in rounds)
    lines = [
        "| step | median of 3 | |",
        "|---|---|---|",
        f"| `uv sync --locked --no-dev`, a new environment, uv's cache restored | {sync:.1f} s | |",
        f"| `hunter run --once`: 3 sources, 3 new listings in 1 push (SQLite) | {poll:.1f} s | |",
        f"| both | {sync + poll:.1f} s | {100 * (sync + poll) / 60:.0f} % of the billed minute |",
    ]
    print("\n".join(lines))
    if args.write:
        replace_section(
            SECTION,
            [
                f"`uv run python bench/coldstart.py --write`, {time.strftime('%Y-%m-%d')}: what a",
                "per-minute host (GitHub Actions) pays for each poll besides checkout and",
                "setup-uv. GitHub bills each job in whole minutes.",
                "",
                *lines,
            ],
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
