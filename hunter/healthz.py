"""hunter's HTTP side, served when PORT is set: GET /healthz for platforms and uptime
pingers, and POST /line/webhook for LINE when LINE_CHANNEL_SECRET is set (hunter/chat.py).

200 while the last completed poll is recent (within two intervals), 503 once it is not, with
the last poll time and the outbox counts as JSON either way. On Render's free web services an
uptime pinger hitting it keeps the instance awake; a 503 lets the platform restart it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hunter.line.webhook import MAX_BODY

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


WEBHOOK_PATH = "/line/webhook"
Webhook = Callable[[bytes, str | None], int]  # (body, x-line-signature) -> HTTP status


def serve(health: Health, port: int, webhook: Webhook | None = None) -> ThreadingHTTPServer:
    """Answer /healthz (and the webhook) on all interfaces, in daemon threads."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if webhook is None or self.path.split("?", 1)[0] != WEBHOOK_PATH:
                self.send_error(404)
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                log.warning("webhook request refused (400): a body of %s bytes", length)
                self._answer(400, {"message": "not a LINE webhook"})
                self.close_connection = True  # the unread body must not be parsed as a request
                return
            status = webhook(self.rfile.read(length), self.headers.get("x-line-signature"))
            self._answer(status, {} if status == 200 else {"message": "bad request"})

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] not in ("/healthz", "/"):
                self.send_error(404)
                return
            self._answer(*health.report(datetime.now(UTC)))

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="healthz").start()
    log.info("serving /healthz%s on port %d", f" and {WEBHOOK_PATH}" if webhook else "", port)
    return server
