"""Python's garbage collector, set for a command that starts, works a second and exits.

Starting hunter loads some 330 modules, and what they make lives as long as the process; yet
the cyclic collector scanned it all again and again while it loaded (28 collections in a quiet
cron run, about 20 ms of its 300, bench/peer.py). So the collector is off while hunter loads,
what loaded is then frozen (gc.freeze: never scanned again), and a one-shot command collects
after every 50,000 new objects instead of 2,000: all the cyclic garbage of a 50-source poll is
about 4,000 objects. The service (`hunter run`, running for months) goes back to Python's own
thresholds, so its memory stays where the benchmark measures it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

PYTHON_THRESHOLDS = gc.get_threshold()
ONE_SHOT_YOUNGEST = 50_000  # new objects between two collections of the youngest generation


@contextmanager
def loading() -> Iterator[None]:
    """Load hunter with the collector off; then freeze what loaded and collect rarely."""
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.set_threshold(ONE_SHOT_YOUNGEST, *PYTHON_THRESHOLDS[1:])
        gc.enable()


def serving() -> None:
    """For a process that runs for months: Python's own thresholds again."""
    gc.set_threshold(*PYTHON_THRESHOLDS)
