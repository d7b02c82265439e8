"""A small HTTP/1.1 server for the internet: /healthz, and the chats' webhooks when they are on.

Why not the standard library's `http.server`: it gives every connection a thread that waits on
it for ever, reads whatever headers and body a client announces, and listens with a backlog of
5. Tried as an attacker would, 500 idle connections kept 500 threads, 371 held 1 MB
bodies took 380 MB, and about 1,000 idle ones stopped hunter altogether. Here one thread runs
an asyncio loop that holds every connection, h11 (already installed with httpx) reads HTTP/1.1
exactly (framing, chunked bodies, the size of the head), and every step has a limit
(limits.py): the head and the body must arrive in time, are bounded in size, the body of a
webhook request is read only once its head shows it comes from LINE or Telegram, and when the
connections reach their cap the oldest one not being answered makes room, so a new request
(LINE's) is always heard. A connection counts as being answered only once its whole request is
in: one that announced a body and holds it back (600 such connections, reopened as
fast as they closed, shut LINE out) is as droppable as an idle one, and a body that stops
moving for `body_stall_seconds` is refused. Requests and body pieces already buffered are
handled without a wait on the socket, so a connection yields to the others between two of
them, and one that pipelines `max_pipelined` requests in a row is closed (four
pipelining connections, or four one-byte-chunk senders, made LINE wait seconds). Connections
are kept alive (Render's and Railway's proxies reuse them), `Expect: 100-continue` is
answered, and a request that carries both Transfer-Encoding and Content-Length is refused:
behind a proxy that trusts the length, it is request smuggling.

Answers: GET and HEAD /healthz (and /); POST /line/webhook and /telegram/webhook (404 when
that chat is off; 400, 401 or 403 when the head is not LINE's or Telegram's); GET /status and
/status.json with HUNTER_STATUS_TOKEN (status_page.py: 401 without the token);
404 for other paths, 405 for other methods, 400 for what is not HTTP, 408 for a head too slow,
413, 414 and 431 for what is too large, 503 when large bodies already use the budget.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import h11

from hunter.errors import ConfigError
from hunter.web.health import Liveness
from hunter.web.limits import Limits, Throttled
from hunter.web.routes import READ_CHUNK, Hook, Page, Refusal, Routes, next_request

log = logging.getLogger("hunter")


@dataclass(eq=False)
class _Connection:
    writer: asyncio.StreamWriter
    opened: float = field(default_factory=time.monotonic)
    # The whole request is in and is being answered: never the one dropped to make room.
    # Reading a head or a body is not busy: that is what a stranger can hold for free.
    busy: bool = False

    def answering(self) -> None:
        self.busy = True


class HttpServer:
    """Serves on `port` from its own thread once `start` returns; `close` stops it."""

    def __init__(
        self,
        health: Liveness,
        port: int,
        hooks: Sequence[Hook] = (),
        host: str = "0.0.0.0",
        limits: Limits | None = None,
        pages: Sequence[Page] = (),
    ) -> None:
        self.health, self.hooks, self.pages = health, tuple(hooks), tuple(pages)
        self.host, self.port = host, port
        self.limits = limits or Limits()
        self._cap = self.limits.connections_allowed()
        self._refused = Throttled(log)
        self._connections: dict[_Connection, None] = {}  # in the order they opened
        self._pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="webhook")
        # The status page on a thread of its own: viewers wait for each other, never a chat.
        self._page_pool = ThreadPoolExecutor(1, thread_name_prefix="status")
        self._routes = Routes(
            health, self.hooks, self.limits, self._pool, self.pages, self._page_pool
        )
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(_quiet)
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="http", daemon=True)

    def start(self) -> HttpServer:
        try:
            self._server = self._loop.run_until_complete(
                asyncio.start_server(
                    self._accept,
                    self.host,
                    self.port,
                    backlog=self.limits.backlog,
                    limit=READ_CHUNK,
                )
            )
        except OSError as exc:  # a port in use, or one this user may not take
            self._loop.close()
            why = (
                "is in use by another program"
                if exc.errno == errno.EADDRINUSE
                else (f"cannot be listened on ({exc.strerror or type(exc).__name__})")
            )
            raise ConfigError(
                f"PORT {self.port} {why}: stop that program, or set PORT to a free port"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        self._thread.start()
        # A webhook whose chat is off is not said as served (a new user read it as on).
        paths = [*(hook.path for hook in self.hooks if hook.on), *(p.path for p in self.pages)]
        served = " and ".join(["/healthz", *paths])
        log.info("serving %s on port %d", served, self.port)
        return self

    def close(self, grace: float = 5.0) -> None:
        """Stop listening, drop idle connections, let requests being answered finish (up to
        `grace` seconds), then stop."""
        if not self._thread.is_alive():
            return
        future = asyncio.run_coroutine_threadsafe(self._drain(grace), self._loop)
        try:
            future.result(grace + 1)
        except Exception:  # the loop is stopped below whatever happened
            log.debug("the HTTP server did not close cleanly", exc_info=True)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._page_pool.shutdown(wait=True, cancel_futures=True)

    async def _drain(self, grace: float) -> None:
        if self._server is not None:
            self._server.close()
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            for connection in list(self._connections):
                if not connection.busy:
                    connection.writer.transport.abort()
            if not self._connections:
                return
            await asyncio.sleep(0.05)

    # -- connections ------------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._connections) >= self._cap and not self._make_room():
            writer.transport.abort()
            return
        connection = _Connection(writer)
        self._connections[connection] = None
        try:
            await self._serve(connection, reader)
        except (ConnectionError, TimeoutError, OSError):
            pass  # the client hung up or stalled: nothing to answer, nothing to log
        except Exception:  # a bug: this connection ends, the server goes on
            log.exception("the HTTP server failed on a request")
        finally:
            self._connections.pop(connection, None)  # gone already if it made room for another
            writer.transport.abort()

    def _make_room(self) -> bool:
        """Drop the oldest connection that is not being answered (idle, or still sending its
        head or body); False when all are."""
        for connection in self._connections:
            if not connection.busy:
                connection.writer.transport.abort()
                del self._connections[connection]
                self._refused.warning(
                    f"HTTP connections at their cap ({self._cap}): the oldest idle one dropped"
                )
                return True
        return False

    async def _serve(self, connection: _Connection, reader: asyncio.StreamReader) -> None:
        """Answer the requests of one connection, one after the other (keep-alive).

        Requests already buffered are parsed and answered without waiting on the socket, so
        after each answer this connection yields to the others, and one that keeps
        `max_pipelined` requests waiting in a row is closed (four pipelining
        connections made LINE time out at 10 s)."""
        limits = self.limits
        h = h11.Connection(h11.SERVER, max_incomplete_event_size=limits.max_head)
        wait = limits.head_seconds
        pipelined = 0
        while True:
            try:
                async with asyncio.timeout(wait):
                    event = await next_request(h, reader)
            except Refusal as refusal:
                await self._refuse(connection, h, refusal)
                return
            except TimeoutError:
                if h.their_state is h11.IDLE and not h.trailing_data[0]:
                    return  # an idle kept-alive connection: close it quietly
                await self._refuse(connection, h, Refusal(408, "the request head was too slow"))
                return
            except h11.RemoteProtocolError as exc:
                status = exc.error_status_hint if exc.error_status_hint >= 400 else 400
                await self._refuse(connection, h, Refusal(status, f"not HTTP/1.1 ({exc})"))
                return
            if not isinstance(event, h11.Request):
                return  # the client closed the connection
            try:
                answer = await self._routes.answer(
                    h, reader, connection.writer, event, connection.answering
                )
            except Refusal as refusal:
                await self._refuse(connection, h, refusal)
                return
            head_only = event.method == b"HEAD"
            # A body nobody read (a GET's empty one is already in) means the next request
            # cannot be found: say the connection closes, rather than just closing it.
            close = not _request_done(h)
            pipelined = pipelined + 1 if h.trailing_data[0] else 0
            if pipelined >= limits.max_pipelined:
                close = True
                self._refused.warning(
                    f"HTTP connection closed: {pipelined} requests pipelined ahead of answers"
                )
            await self._send(
                connection, h, answer.status, answer.body, head_only, answer.headers, close=close
            )
            connection.busy = False
            if h.our_state is h11.MUST_CLOSE or h.their_state is not h11.DONE:
                return
            h.start_next_cycle()
            wait = limits.idle_seconds
            await asyncio.sleep(0)  # the next request may be buffered: others go first

    async def _refuse(self, connection: _Connection, h: h11.Connection, refusal: Refusal) -> None:
        self._refused.warning(f"HTTP request refused ({refusal.status}): {refusal}")
        if h.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            body = json.dumps({"message": str(refusal)}).encode()
            described = [("content-type", "application/json")]
            described += [("allow", refusal.allow)] if refusal.allow else []
            await self._send(connection, h, refusal.status, body, False, described, close=True)

    async def _send(
        self,
        connection: _Connection,
        h: h11.Connection,
        status: int,
        body: bytes,
        head_only: bool,
        described: Sequence[tuple[str, str]] = (("content-type", "application/json"),),
        close: bool = False,
    ) -> None:
        headers = [*described, ("content-length", str(len(body)))]
        if close:
            headers.append(("connection", "close"))
        data = h.send(h11.Response(status_code=status, headers=headers)) or b""
        if body and not head_only:
            data += h.send(h11.Data(data=body)) or b""
        data += h.send(h11.EndOfMessage()) or b""
        connection.writer.write(data)
        async with asyncio.timeout(self.limits.write_seconds):
            await connection.writer.drain()


def _request_done(h: h11.Connection) -> bool:
    """Whether the request's end is in (reading only what has already arrived)."""
    while h.their_state is h11.SEND_BODY:
        event = h.next_event()
        if event is h11.NEED_DATA or not isinstance(event, h11.Data | h11.EndOfMessage):
            return False
    return h.their_state is h11.DONE


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
    """asyncio's own complaints (a reset socket, a task cut off at shutdown): one debug line,
    never a traceback on stderr outside the log's format and redaction."""
    log.debug("HTTP server: %s", context.get("message"))
