"""A job board on 127.0.0.1 whose pages tests rewrite between polls, and which can misbehave
the way real sites do: validators and 304s (honest or not), Retry-After, a body with no length,
an answer that never comes or trickles in a byte at a time. A POST to a page is answered like
a GET, its JSON body kept in `posted`; a page with `json_only` refuses any other POST with
400, as an Apollo GraphQL server with CSRF prevention does (JobThai's, shared/sources)."""

from __future__ import annotations

import html
import json
import ssl
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.support.local_server import LocalServer, QuietHandler


@dataclass
class Page:
    body: bytes
    kind: str = "text/html; charset=utf-8"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    etag: str | None = None  # answers If-None-Match with 304 when it matches
    lie_304: str | None = None  # answers every conditional request 304 with this ETag
    chunked: bool = False  # no Content-Length: the body streams until the connection closes
    hang: float = 0.0  # seconds to wait before answering
    trickle: float = 0.0  # seconds between the bytes of the body: no read ever times out
    json_only: bool = False  # a POST that is not application/json is refused (400)


class Board:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.pages: dict[str, Page] = {}
        self.hits: dict[str, int] = {}
        self.in_flight = 0
        self.most_at_once = 0  # the most requests it was answering at one moment
        counting = threading.Lock()
        self.requests: list[tuple[str, dict[str, str]]] = []
        # Each request's (monotonic time, path, client port): who asked when, a connection's
        # port telling one client from another.
        self.arrivals: list[tuple[float, str, int]] = []
        self.posted: list[tuple[str, str, Any]] = []  # (path, content type, JSON body)
        board = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                kind = self.headers.get("Content-Type", "")
                page = board.pages.get(self.path.split("?", 1)[0])
                if page is not None and page.json_only and not kind.startswith("application/json"):
                    board.posted.append((self.path, kind, None))
                    message = "This operation has been blocked as a potential CSRF"
                    self.send_json(400, {"errors": [{"message": message}]})
                    return
                try:
                    board.posted.append((self.path, kind, json.loads(raw or b"null")))
                except ValueError:
                    self.send_json(400, {"errors": [{"message": "POST body is not JSON"}]})
                    return
                self.do_GET()

            def do_GET(self) -> None:
                with counting:
                    board.in_flight += 1
                    board.most_at_once = max(board.most_at_once, board.in_flight)
                try:
                    self._answer()
                finally:
                    with counting:
                        board.in_flight -= 1

            def _answer(self) -> None:
                path = self.path
                board.hits[path] = board.hits.get(path, 0) + 1
                board.requests.append((path, dict(self.headers)))
                board.arrivals.append((time.monotonic(), path, self.client_address[1]))
                page = board.pages.get(path) or board.pages.get(path.split("?", 1)[0])
                if page is None:
                    page = Page(b"not found", "text/plain", 404)
                if page.hang:
                    time.sleep(page.hang)
                conditional = self.headers.get("If-None-Match")
                if conditional and (page.lie_304 or conditional == page.etag):
                    self.send_response(304)
                    self.send_header("ETag", page.lie_304 or page.etag or "")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(page.status)
                self.send_header("Content-Type", page.kind)
                if page.etag:
                    self.send_header("ETag", page.etag)
                for name, value in page.headers.items():
                    self.send_header(name, value)
                if page.trickle:
                    self.send_header("Content-Length", str(len(page.body)))
                    self.end_headers()
                    try:
                        for byte in page.body:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(page.trickle)
                    except OSError:
                        pass  # the client gave up on it: that is the point
                    return
                if page.chunked:
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    try:
                        for start in range(0, len(page.body), 1 << 20):
                            self.wfile.write(page.body[start : start + (1 << 20)])
                    except OSError:
                        pass  # the client gave up on it: that is the point
                    return
                self.send_header("Content-Length", str(len(page.body)))
                self.end_headers()
                self.wfile.write(page.body)

        self._server = LocalServer(Handler, tls)
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()

    def serve(
        self,
        path: str,
        body: str | bytes,
        kind: str = "text/html; charset=utf-8",
        status: int = 200,
        **options: Any,
    ) -> str:
        data = body.encode() if isinstance(body, str) else body
        self.pages[path] = Page(data, kind, status, **options)
        return self.url + path

    def serve_jobs(
        self, path: str, jobs: Iterable[tuple[str, str]], budget: str = "", **options: Any
    ) -> str:
        """An HTML page of (id, title) listings, in the shape `html_source` reads."""
        return self.serve(path, jobs_html(jobs, budget), **options)

    def serve_json(self, path: str, document: Any, **options: Any) -> str:
        return self.serve(path, json.dumps(document), "application/json", **options)


def jobs_html(jobs: Iterable[tuple[str, str]], budget: str = "") -> str:
    items = "".join(
        f'<li class="job" data-jid="{html.escape(i)}"><h3><a href="/job/{html.escape(i)}'
        f'?utm_source=x">{html.escape(t)}</a></h3><span class="price">{budget}</span>'
        f'<p class="desc">Details of {html.escape(t)}</p></li>'
        for i, t in jobs
    )
    return f"<html><body><ul>{items}</ul></body></html>"


def html_source(name: str, url: str) -> dict[str, Any]:
    """The [[sources]] table that reads `Board.serve_jobs` pages."""
    return {
        "name": name,
        "kind": "html",
        "url": url,
        "item": "li.job",
        "id": "@data-jid",
        "title": "h3 a",
        "link": "h3 a@href",
        "budget": ".price",
        "summary": ".desc",
    }
