"""A job board on 127.0.0.1 whose pages tests rewrite between polls."""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Board:
    def __init__(self) -> None:
        self.pages: dict[str, tuple[int, str, bytes]] = {}
        self.hits: dict[str, int] = {}
        board = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                board.hits[path] = board.hits.get(path, 0) + 1
                status, kind, body = board.pages.get(path, (404, "text/plain", b"not found"))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def serve(
        self,
        path: str,
        body: str | bytes,
        kind: str = "text/html; charset=utf-8",
        status: int = 200,
    ) -> str:
        self.pages[path] = (status, kind, body.encode() if isinstance(body, str) else body)
        return self.url + path

    def serve_jobs(self, path: str, jobs: Iterable[tuple[str, str]], budget: str = "") -> str:
        """An HTML page of (id, title) listings, in the shape `html_source` reads."""
        items = "".join(
            f'<li class="job" data-jid="{html.escape(i)}"><h3><a href="/job/{html.escape(i)}'
            f'?utm_source=x">{html.escape(t)}</a></h3><span class="price">{budget}</span>'
            f'<p class="desc">Details of {html.escape(t)}</p></li>'
            for i, t in jobs
        )
        return self.serve(path, f"<html><body><ul>{items}</ul></body></html>")

    def serve_json(self, path: str, document: Any) -> str:
        return self.serve(path, json.dumps(document), "application/json")


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
