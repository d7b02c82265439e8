"""What the status page shows, kept a moment: a view never waits on a channel's API, and many
viewers cost one reading of the store.

`Snapshot` serves the report gathered within `max_age` seconds; an older one is gathered
again, by one viewer at a time. `Latest` holds the last answer of a slow call (a channel's
quota, which LINE answers in two requests) and asks again on a thread of its own when it is
older than `every` seconds, or when `moved()` says it changed (a push spent the month): the
view shows what was known, and says so until the first answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from hunter.errors import ChannelError

T = TypeVar("T")


class Snapshot(Generic[T]):
    def __init__(
        self,
        gather: Callable[[], T],
        max_age: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._gather, self._max_age, self._clock = gather, max_age, clock
        self._lock = threading.Lock()
        self._value: T | None = None
        self._at = -float("inf")

    def get(self) -> T:
        with self._lock:  # a viewer waits for the one gathering, then shares what it read
            if self._value is None or self._clock() - self._at > self._max_age:
                self._value = self._gather()
                self._at = self._clock()
            return self._value


class Latest(Generic[T]):
    def __init__(
        self,
        ask: Callable[[], T],
        every: float = 300.0,
        moved: Callable[[], object] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ask, self._every, self._moved, self._clock = ask, every, moved, clock
        self._seen: object = None  # what `moved()` said when the answer was asked
        self._lock = threading.Lock()
        self._known: tuple[T] | None = None  # a tuple, so that a None answer is known too
        self._error: ChannelError | None = None
        self._at = -float("inf")
        self._asking = False

    def get(self) -> T:
        """The last answer; ChannelError while none came yet, or when the last one failed."""
        with self._lock:
            moved = self._moved()
            if not self._asking and (self._clock() - self._at > self._every or moved != self._seen):
                self._asking, self._seen = True, moved
                threading.Thread(target=self._refresh, name="status-ask", daemon=True).start()
            known, error = self._known, self._error
        if error is not None:
            raise error
        if known is None:
            raise ChannelError("not read yet: it is being asked now (reload in a moment)")
        return known[0]

    def _refresh(self) -> None:
        answer: tuple[T] | None = None
        error: ChannelError | None = None
        try:
            answer = (self._ask(),)
        except ChannelError as exc:
            error = exc
        except Exception as exc:  # whatever went wrong, the page says so and asks again
            error = ChannelError(f"could not be read ({type(exc).__name__})")
        finally:
            with self._lock:
                if answer is not None:
                    self._known = answer
                self._error = error
                self._at, self._asking = self._clock(), False
