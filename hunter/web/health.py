"""GET /healthz: whether hunter still polls.

200 while the last completed poll is recent (within two intervals), 503 once it is not, with
the time of the last poll either way. On Render's free web services an uptime pinger hitting
it keeps the instance awake; a 503 lets the platform restart it. The endpoint is public, so it
says nothing of what waits in the outbox: `hunter status` does, to whoever holds the database.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class Liveness:
    stale_after: timedelta
    last_poll_at: datetime | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def polled(self, at: datetime) -> None:
        with self.lock:
            self.last_poll_at = at

    def report(self, now: datetime) -> tuple[int, dict[str, object]]:
        with self.lock:
            fresh = self.last_poll_at is not None and now - self.last_poll_at <= self.stale_after
            return (200 if fresh else 503), {
                "status": "ok" if fresh else "stale",
                "last_poll_at": self.last_poll_at.isoformat() if self.last_poll_at else None,
                "stale_after_seconds": self.stale_after.total_seconds(),
            }
