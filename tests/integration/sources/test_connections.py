"""The sources' connections (hunter/sources/connections.py: httpx's own transport, each read
bounded by its deadline) against a site on 127.0.0.1 that writes its answers byte for byte:
what a source's read shows when a site keeps, closes, chunks or breaks off its answers, and
which connections are reused."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable

import pytest

from hunter.errors import ConfigError
from hunter.settings.environment import read_environment
from hunter.sources.fetch import Deadline, Fetched, Validators, client, fetch
from tests.support.board import Board
from tests.support.local_server import free_port
from tests.support.raw_site import RawSite, Script

PAGE = b"<ul><li>a python job</li></ul>"


def replies(data: bytes, keep: bool = True) -> Script:
    """Each request answered with `data`; the connection kept or closed after it."""

    def script(sock: socket.socket, n: int) -> bool:
        sock.sendall(data)
        return keep

    return script


def answer(body: bytes = PAGE, *, status: bytes = b"200 OK", extra: bytes = b"") -> bytes:
    head = b"HTTP/1.1 " + status + b"\r\nContent-Length: %d\r\n" % len(body) + extra
    return head + b"Content-Type: text/html\r\n\r\n" + body


def read_twice(url: str, validators: Validators | None = None) -> tuple[Fetched, Fetched]:
    """Two reads of `url` on one client, as a source's pages are read."""
    deadline = Deadline(time.monotonic() + 10, threading.Event())
    with client(10) as http:
        first = fetch(http, url, {}, validators, deadline)
        second = fetch(http, url, {}, validators, deadline)
    return first, second


def test_a_sites_next_request_goes_over_the_same_connection(
    site: Callable[[Script], RawSite],
) -> None:
    raw = site(replies(answer()))
    first, second = read_twice(raw.url)
    assert (first.status, first.body, second.status, second.body) == (200, PAGE, 200, PAGE)
    assert (raw.connections, len(raw.requests)) == (1, 2)
    assert raw.requests[0].startswith(b"GET /jobs HTTP/1.1\r\n")
    # httpx's headers, once each: no Accept-Encoding: identity of http.client's own
    assert raw.requests[0].lower().count(b"accept-encoding: gzip, deflate") == 1
    assert raw.requests[0].lower().count(b"host: 127.0.0.1:") == 1


def test_a_connection_the_site_closed_while_idle_is_made_anew(
    site: Callable[[Script], RawSite],
) -> None:
    # Keep-alive said, then closed when the site's keep-alive time ran out: the next request
    # sees it closed (httpcore looks before it reuses one) and goes on a new connection
    # instead of failing the source.
    def then_idle_out(sock: socket.socket, n: int) -> bool:
        sock.sendall(answer())
        time.sleep(0.1)
        return False

    raw = site(then_idle_out)
    deadline = Deadline(time.monotonic() + 10, threading.Event())
    with client(10) as http:
        first = fetch(http, raw.url, {}, None, deadline)
        time.sleep(1.0)  # the site's 0.1 s, however late a loaded machine runs its thread
        second = fetch(http, raw.url, {}, None, deadline)
    assert (first.error, second.error) == (None, None)
    assert second.body == PAGE
    assert (raw.connections, len(raw.requests)) == (2, 2)


def test_a_304_leaves_its_connection_for_the_next_request(
    site: Callable[[Script], RawSite],
) -> None:
    not_modified = b'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n'
    raw = site(replies(not_modified))
    first, second = read_twice(raw.url, Validators(raw.url, etag='"v1"'))
    assert first.not_modified and second.not_modified
    assert b'if-none-match: "v1"' in raw.requests[1].lower()
    assert raw.connections == 1


def test_a_chunked_answer_is_read_whole_and_one_cut_is_an_error(
    site: Callable[[Script], RawSite],
) -> None:
    def chunked(sock: socket.socket, n: int) -> bool:
        sock.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        if n == 2:  # a chunk of 32 bytes said, 5 sent, and gone
            sock.sendall(b"20\r\n" + PAGE[:5])
            return False
        for part in (PAGE[:10], PAGE[10:]):
            sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
            time.sleep(0.01)
        sock.sendall(b"0\r\n\r\n")
        return True

    raw = site(chunked)
    first, second = read_twice(raw.url)
    assert (first.error, first.body) == (None, PAGE)
    said = (
        "RemoteProtocolError: peer closed connection without sending complete message body "
        "(incomplete chunked read)"
    )
    assert (second.error, second.body) == (said, b"")
    assert raw.connections == 1  # the whole one's connection was kept for the next


def test_an_answer_without_a_length_ends_with_its_connection(
    site: Callable[[Script], RawSite],
) -> None:
    def until_closed(sock: socket.socket, n: int) -> bool:
        sock.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + PAGE)
        return False

    raw = site(until_closed)
    first, second = read_twice(raw.url)
    assert (first.body, second.body) == (PAGE, PAGE)
    assert raw.connections == 2  # never reused: its end was the connection's


def test_an_answer_that_breaks_off_fails_its_read_and_its_connection_goes(
    site: Callable[[Script], RawSite],
) -> None:
    def broken_then_whole(sock: socket.socket, n: int) -> bool:
        if n == 1:
            sock.sendall(answer(PAGE * 10)[: -len(PAGE) * 9])  # a tenth of its body, then gone
            return False
        sock.sendall(answer())
        return True

    raw = site(broken_then_whole)
    first, second = read_twice(raw.url)
    said = (
        "RemoteProtocolError: peer closed connection without sending complete message body "
        f"(received {len(PAGE)} bytes, expected {len(PAGE) * 10})"
    )
    assert first.error == said
    assert first.body == b""  # nothing of a broken page is parsed
    assert (second.error, second.body, raw.connections) == (None, PAGE, 2)


def test_what_is_no_http_answer_is_an_error_naming_it(site: Callable[[Script], RawSite]) -> None:
    raw = site(replies(b"SSH-2.0-OpenSSH_9.6\r\n\r\n", keep=False))
    first, _ = read_twice(raw.url)
    assert first.error is not None
    assert first.error.startswith("RemoteProtocolError: ")
    assert "SSH-2.0-OpenSSH_9.6" in first.error


def test_header_bytes_past_ascii_read_and_the_next_read_is_whole(
    site: Callable[[Script], RawSite],
) -> None:
    # Servers do send raw UTF-8 in a header (a title, an ETag): a page is still a page, and
    # the next read, which cannot send such an ETag back as ASCII, reads it whole.
    extra = "X-Page-Title: งาน\r\n".encode() + b'ETag: "caf\xc3\xa9"\r\n'
    raw = site(replies(answer(extra=extra)))
    first, _ = read_twice(raw.url)
    assert (first.error, first.body, first.etag) == (None, PAGE, '"café"')
    again, _ = read_twice(raw.url, Validators(raw.url, etag=first.etag))
    assert (again.error, again.status, again.body) == (None, 200, PAGE)
    assert b"if-none-match" not in raw.requests[-1].lower()


def test_a_proxy_named_in_the_environment_is_used(
    site: Callable[[Script], RawSite], monkeypatch: pytest.MonkeyPatch
) -> None:
    # httpx mounts its own transport for a proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY
    # as httpx reads them) ahead of the sites' connections: a company network still works.
    proxy = site(replies(answer()))
    monkeypatch.setenv("HTTP_PROXY", proxy.url.removesuffix("/jobs"))
    first, _ = read_twice("http://board.example/jobs")
    assert (first.error, first.body) == (None, PAGE)
    assert proxy.requests[0].startswith(b"GET http://board.example/jobs HTTP/1.1\r\n")
    # A host NO_PROXY names is reached directly
    direct = site(replies(answer(b"direct")))
    monkeypatch.setenv("NO_PROXY", "localhost, 127.0.0.1")
    first, _ = read_twice(direct.url)
    assert (first.error, first.body, len(proxy.requests)) == (None, b"direct", 2)


def test_an_https_address_of_a_plain_http_site_says_so(board: Board) -> None:
    # A new user's find: "could not connect: 127.0.0.1:8765: ConnectError" explained nothing.
    plain = board.serve_jobs("/jobs", [("1", "python")])
    first, _ = read_twice(plain.replace("http://", "https://"))
    assert first.error is not None and first.error.startswith("could not connect: 127.0.0.1:")
    assert first.error.endswith("answered https:// in plain http (is its address http://?)")


def test_this_machine_is_never_reached_through_the_proxy(
    site: Callable[[Script], RawSite], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new user's find: with a company's HTTP_PROXY set, `hunter demo` read its own board on
    # 127.0.0.1 through the proxy, which cannot reach it, and every poll failed.
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{free_port()}")  # refuses
    local = site(replies(answer(b"here")))
    first, _ = read_twice(local.url)
    assert (first.error, first.body) == (None, b"here")
    first, _ = read_twice(local.url.replace("127.0.0.1", "localhost"))
    assert (first.error, first.body) == (None, b"here")


def test_a_proxy_hunter_cannot_use_is_said_in_a_line_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A developer's machine often names a SOCKS proxy for everything; httpx needs a package
    # for it that hunter does not install. A config error (exit 2), not a traceback.
    monkeypatch.setenv("ALL_PROXY", "socks5://me:s3cret@127.0.0.1:1080")
    with pytest.raises(ConfigError) as said:
        client(10)
    assert str(said.value) == (
        "ALL_PROXY (or its lowercase) names a socks5:// proxy, which hunter cannot use: name "
        "an http:// or https:// proxy, or unset it for hunter"
    )
    # Said when the environment is read, before any source's or channel's client is made
    # (Telegram's httpx client met the same proxy with a traceback).
    with pytest.raises(ConfigError) as said:
        read_environment(dict(os.environ))
    assert "ALL_PROXY (or its lowercase) names a socks5:// proxy" in str(said.value)
    assert "s3cret" not in str(said.value)


def test_a_proxy_that_cannot_be_reached_is_named_not_the_site(
    site: Callable[[Script], RawSite], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new user's find: a proxy that refused, or whose name does not resolve, read as the
    # board's own failure ("board.example refused the connection"): the site was never
    # dialled. The proxy is named by its variable and host, never its URL (a password).
    monkeypatch.setenv("HTTP_PROXY", f"http://me:s3cret@127.0.0.1:{free_port()}")
    first, _ = read_twice("http://board.example/jobs")
    assert first.error is not None and "s3cret" not in first.error
    assert first.error.startswith("could not connect: the proxy in HTTP_PROXY: 127.0.0.1:")
    assert first.error.endswith("refused the connection (nothing listens there: check the port)")
    monkeypatch.setenv("HTTP_PROXY", "proxy.invalid:3128")  # no scheme: http://, as curl's
    first, _ = read_twice("http://board.example/jobs")
    assert first.error == (
        "could not connect: the proxy in HTTP_PROXY: the name proxy.invalid does not resolve "
        "(a typo in the address, or no DNS here)"
    )
    # A host NO_PROXY names is dialled itself: its failure is its own.
    monkeypatch.setenv("NO_PROXY", "board.invalid")
    first, _ = read_twice("http://board.invalid/jobs")
    assert first.error is not None and first.error.startswith(
        "could not connect: the name board.invalid does not resolve"
    )
    # A proxy that answers and refuses the tunnel says so, with its words.
    refusing = site(
        replies(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n")
    )
    monkeypatch.setenv("HTTPS_PROXY", refusing.url.removesuffix("/jobs"))
    monkeypatch.delenv("NO_PROXY")
    first, _ = read_twice("https://board.example/jobs")
    assert first.error is not None and "the proxy in HTTPS_PROXY (127.0.0.1:" in first.error
    assert first.error.endswith("refused to connect: 407 Proxy Authentication Required")


def test_a_site_that_closes_without_answering_fails_the_read_once(
    site: Callable[[Script], RawSite],
) -> None:
    # On a new connection there is nothing stale to try again: the read fails, and says why
    raw = site(replies(b"", keep=False))
    first, _ = read_twice(raw.url)
    assert first.error == "RemoteProtocolError: Server disconnected without sending a response."
    assert (raw.connections, len(raw.requests)) == (2, 2)  # one try each read, no retry loop


def test_a_head_of_many_fields_and_a_large_cookie_is_read(
    site: Callable[[Script], RawSite],
) -> None:
    # Issue 62, low 6: http.client's limits (100 fields, a 64 KiB line) failed such a page;
    # h11 takes a head of up to 100 KiB whatever its fields.
    fields = b"".join(b"X-Field-%d: %d\r\n" % (n, n) for n in range(150))
    cookie = b"Set-Cookie: session=" + b"a" * 70_000 + b"; Path=/\r\n"
    raw = site(replies(answer(extra=fields + cookie)))
    first, _ = read_twice(raw.url)
    assert (first.error, first.body) == (None, PAGE)
