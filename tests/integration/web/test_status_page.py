"""The status page on hunter's own HTTP server, in this process, over a real SQLite store
(issue 36): who may read it (a Bearer token, or the cookie that /status?token= sets, then a
redirect that drops the token from the address), the same JSON as `hunter status --json`,
and nothing of the report, nor any secret, to anyone else."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hunter.errors import StoreError
from hunter.rules.destinations import Destinations
from hunter.rules.listing import Listing
from hunter.settings.config import parse_config
from hunter.status import report
from hunter.status import text as status_text
from hunter.status.view import StatusView
from hunter.store.records import ReadRow
from hunter.store.sqlite import SQLiteStore
from hunter.web.health import Liveness
from hunter.web.server import HttpServer
from hunter.web.status_page import pages
from tests.integration.web.test_http_server import read_answer
from tests.support.scripted import ScriptedSender

TOKEN = "status-token-for-the-test_0123456789"
NOW = datetime.now(UTC)
# The read an hour ago, but never yesterday: the days are UTC's, and a run at 00:30 would count
# it on the day before (CI on 2026-12-04 00:05 failed that way).
READ_AT = max(NOW - timedelta(hours=1), NOW.replace(hour=0, minute=0, second=0, microsecond=0))


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple[int, SQLiteStore]]:
    store = SQLiteStore(tmp_path / "hunter.db")
    store.migrate()
    store.outbox.record(
        "board", [Listing("board:0", "board", "seed", "https://x.test/0")], set(), NOW
    )
    store.reads.keep([ReadRow("board", READ_AT, 20, 3, 2, None, 0.4)])
    config = parse_config({"sources": [{"name": "board", "url": "https://x.test/", "kind": "rss"}]})
    channels = ScriptedSender()

    def gather() -> StatusView:
        # The report of one moment, NOW, as the test's own: a run across midnight UTC counted
        # the read on another day than the page's (CI at 23:59 on 2026-12-07 failed that way)
        return report.gather(config, store, Destinations(None, ()), channels, NOW)

    health = Liveness(stale_after=timedelta(minutes=60))
    served = pages(TOKEN, gather, "Asia/Bangkok", lambda: datetime.now(UTC))
    server = HttpServer(health, 0, (), host="127.0.0.1", pages=served).start()
    yield server.port, store
    server.close(grace=1.0)
    store.close()


def ask(port: int, target: str, *headers: str, method: str = "GET") -> tuple[int, dict, bytes]:
    extra = "".join(f"{h}\r\n" for h in headers)
    raw = f"{method} {target} HTTP/1.1\r\nHost: hunter.example.com\r\n{extra}\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(raw)
        return read_answer(conn)


def test_no_token_no_report(page: tuple[int, SQLiteStore]) -> None:
    port, _store = page
    for target, headers in [
        ("/status", ()),
        ("/status.json", ()),
        ("/status", (f"Authorization: Bearer {TOKEN[:-1]}x",)),
        ("/status.json", (f"Authorization: Basic {TOKEN}",)),
        ("/status", (f"Cookie: hunter_status={TOKEN}0",)),
        ("/status?token=wrong", ()),
    ]:
        status, found, body = ask(port, target, *headers)
        assert status == 401, (target, headers)
        assert b"board" not in body and TOKEN.encode() not in body
        assert found.get("www-authenticate") == "Bearer"
        # A browser is told in words (a phone showed raw JSON); a script, the header to send
        if target.startswith("/status.json"):
            assert found["content-type"] == "application/json"
            assert b"Authorization: Bearer <HUNTER_STATUS_TOKEN>" in body
        else:
            assert found["content-type"].startswith("text/html")
            assert "default-src 'none'" in found["content-security-policy"]
            assert b"needs its link with the status token" in body


def test_a_bearer_token_reads_the_page_and_its_json(page: tuple[int, SQLiteStore]) -> None:
    port, store = page
    status, found, body = ask(port, "/status", f"Authorization: Bearer {TOKEN}")
    assert status == 200 and found["content-type"].startswith("text/html")
    assert "default-src 'none'" in found["content-security-policy"]
    assert found["cache-control"] == "no-store"
    html = body.decode()
    assert 'id="source-board"' in html and "<svg" in html and TOKEN not in html
    assert "http://" not in html and "https://" not in html.replace("https://x.test", "")
    status, found, body = ask(port, "/status.json", f"Authorization: bearer {TOKEN}")
    assert status == 200 and found["content-type"] == "application/json"
    document = json.loads(body)
    config = parse_config({"sources": [{"name": "board", "url": "https://x.test/", "kind": "rss"}]})
    same = report.gather(config, store, Destinations(None, ()), ScriptedSender(), NOW)
    expected = json.loads(status_text.as_json(same))
    for side in (document, expected):  # the pace's next push is "now" when nothing is paced
        side["pace"].pop("next_push_at")
    assert document == expected
    assert document["sources"][0]["last_days"]["matching"][-1] == 2


def test_the_links_token_becomes_a_cookie_and_leaves_the_address(
    page: tuple[int, SQLiteStore],
) -> None:
    port, _store = page
    status, found, body = ask(port, f"/status?token={TOKEN}")
    assert (status, found["location"], body) == (303, "/status", b"")
    cookie = found["set-cookie"]
    assert cookie.startswith(f"hunter_status={TOKEN};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    assert TOKEN not in found["location"]
    status, _found, body = ask(port, "/status", f"Cookie: other=1; hunter_status={TOKEN}")
    assert status == 200 and b'id="source-board"' in body
    https = ask(port, f"/status?token={TOKEN}", "X-Forwarded-Proto: https")[1]["set-cookie"]
    assert "; Secure" in https  # behind Render's or Railway's HTTPS


def test_the_page_is_read_only_and_absent_without_a_token(page: tuple[int, SQLiteStore]) -> None:
    port, _store = page
    status, found, _body = ask(port, "/status", "Content-Length: 0", method="POST")
    assert status == 405 and found["allow"] == "GET, HEAD"
    health = Liveness(stale_after=timedelta(minutes=60))
    server = HttpServer(health, 0, (), host="127.0.0.1").start()  # no HUNTER_STATUS_TOKEN
    try:
        assert ask(server.port, "/status", f"Authorization: Bearer {TOKEN}")[0] == 404
        assert ask(server.port, "/status.json", f"Authorization: Bearer {TOKEN}")[0] == 404
    finally:
        server.close(grace=1.0)


def test_a_database_that_cannot_be_read_is_a_503_that_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database away while someone looks: a 503 with one line, never a closed
    connection and a traceback."""

    def gather() -> StatusView:
        raise StoreError("PostgreSQL cannot be reached (connection refused)")

    health = Liveness(stale_after=timedelta(minutes=60))
    served = pages(TOKEN, gather, "UTC", lambda: datetime.now(UTC))
    server = HttpServer(health, 0, (), host="127.0.0.1", pages=served).start()
    try:
        for target in ("/status", "/status.json"):
            status, _found, body = ask(server.port, target, f"Authorization: Bearer {TOKEN}")
            assert status == 503 and b"connection refused" in body
    finally:
        server.close(grace=1.0)
    assert not [r for r in caplog.records if r.exc_info]
