"""GET /healthz for platforms and uptime pingers, served when PORT is set.

200 while the last completed poll is recent (within two intervals), 503 once it is not, with
the last poll time and the outbox counts as JSON either way. On Render's free web services an
uptime pinger hitting it keeps the instance awake; a 503 lets the platform restart it.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger("hunter")


@dataclass
class Health:
    stale_after: timedelta
    last_poll_at: datetime | None = None
    outbox: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def polled(self, at: datetime, outbox: dict[str, int]) -> None:
        with self.lock:
            self.last_poll_at, self.outbox = at, dict(outbox)

    def report(self, now: datetime) -> tuple[int, dict[str, object]]:
        with self.lock:
            fresh = self.last_poll_at is not None and now - self.last_poll_at <= self.stale_after
            return (200 if fresh else 503), {
                "status": "ok" if fresh else "stale",
                "last_poll_at": self.last_poll_at.isoformat() if self.last_poll_at else None,
                "stale_after_seconds": self.stale_after.total_seconds(),
                "outbox": self.outbox,
            }


def serve(health: Health, port: int) -> ThreadingHTTPServer:
    """Answer /healthz on all interfaces (platforms route to it) in a daemon thread."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] not in ("/healthz", "/"):
                self.send_error(404)
                return
            status, body = health.report(datetime.now(UTC))
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="healthz").start()
    log.info("serving /healthz on port %d", port)
    return server
