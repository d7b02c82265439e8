"""A quiet poll next to urlwatch, the best-known peer: both read the same 50 unchanged pages
on 127.0.0.1, once, as a cron job would run them, with bytecode compiled ahead; and a cron
run of hunter's learned schedule when none of the 50 is due (it looks, and exits).

    uv run python bench/peer.py     # installs urlwatch 2.29 into a temporary venv first

bench/run.py includes this row in RESULTS.md. Each tool runs a warm-up, then RUNS times,
interleaved; the row shows the median wall time, the median peak memory (ru_maxrss), and the
median of hunter's time over urlwatch's run by run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.board import Board, html_source, jobs_html  # noqa: E402
from tests.support.cli import base_env, write_config  # noqa: E402

URLWATCH = "urlwatch==2.29"
SOURCES = 50
RUNS = 11
RATIO = "hunter / urlwatch"  # the median of the runs' ratios


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds, peak MB) of one run of `command`, measured for that process alone."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command[0]} failed: {status}")
    return seconds, usage.ru_maxrss / 1024


Command = tuple[list[str], Path, dict[str, str]]


def medians(commands: dict[str, Command]) -> dict[str, tuple[float, float]]:
    """Each tool's median (seconds, peak MB), the runs interleaved so that a busy moment of
    the machine falls on both alike; and under RATIO, hunter's time over urlwatch's: the
    median of the runs' ratios, each run beside its neighbour (this machine's pace drifts by
    a tenth and more within a minute: that ratio holds still where the ratio of medians did
    not). Peak MB is 0 on that row."""
    runs: dict[str, list[tuple[float, float]]] = {tool: [] for tool in commands}
    for command in commands.values():
        timed(*command)  # warm-up: first fetch, caches, .pyc of anything not compiled
    for _ in range(RUNS):
        for tool, command in commands.items():
            runs[tool].append(timed(*command))
    measured = {
        tool: (statistics.median(r[0] for r in done), statistics.median(r[1] for r in done))
        for tool, done in runs.items()
    }
    pairs = zip(runs["hunter"], runs["urlwatch"], strict=True)
    measured[RATIO] = (statistics.median(ours[0] / theirs[0] for ours, theirs in pairs), 0.0)
    return measured


def install_urlwatch(folder: Path) -> Path:
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", URLWATCH],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    return folder / "bin" / "urlwatch"


def compile_ahead(*folders: Path) -> None:
    for folder in folders:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", "-j", "0", str(folder)],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # third-party test files that do not compile: skipped
        )


def quiet_poll(boards: list[Board], folder: Path) -> dict[str, tuple[float, float]]:
    """Fifty sites (one board each: hunter sends at most two requests at once to one site,
    whereas urlwatch has no such limit), each page unchanged since the warm-up."""
    urls = []
    for n, board in enumerate(boards):
        jobs = [(f"{n}-{k}", f"python job {k} of board {n}") for k in range(20)]
        urls.append(board.serve("/jobs", jobs_html(jobs), etag=f'"v{n}"'))

    hunter_dir = folder / "hunter"
    hunter_dir.mkdir()
    write_config(hunter_dir, [html_source(f"b{n}", u) for n, u in enumerate(urls)])
    # A channel configured, as users run it (issue 56): LINE's token and LINE_TO set. A quiet
    # run pushes nothing, so LINE's address is never called (nothing listens there).
    line = {
        "LINE_CHANNEL_ACCESS_TOKEN": "bench-token",
        "LINE_TO": "U" + "0" * 32,
        "HUNTER_LINE_API_URL": "http://127.0.0.1:9",
    }
    env = base_env(hunter_dir, **line)
    hunter = [str(ROOT / ".venv" / "bin" / "hunter"), "run", "--once"]

    # The same sources on the learned schedule: after the warm-up's read, none is due for a
    # while, and a cron's run (issue 34: every 5 minutes) only looks and exits.
    idle_dir = folder / "idle"
    idle_dir.mkdir()
    write_config(
        idle_dir, [html_source(f"b{n}", u) for n, u in enumerate(urls)], schedule="learned"
    )
    idle_env = base_env(idle_dir, **line)

    watch_dir = folder / "urlwatch"
    watch_dir.mkdir()
    (watch_dir / "urls.yaml").write_text("\n---\n".join(f"url: {u}" for u in urls) + "\n")
    urlwatch = install_urlwatch(folder / "uw")
    watch = [
        str(urlwatch),
        "--urls", str(watch_dir / "urls.yaml"),
        "--config", str(watch_dir / "urlwatch.yaml"),
        "--hooks", str(watch_dir / "hooks.py"),
        "--cache", str(watch_dir / "cache.db"),
    ]  # fmt: skip
    watch_env = {"PATH": os.environ.get("PATH", ""), "HOME": str(watch_dir)}
    compile_ahead(ROOT / "hunter", ROOT / ".venv", folder / "uw")
    return medians(
        {
            "hunter": (hunter, hunter_dir, env),
            "urlwatch": (watch, watch_dir, watch_env),
            "hunter, nothing due": (hunter, idle_dir, idle_env),
        }
    )


def compare() -> dict[str, tuple[float, float]]:
    """(median seconds, median peak MB) of a quiet run of each tool."""
    boards = [Board() for _ in range(SOURCES)]
    try:
        with tempfile.TemporaryDirectory() as folder:
            return quiet_poll(boards, Path(folder))
    finally:
        for board in boards:
            board.close()


def main() -> None:
    measured = compare()
    if "--json" in sys.argv:  # for bench/run.py, which runs this in a process of its own
        print(json.dumps(measured))
        return
    ratio = measured.pop(RATIO)[0]
    for tool, (seconds, memory) in measured.items():
        print(f"{tool}: {seconds * 1000:.0f} ms, {memory:.0f} MB")
    print(f"{RATIO}, run by run: {ratio:.2f} (median)")


if __name__ == "__main__":
    main()
