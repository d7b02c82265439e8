"""The plumbing the stand-ins share: an HTTP server on a free port of 127.0.0.1, in a thread."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import ssl
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietHandler(BaseHTTPRequestHandler):
    """HTTP/1.1, no access log on stderr, and JSON answers in one call."""

    protocol_version = "HTTP/1.1"
    # An answer is written as its head, then its body: with Nagle's algorithm the body waited
    # for the client's delayed ACK of the head (up to 40 ms a call). Real servers (nginx,
    # PostgREST's Warp) set TCP_NODELAY.
    disable_nagle_algorithm = True

    def send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = b"" if status == 204 else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


class _Listening(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: thirty clients connecting at once (thirty
    # /start over Supabase) found connections reset, which no real service does (PostgREST,
    # LINE's and Telegram's front ends accept hundreds; Linux's somaxconn is 4096).
    request_queue_size = 128


class LocalServer:
    def __init__(
        self, handler: type[BaseHTTPRequestHandler], tls: ssl.SSLContext | None = None
    ) -> None:
        self.server = _Listening(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.server.handle_error = _quiet_when_the_client_left(self.server)  # type: ignore[method-assign]
        scheme = "http"
        if tls is not None:  # the handshake happens in each request's thread, on first read
            self.server.socket = tls.wrap_socket(
                self.server.socket, server_side=True, do_handshake_on_connect=False
            )
            scheme = "https"
            # A client that refuses the certificate is what such a test is about: no traceback.
            self.server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        # serve_forever looks for a shutdown request every poll_interval: its default of 0.5 s
        # was half a second of every test's teardown, for each stand-in it started.
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _quiet_when_the_client_left(server: ThreadingHTTPServer) -> Any:
    """socketserver prints a traceback to stderr for any error in a request's thread, and a
    client that goes away is one: hunter cutting a read at its deadline, or a test killing
    it mid-send. The thread may outlive its test, and its traceback then landed in another
    test's captured stderr, failing a check that a user's mistake prints no traceback. Only
    the client's leaving is quiet; anything else is still printed."""
    default = server.handle_error

    def handle_error(request: Any, address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            default(request, address)

    return handle_error


def free_port() -> int:
    """A port for a server a test starts later (`hunter run`'s PORT), free now and outside
    the kernel's ephemeral range (Linux: 32768-60999), where every stand-in's port 0 and every
    outgoing connection land: a port taken from there could be handed to another worker's
    stand-in before hunter binds it (seen: hunter's /healthz answered by the LINE stand-in)."""
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.randrange(20_000, 32_000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # taken
            return port
    raise RuntimeError("no free port between 20000 and 32000")


def get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_for(url: str, status: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    last: tuple[int, Any] = (0, None)
    while time.monotonic() < deadline:
        try:
            last = get(url)
            if last[0] == status:
                return last[1]
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"no {status} from {url} within {timeout} s; last: {last}")


def stop_accepting(server: socket.socket, accepting: threading.Thread) -> None:
    """Close a listening socket and end the thread accepting on it. Closing alone leaves the
    thread in accept(): should the call be interrupted (a profiler's ptrace, a signal) Python
    retries it with the same descriptor number, which by then may be the next test's server,
    whose connections this site would then answer (seen under py-spy: a read got another
    site's page). shutdown() wakes the accept with an error first."""
    with contextlib.suppress(OSError):
        server.shutdown(socket.SHUT_RDWR)
    accepting.join(5)
    server.close()
