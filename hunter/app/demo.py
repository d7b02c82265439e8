"""`hunter demo`: the real pipeline, offline, in seconds.

A small job board on 127.0.0.1, a temporary SQLite store, and the real fetch, parse, filter,
record, claim, push and finish. Alerts go to this terminal, never to a real channel: the demo
reads no channel's variables (its made-up listings would spend LINE's month), and no
hunter.toml. It shows the three things hunter promises: a first look primes silently, new
matching listings are alerted once, and a re-poll alerts nothing.
"""

from __future__ import annotations

import html
import logging
import tempfile
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from hunter.app.service import Hunter, PollReport
from hunter.channels import open_channels
from hunter.settings.config import parse_config
from hunter.settings.environment import read_environment
from hunter.store.sqlite import SQLiteStore
from hunter.store.states import RowStatus

FIRST_LISTINGS = [
    ("101", "Logo for a coffee shop (โลโก้ร้านกาแฟ)", "3,000 บาท"),
    ("102", "WordPress theme fixes", "5,000 บาท"),
    ("103", "Python script to clean Excel files", "2,500 บาท"),
    ("104", "Translate a menu to English", "800 บาท"),
]
NEW_LISTINGS = [
    ("105", "LINE chatbot for a clinic (บอทไลน์)", "15,000 บาท"),
    ("106", "Shopee online shop photos (ร้านค้าออนไลน์)", "4,000 บาท"),
    ("107", "Data scraping in Python, 5 sites", "฿12,000 - ฿18,000"),
]
CONFIG = {
    "interval_minutes": 30,
    "timezone": "Asia/Bangkok",
    "filter": {
        "include": ["python", "ai", "chatbot", "บอท", "ไลน์"],
        "exclude": ["wordpress", "โลโก้"],
        "ignore_within": {"ไลน์": ["ออนไลน์"]},
    },
}


class _Board:
    """A job board page whose listings can change between polls."""

    def __init__(self) -> None:
        self.listings = list(FIRST_LISTINGS)
        board = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                items = "".join(
                    f'<li class="job" data-id="{i}"><h3><a href="/jobs/{i}?utm_source=demo">'
                    f'{html.escape(t)}</a></h3><span class="price">{html.escape(b)}</span></li>'
                    for i, t, b in board.listings
                )
                body = f"<html><body><ul>{items}</ul></body></html>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/jobs"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _ReaderGone(Exception):
    """The demo's reader left (`| head`): it ends there."""


def run_demo(say: Callable[[str], None], gone: Callable[[], bool] = lambda: False) -> int:
    """The demo, told by `say`; it ends when `gone` says its reader left (`| head`): its
    alerts go to the terminal too, and each would wait out its retries for nobody."""
    logging.getLogger("hunter").setLevel(logging.WARNING)  # the narration says it all
    board = _Board()
    source = {
        "name": "demo-board",
        "kind": "html",
        "url": board.url,
        "item": "li.job",
        "id": "@data-id",
        "title": "h3 a",
        "link": "h3 a@href",
        "budget": ".price",
    }
    config = parse_config({**CONFIG, "sources": [source]}, where="demo")
    env = read_environment({})  # no channel's variables, whatever this shell has set
    sender = open_channels(env, config)
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "demo.db")
        store.migrate()
        hunter = Hunter(config, store, sender)

        def poll() -> PollReport:
            if gone():  # nobody reads on: its alerts would wait out their retries for no one
                raise _ReaderGone
            return hunter.poll()

        try:
            say(f"A job board is running at {board.url}; alerts go to {sender.name}.")
            say(
                "Filters: include python, ai, chatbot, บอท, ไลน์; exclude wordpress, โลโก้; "
                '"ไลน์" inside "ออนไลน์" does not count.\n'
            )

            say(
                f"1) First poll: the board shows {len(board.listings)} listings. hunter has never "
                "seen this source, so it primes it: records them all, sends nothing."
            )
            report = poll()
            say(
                f"   -> {report.sources[0].count(RowStatus.PRIMED)} primed, "
                f"{report.delivery.sent} sent\n"
            )

            board.listings = NEW_LISTINGS + board.listings
            say("2) Three new listings appear. Two match; one only says ออนไลน์ (online).")
            report = poll()
            say(
                f"   -> {report.delivery.sent} alerts sent, "
                f"{report.sources[0].count(RowStatus.IGNORED)} ignored\n"
            )

            say("3) Poll again: nothing is new, so nothing is sent, on any restart either.")
            report = poll()
            say(f"   -> {report.delivery.sent} sent\n")

            states = store.outbox.job_states()
            say("The store now holds:")
            for job_id, state in states.items():
                say(f"   {job_id:<16} {state}")
            say("\nNext: copy hunter.example.toml to hunter.toml, then `hunter check`.")
        except _ReaderGone:
            return 0
        finally:
            store.close()
            board.close()
    return 0
