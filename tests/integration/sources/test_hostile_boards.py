"""Boards that send what no well-behaved server sends (issue 62's sixth attack), read as a poll
reads them: each source records its own page, and a read past its deadline ends there and
closes its connection, whatever the board is still sending."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from hunter.settings.config import parse_config
from hunter.sources.fetch import Cut, Deadline, client, fetch
from hunter.sources.reader import GRACE_SECONDS, read_sources
from tests.support.raw_site import RawSite, Script

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)
EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload; as=style\r\n\r\n"


def json_source(name: str, url: str) -> dict[str, object]:
    return {
        "name": name,
        "kind": "json",
        "url": url,
        "items": "jobs",
        "id": "id",
        "title": "title",
        "link": "https://board.example/{id}",
    }


def json_page(name: str, ids: range) -> bytes:
    body = json.dumps({"jobs": [{"id": f"{name}{i}", "title": f"{name} job {i}"} for i in ids]})
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(body)
        + body.encode()
    )


def read(sources: list[dict[str, object]], timeout: float) -> list[tuple[str, object]]:
    reads = read_sources(parse_config({"sources": sources}).sources, {}, timeout, NOW)
    return [(r.name, r.error or sorted(x.title for x in r.listings)) for r in reads]


def test_three_sources_on_a_board_that_sends_early_hints_each_record_their_own_page(
    site: Callable[[Script], RawSite],
) -> None:
    # Node's writeEarlyHints and Go's WriteHeader(103) send a 103 before the answer: it is no
    # answer. Over the hand-written transport, B and C recorded A's jobs and A failed.
    polls = [0]

    def hints_then_page(sock: socket.socket, n: int) -> bool:
        name = raw.path_of(n).strip("/")
        sock.sendall(EARLY_HINTS)
        sock.sendall(json_page(name, range(polls[0], polls[0] + 2)))
        return True

    raw = site(hints_then_page)
    sources = [json_source(name, f"{raw.origin}/{name}") for name in "abc"]
    for poll in range(3):  # three cron runs, each its own client
        polls[0] = poll
        assert read(sources, 10) == [
            (name, [f"{name} job {poll}", f"{name} job {poll + 1}"]) for name in "abc"
        ]
    assert len(raw.requests) == 9


def endless_continues(sock: socket.socket, n: int) -> bool:
    """`100 Continue` heads for ever, a few thousand a second: never a pause long enough for
    a socket's timeout, and not a core of the suite's."""
    while True:
        sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n" * 16)
        time.sleep(0.005)


def endless_trailer(sock: socket.socket, n: int) -> bool:
    """A chunked page whose trailer never ends."""
    sock.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n")
    while True:
        sock.sendall(b"X-Trailer: " + b"a" * 100 + b"\r\n")


def trickled_head(sock: socket.socket, n: int) -> bool:
    """A head a byte every 20 ms, never done."""
    for byte in b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 100_000:
        sock.sendall(bytes([byte]))
        time.sleep(0.02)
    return False


def reading_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("read ")]


@pytest.mark.parametrize(
    ("script", "said"),
    [
        (endless_continues, "no complete answer within 1 s"),
        # h11 refuses a head or trailer past 100 KiB at once
        (endless_trailer, "RemoteProtocolError: "),
        (trickled_head, "no complete answer within 1 s"),
    ],
    ids=["endless 100 Continue", "endless trailer", "trickled head"],
)
def test_a_read_that_never_ends_ends_with_its_poll_and_closes_its_connection(
    site: Callable[[Script], RawSite], script: Script, said: str
) -> None:
    raw = site(script)
    started = time.monotonic()
    [(_, error)] = read([json_source("hostile", raw.url)], 1)
    assert isinstance(error, str) and error.startswith(said), error
    assert time.monotonic() - started < 3  # its 1 s, the grace, a loaded machine's delay
    # Within the poll's grace the reading thread is gone and the board sees its connection
    # closed (its next write fails): nothing of the poll keeps a thread, a socket or a core.
    gone_by = time.monotonic() + GRACE_SECONDS + 3
    while (reading_threads() or raw.open) and time.monotonic() < gone_by:
        time.sleep(0.02)
    assert (reading_threads(), raw.open, raw.connections) == ([], 0, 1)


@pytest.mark.parametrize(
    "script", [endless_continues, trickled_head], ids=["endless 100 Continue", "trickled head"]
)
def test_a_request_ends_at_its_deadline_on_a_client_still_open(
    site: Callable[[Script], RawSite], script: Script
) -> None:
    # A source's deadline holds under every socket read, not only at the poll's end when its
    # client closes (connections.py's bounded backend): a socket's own timeout is per read,
    # and these boards answer every read at once.
    raw = site(script)
    ended: list[object] = []

    def one_read() -> None:
        try:
            with client(30) as http:
                got = fetch(http, raw.url, {}, None, Deadline(started + 1, threading.Event()))
            ended.append(got.error)
        except Cut:
            ended.append("cut")

    started = time.monotonic()
    reading = threading.Thread(target=one_read, daemon=True)
    reading.start()
    reading.join(5)
    assert not reading.is_alive(), "the read went on past its deadline"
    # cut between two reads of the socket, or a read whose time left ran out
    assert ended in (["cut"], ["timed out"])
    assert 1 <= time.monotonic() - started < 3  # its 1 s, and a loaded machine's delay
    gone_by = time.monotonic() + 3
    while raw.open and time.monotonic() < gone_by:
        time.sleep(0.02)
    assert raw.open == 0
