"""Where the services' own descriptions are (../shared/contracts: LINE's and Discord's OpenAPI
specs, Telegram's Bot API as data), and reading one once per process."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path
from typing import ParamSpec, TypeVar

CONTRACTS = Path(__file__).resolve().parents[3] / "shared" / "contracts"

P = ParamSpec("P")
T = TypeVar("T")


def built_once(build: Callable[P, T]) -> Callable[P, T]:
    """`build`, cached, and run once however many threads ask for it together.

    Building a validator parses a whole spec (LINE's takes about 1.2 s). `functools.cache`
    alone lets requests that come together each build it: three pushes at once on a busy
    runner then took longer than the 5 s hunter waits for an answer, and a stand-in slower
    than the service made a test fail. The stand-ins build theirs as they start, and the
    lock makes any other caller wait for the first.
    """
    cached = cache(build)
    lock = threading.Lock()

    @wraps(build)
    def once(*args: P.args, **kwargs: P.kwargs) -> T:
        with lock:
            return cached(*args, **kwargs)

    return once
