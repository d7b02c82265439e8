"""What one stranger may cost hunter's HTTP side, in numbers, and refusals logged at a rate.

A channel's own webhook requests are small and quick: a body of a few KB (many events at most
tens), sent at once over a fresh or kept-alive connection, and LINE wants the answer within 2 s.
Every limit below is far above what a channel needs and far below what hurts a 512 MB instance.
"""

from __future__ import annotations

import logging
import resource
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    head_seconds: float = 10.0  # request line and headers, from the first byte awaited
    body_seconds: float = 10.0  # the whole body, once the head is in
    body_stall_seconds: float = 2.0  # the body must move: no byte for this long is a 408
    idle_seconds: float = 15.0  # a kept-alive connection waiting for its next request
    write_seconds: float = 10.0  # an answer the client does not read
    max_head: int = 16 * 1024  # request line and headers together (431 past it)
    max_target: int = 2048  # the request target (414 past it)
    max_headers: int = 64  # header lines (431 past them)
    max_body: int = 1024 * 1024  # one body (413 past it)
    small_body: int = 64 * 1024  # a body at most this big is always read (LINE's are)
    body_budget: int = 16 * 1024 * 1024  # larger bodies held at once, all connections (503)
    max_connections: int = 512  # open at once; past it the oldest idle one is dropped
    backlog: int = 1024  # connections the kernel queues before hunter accepts them
    workers: int = 4  # threads that run the webhook (signature, then the store)
    # Requests a connection may have written ahead of its answers (HTTP/1.1 pipelining): the
    # answer that finds this many waiting in a row closes the connection. No proxy or chat
    # service pipelines; a stranger doing it made LINE wait 2.5 s behind one connection.
    max_pipelined: int = 8
    # A body's pieces (chunks, or reads of a trickled body): the first `free_pieces` are free,
    # then each must bring `min_piece` bytes on average. One-byte chunks cost the server a
    # step per byte (600 KB took 4.6 s): such a body is refused (400) long before
    # its end, while LINE's and Telegram's bodies come whole or in network-sized pieces.
    free_pieces: int = 32
    min_piece: int = 512

    def pieces_allowed(self, size: int) -> int:
        """How many pieces a body of `size` bytes so far may have come in."""
        return self.free_pieces + size // self.min_piece

    def connections_allowed(self) -> int:
        """max_connections, within half the process's open-file limit (the rest is for the
        database, the fetches and the channels), after lifting the soft limit to the hard one."""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
                soft = hard
            except (ValueError, OSError):
                pass
        return max(16, min(self.max_connections, soft // 2))


class BodyBudget:
    """Bytes of large bodies being read at once, over all connections."""

    def __init__(self, total: int) -> None:
        self._free = total
        self._lock = threading.Lock()

    def take(self, size: int) -> bool:
        with self._lock:
            if size > self._free:
                return False
            self._free -= size
            return True

    def give(self, size: int) -> None:
        with self._lock:
            self._free += size


class Throttled:
    """A warning at most once per `every` seconds; the next one says how many were held back.
    A stranger's junk must not write a log line per request (33,501 lines in 32 s)."""

    def __init__(
        self,
        log: logging.Logger,
        every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log, self._every, self._clock = log, every, clock
        self._next = 0.0
        self._held = 0
        self._lock = threading.Lock()

    def warning(self, message: str) -> None:
        with self._lock:
            now = self._clock()
            if now < self._next:
                self._held += 1
                return
            held, self._held, self._next = self._held, 0, now + self._every
        more = f" (and {held} more like it in the last {self._every:g} s)" if held else ""
        self._log.warning("%s%s", message, more)
