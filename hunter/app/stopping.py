"""A stop asked by a signal, for `hunter run` and `hunter run --once` alike.

SIGTERM comes from a host's deploy (Render, Railway: a kill follows 30 s later) and SIGINT
from Ctrl-C. GitHub cancels a run (a new push, a timeout, the Cancel button) with SIGINT,
then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that. Each only sets hunter's `stop` event:
fetches in flight are cancelled, the push in flight finishes within its deadline, and no new
one starts. Raising instead (Python's default KeyboardInterrupt, or the default action of
SIGTERM) left the push in flight `sending`: the next run could only call it stuck, delivery
unknown, though its answer was a moment away.
"""

from __future__ import annotations

import logging
import signal
import threading
from types import FrameType

log = logging.getLogger("hunter")


class SignalStop:
    """Sets `stop` on SIGTERM or SIGINT, and remembers the first signal."""

    def __init__(self, stop: threading.Event, finishing: str = "the push in flight") -> None:
        self.stop = stop
        self.finishing = finishing  # what is let finish: a push, or a prime's reads
        self.received: signal.Signals | None = None

    def install(self) -> SignalStop:
        """From the main thread (Python runs handlers only there)."""
        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)
        return self

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process its signal ended; 0 when
        none came."""
        return 128 + self.received if self.received else 0

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        # Said once: Ctrl-C reaches `uv run` and hunter both, and uv passes it on again; and
        # GitHub's SIGTERM follows its SIGINT.
        again = self.received is not None
        self.received = self.received or signal.Signals(signum)
        log.log(
            logging.DEBUG if again else logging.INFO,
            "%s received: finishing %s, starting no new one",
            signal.Signals(signum).name,
            self.finishing,
        )
        self.stop.set()
