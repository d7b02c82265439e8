"""`hunter run` against boards that never finish an answer (issue 62's sixth attack): polling
every few seconds, its threads and file descriptors stay flat and it spends next to no CPU
between polls. Over the hand-written transport each read of such a board left a thread
reading for ever: threads 10 -> 16 and descriptors 15 -> 22 in 36 s, 100% of a core."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.sources.test_hostile_boards import (
    endless_continues,
    endless_trailer,
    json_source,
    trickled_head,
)
from tests.support.board import Board, html_source
from tests.support.cli import base_env, start_hunter, write_config
from tests.support.local_server import free_port
from tests.support.raw_site import RawSite

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SLACK = 2  # threads or descriptors a loaded machine may show a moment longer


def sample(pid: int) -> tuple[int, int, float]:
    """The process's threads, open descriptors and CPU seconds so far."""
    threads = len(os.listdir(f"/proc/{pid}/task"))
    descriptors = len(os.listdir(f"/proc/{pid}/fd"))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime
    return threads, descriptors, cpu


@pytest.fixture
def hostile() -> Iterator[list[RawSite]]:
    sites = [RawSite(script) for script in (endless_continues, endless_trailer, trickled_head)]
    yield sites
    for site in sites:
        site.close()


def test_hunter_run_keeps_threads_descriptors_and_cpu_flat_against_endless_boards(
    tmp_path: Path, board: Board, hostile: list[RawSite]
) -> None:
    good = board.serve_jobs("/jobs", [("1", "python job")])
    sources = [html_source("good", good)]
    sources += [json_source(f"hostile{n}", site.url) for n, site in enumerate(hostile)]
    # a poll every 3 s (the least interval_minutes allows), each source given 1 s
    write_config(tmp_path, sources, interval_minutes=0.05, fetch_timeout_seconds=1)
    process = start_hunter(tmp_path, "run", env=base_env(tmp_path, PORT=str(free_port())))
    try:
        samples: list[tuple[float, int, int, float]] = []
        started = time.monotonic()
        while time.monotonic() - started < 27 and process.poll() is None:
            samples.append((time.monotonic() - started, *sample(process.pid)))
            time.sleep(0.5)
        assert process.poll() is None, process.communicate()[1]
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=30)
    for n in range(len(hostile)):  # each hostile board read again and again
        assert err.count(f"source hostile{n}: ") >= 3, err[-3000:]
    warm = [s for s in samples if s[0] >= 6]  # its first polls over: every thread it keeps
    early = [s for s in warm if s[0] < 12]
    late = [s for s in warm if s[0] >= 18]
    # Flat: a sample may catch a poll's readers or not, and on a loaded machine a thread
    # may end a moment late (a slack of 2); a read left running adds its thread and socket
    # every poll (on the old transport threads went 14 -> 23 in these 27 s)
    assert max(s[1] for s in late) <= max(s[1] for s in early) + SLACK, samples  # threads
    assert max(s[2] for s in late) <= max(s[2] for s in early) + SLACK, samples  # descriptors
    # Each poll reads the endless board as fast as it sends for its 1 s (and the poll's grace);
    # between polls nothing runs: well under half a core over the last 21 s, where a read
    # left running took a whole core.
    cpu = (late[-1][3] - warm[0][3]) / (late[-1][0] - warm[0][0])
    assert cpu < 0.5, samples
