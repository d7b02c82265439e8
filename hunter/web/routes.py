"""What each request to hunter's HTTP side gets: /healthz, a chat's webhook, or a refusal.

The server (server.py) holds the connections and calls `Routes.answer` once a request's head
is in; a `Refusal` is answered with its status and the connection closed. A webhook (`Hook`:
LINE's at /line/webhook, Telegram's at /telegram/webhook) first judges the head alone (LINE's
signature header is there, Telegram's secret token is right): its body is read only then,
within its size, time, progress and budget limits, and the webhook itself (the signature
check, then the store) runs on a small thread pool, never on the loop that holds the
connections. `ready` is called once the whole request is in: from then on the connection is
being answered.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime

import h11

from hunter.web.health import Liveness
from hunter.web.limits import BodyBudget, Limits

HEALTH_PATHS = ("/healthz", "/")
READ_CHUNK = 64 * 1024
# What a webhook's answer says: a 500 is "not kept" (the database is down: LINE redelivers it,
# with Webhook redelivery on), never "bad request", which says the sender's request was wrong
_SAID = {200: b"{}", 400: b'{"message": "bad request"}'}
Headers = Mapping[bytes, bytes]  # a request's headers, names lower-case


@dataclass(frozen=True)
class Hook:
    """A webhook: where it is, what its head must show before its body is read, and what
    takes the body."""

    path: str
    admit: Callable[[Headers], tuple[int, str] | None]  # (status, why) refuses; on the loop
    receive: Callable[[bytes, Headers], int]  # the body -> HTTP status; on the thread pool
    on: bool = True  # False: its chat is off, and it answers 404 with what to set


@dataclass(frozen=True)
class Answer:
    """What a request gets: a status, a body and the headers that describe it."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("content-type", "application/json"),)


@dataclass(frozen=True)
class Page:
    """A page served by GET and HEAD: its path, and its answer to the request's target and
    headers (on the thread pool: it may read the store)."""

    path: str
    answer: Callable[[str, Headers], Answer]


class Refusal(Exception):
    """A request answered with an error status and then the connection closed."""

    def __init__(self, status: int, reason: str, allow: str | None = None) -> None:
        super().__init__(reason)
        self.status, self.allow = status, allow


class Routes:
    def __init__(
        self,
        health: Liveness,
        hooks: Sequence[Hook],
        limits: Limits,
        pool: Executor,
        pages: Sequence[Page] = (),
        page_pool: Executor | None = None,
    ) -> None:
        """`pool` runs the webhooks; `page_pool` the pages, so that a page never takes a
        webhook's turn (a chat's service waits 2 s at most for its answer)."""
        self.health, self.limits, self._pool = health, limits, pool
        self._page_pool = page_pool or pool
        self.hooks = {hook.path: hook for hook in hooks}
        self.pages = {page.path: page for page in pages}
        self._budget = BodyBudget(limits.body_budget)

    async def answer(
        self,
        h: h11.Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        request: h11.Request,
        ready: Callable[[], None],
    ) -> Answer:
        limits = self.limits
        if len(request.target) > limits.max_target:
            raise Refusal(414, f"a request target of {len(request.target)} bytes")
        if len(request.headers) > limits.max_headers:
            raise Refusal(431, f"{len(request.headers)} header lines")
        # h11 bounds a head that arrives in pieces; one that arrives whole is measured here.
        head = len(request.target) + sum(len(n) + len(v) + 4 for n, v in request.headers)
        if head > limits.max_head:
            raise Refusal(431, f"a request head of {head} bytes")
        names = {name for name, _ in request.headers}
        if b"transfer-encoding" in names and b"content-length" in names:
            # RFC 9112 6.1: a server MAY reject it, and ought to close: a proxy in front that
            # reads the length would see another request in what hunter reads as the body.
            raise Refusal(400, "both Transfer-Encoding and Content-Length")
        path = request.target.split(b"?", 1)[0].decode("ascii", "replace")
        if path in HEALTH_PATHS:
            if request.method not in (b"GET", b"HEAD"):
                raise Refusal(405, f"{_method(request)} {path}", allow="GET, HEAD")
            ready()
            status, report = self.health.report(datetime.now(UTC))
            return Answer(status, json.dumps(report).encode())
        page = self.pages.get(path)
        if page is not None:
            if request.method not in (b"GET", b"HEAD"):
                raise Refusal(405, f"{_method(request)} {path}", allow="GET, HEAD")
            ready()
            target = request.target.decode("ascii", "replace")
            headers = {name: value for name, value in request.headers}
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._page_pool, page.answer, target, headers)
        hook = self.hooks.get(path)
        if hook is None:
            raise Refusal(404, "no such path")
        if request.method != b"POST":
            raise Refusal(405, f"{_method(request)} {path}", allow="POST")
        headers = {name: value for name, value in request.headers}
        refused = hook.admit(headers)
        if refused is not None:  # not the chat's service: the body is not worth reading
            raise Refusal(*refused)
        if h.they_are_waiting_for_100_continue:  # RFC 9110 10.1.1: or it waits, then sends
            writer.write(h.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")
        body = await self._body(h, reader, headers.get(b"content-length"))
        ready()
        loop = asyncio.get_running_loop()
        status = await loop.run_in_executor(self._pool, hook.receive, body, headers)
        return Answer(status, _SAID.get(status, b'{"message": "not kept: send it again"}'))

    async def _body(
        self, h: h11.Connection, reader: asyncio.StreamReader, length: bytes | None
    ) -> bytes:
        """The request body (chunked or not), within the size, time and budget limits."""
        limits = self.limits
        declared = int(length) if length is not None else None  # h11 checked it is a number
        if declared is not None and declared > limits.max_body:
            raise Refusal(413, f"a body of {declared} bytes (at most {limits.max_body})")
        reserved = limits.max_body if declared is None else declared
        if reserved <= limits.small_body:
            reserved = 0
        elif not self._budget.take(reserved):
            raise Refusal(503, "too many large bodies at once")
        try:
            parts: list[bytes] = []
            size = 0
            async with asyncio.timeout(limits.body_seconds):
                while True:
                    # A body must keep moving: one held back costs a slot, and 600 of them
                    # reopened as fast as they close kept every slot.
                    async with asyncio.timeout(limits.body_stall_seconds):
                        event = await next_event(h, reader)
                    if isinstance(event, h11.Data):
                        size += len(event.data)
                        if size > limits.max_body:
                            raise Refusal(413, f"a body over {limits.max_body} bytes")
                        parts.append(bytes(event.data))
                        if len(parts) > limits.pieces_allowed(size):
                            raise Refusal(
                                400, f"a body in pieces of under {limits.min_piece} bytes"
                            )
                        # Pieces already buffered are parsed without a wait: let the other
                        # connections have their turn between two of them.
                        await asyncio.sleep(0)
                    elif isinstance(event, h11.EndOfMessage):
                        return b"".join(parts)
                    else:  # the client closed before the end of its body
                        raise ConnectionResetError("the body was cut short")
        except TimeoutError:
            raise Refusal(408, "the request body was too slow") from None
        except h11.RemoteProtocolError as exc:
            raise Refusal(400, f"a malformed body ({exc})") from None
        finally:
            self._budget.give(reserved)


async def next_event(h: h11.Connection, reader: asyncio.StreamReader) -> h11.Event | type:
    """h11's next event, reading from the socket as it needs."""
    while True:
        event = h.next_event()
        if event is not h11.NEED_DATA:
            return event
        h.receive_data(await reader.read(READ_CHUNK))


async def next_request(h: h11.Connection, reader: asyncio.StreamReader) -> h11.Event | type:
    """The next request's head (as `next_event`), refused when its bytes hold what RFC 9112
    lets a server refuse and h11 would accept: a line ending in a bare LF (5.2, 2.2), or a
    header folded onto the next line (obs-fold, 5.2). A proxy in front may read either
    differently, and then see another request than hunter does."""
    raw = bytearray(h.trailing_data[0][:MAX_HEAD_SEEN])
    while True:
        event = h.next_event()
        if event is not h11.NEED_DATA:
            if isinstance(event, h11.Request):
                _check_framing(bytes(raw))
            return event
        data = await reader.read(READ_CHUNK)
        if len(raw) < MAX_HEAD_SEEN:
            raw += data[: MAX_HEAD_SEEN - len(raw)]
        h.receive_data(data)


MAX_HEAD_SEEN = 64 * 1024  # past Limits.max_head: a head is refused at 16 KB anyway


def _check_framing(raw: bytes) -> None:
    """Refusal(400) for a bare LF or an obs-fold in the head that `raw` starts with."""
    end = raw.find(b"\r\n\r\n")
    head = raw[: end + 2] if end >= 0 else raw
    bare = head.replace(b"\r\n", b"")
    if b"\n" in bare:
        raise Refusal(400, "a line ending in a bare LF (RFC 9112 2.2)")
    if any(line[:1] in (b" ", b"\t") for line in head.split(b"\r\n")[1:]):
        raise Refusal(400, "a header folded onto the next line (obs-fold, RFC 9112 5.2)")


def _method(request: h11.Request) -> str:
    return request.method.decode("ascii", "replace")[:16]
