"""The public HTTP side, one limit at a time: hunter's real server on 127.0.0.1 in this
process, with short time limits (the defaults' shape, seconds instead of tens), a real SQLite
store and the chat behind the webhook. Each request is written by hand on a raw socket, so
that the test can send what no well-behaved client would; the table says what each gets."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hunter.channels.line.webhook import webhook as line_webhook
from hunter.channels.telegram.updates import webhook as telegram_webhook
from hunter.chat import Chat, Inbox
from hunter.chat.hooks import hook
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from hunter.web.health import Liveness
from hunter.web.limits import Limits, Throttled
from hunter.web.routes import Headers, Hook
from hunter.web.server import HttpServer
from tests.support.line_standin import TO
from tests.support.scripted import ScriptedSender
from tests.support.webhook import BOT, SECRET, signature

LIMITS = Limits(
    head_seconds=1.0,
    body_seconds=1.0,
    body_stall_seconds=0.5,
    idle_seconds=1.0,
    body_budget=2_500_000,
)
VERIFY = json.dumps({"destination": BOT, "events": []}).encode()  # LINE's "Verify" request
# An update of a kind hunter does not ask for: kept as handled, never answered.
UPDATE = json.dumps({"update_id": 1, "edited_channel_post": {"message_id": 1}}).encode()
TELEGRAM_SECRET = "test-telegram-webhook-secret_0123"
DEEP = b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


class Replier(ScriptedSender):
    def reply(self, reply_token: str, messages: list[dict[str, object]]) -> object:
        raise AssertionError("nothing here is answered by a reply")


@dataclass
class Served:
    server: HttpServer
    health: Liveness

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.server.port), timeout=5)

    def exchange(self, raw: bytes, wait: float = 0.0) -> tuple[int, dict[str, str], bytes]:
        """Send `raw` (then wait), read the whole answer: status, headers, body."""
        with self.connect() as conn:
            conn.sendall(raw)
            time.sleep(wait)
            return read_answer(conn)


def read_answer(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return 0, {}, data  # closed without an answer
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length and "HEAD" not in lines[0]:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    store = SQLiteStore(tmp_path / "hunter.db")
    store.migrate()
    config = parse_config({"sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}]})
    now = lambda: datetime.now(UTC)  # noqa: E731
    inbox = Inbox(Chat(config, store, Replier(), TO, now, "w"), "w", now)
    health = Liveness(stale_after=timedelta(minutes=60))
    health.polled(datetime.now(UTC))
    hooks = [hook(line_webhook(SECRET), inbox), hook(telegram_webhook(TELEGRAM_SECRET), inbox)]
    server = HttpServer(health, 0, hooks, host="127.0.0.1", limits=LIMITS).start()
    yield Served(server, health)
    server.close(grace=1.0)
    inbox.stop(time.monotonic() + 1)
    store.close()


def post(body: bytes, sign: bool = True, extra: str = "") -> bytes:
    signed = f"x-line-signature: {signature(body)}\r\n" if sign else ""
    return (
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n{signed}"
        f"Content-Length: {len(body)}\r\n{extra}\r\n"
    ).encode() + body


def telegram(body: bytes, secret: str | None = TELEGRAM_SECRET) -> bytes:
    """A request to Telegram's webhook, with `secret` in its header (none when None)."""
    header = f"X-Telegram-Bot-Api-Secret-Token: {secret}\r\n" if secret is not None else ""
    return (
        f"POST /telegram/webhook HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
        f"{header}Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def chunked(body: bytes, size: int = 1000) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


CASES = [
    # (what, the raw request, the status it gets)
    ("a signed request", post(VERIFY), 200),
    ("GET /healthz", b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n", 200),
    ("GET / (the platform's default check)", b"GET / HTTP/1.1\r\nHost: h\r\n\r\n", 200),
    ("an unknown path", b"GET /wp-login.php HTTP/1.1\r\nHost: h\r\n\r\n", 404),
    ("the webhook by GET", b"GET /line/webhook HTTP/1.1\r\nHost: h\r\n\r\n", 405),
    ("/healthz by PUT", b"PUT /healthz HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", 405),
    ("a made-up method", b"BREW /healthz HTTP/1.1\r\nHost: h\r\n\r\n", 405),
    (
        "a request line of 3,000 bytes",
        b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: h\r\n\r\n",
        414,
    ),
    ("a head of 20 KB", b"GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n", 431),
    ("100 header lines", b"GET / HTTP/1.1\r\nHost: h\r\n" + b"X-A: b\r\n" * 100 + b"\r\n", 431),
    ("not HTTP", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    ("two Content-Lengths", post(b"", extra="Content-Length: 2000000\r\n"), 400),
    ("no signature (body never read)", post(b"{" * 500_000, sign=False), 400),
    (
        "a wrong signature",
        post(VERIFY, extra="").replace(b"x-line-signature: ", b"x-line-signature: A"),
        400,
    ),
    (
        "a chunked signed body",
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {signature(VERIFY)}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
        + chunked(VERIFY, 7),
        200,
    ),
    (
        "Transfer-Encoding and Content-Length both (smuggling behind a proxy)",
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {signature(VERIFY)}\r\n"
        f"Content-Length: {len(chunked(VERIFY))}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        + chunked(VERIFY),
        400,
    ),
    ("Telegram: an update with the secret", telegram(UPDATE), 200),
    ("Telegram: no secret token (body never read)", telegram(b"{" * 500_000, None), 401),
    ("Telegram: a wrong secret token", telegram(UPDATE, TELEGRAM_SECRET[:-1] + "x"), 403),
    ("Telegram: a secret token of another length", telegram(UPDATE, "short"), 403),
    ("Telegram: LINE's signature instead", post(VERIFY).replace(b"/line/", b"/telegram/"), 401),
    ("Telegram: the secret, and not JSON", telegram(b"<html>"), 400),
    # Issue 37, low 4: JSON nested past Python's stack, behind a right secret or signature
    ("Telegram: the secret, and JSON 100,000 deep", telegram(DEEP), 400),
    ("LINE: signed, and JSON 100,000 deep", post(DEEP), 400),
    ("Telegram: the webhook by GET", b"GET /telegram/webhook HTTP/1.1\r\nHost: h\r\n\r\n", 405),
    # Issue 37, low 12: what RFC 9112 lets a server refuse, and a proxy may read otherwise
    ("bare LF line endings", b"GET /healthz HTTP/1.1\nHost: h\n\n", 400),
    ("one bare LF among CRLFs", b"GET /healthz HTTP/1.1\r\nHost: h\nX-A: b\r\n\r\n", 400),
    ("a folded header", b"GET /healthz HTTP/1.1\r\nHost: h\r\nX-A: b\r\n c\r\n\r\n", 400),
    (
        "a folded Transfer-Encoding",
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {signature(VERIFY)}\r\n"
        "Transfer-Encoding:\r\n\tchunked\r\n\r\n".encode()
        + chunked(VERIFY),
        400,
    ),
    (
        "a signed-looking body in one-byte chunks (issue 37)",
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {'A' * 43}=\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
        + chunked(b"{" * 20_000, 1),
        400,
    ),
    (
        "a chunked body over 1 MB",
        f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {signature(VERIFY)}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
        + chunked(b"x" * 1_100_000, 100_000),
        413,
    ),
]


@pytest.mark.parametrize(("what", "raw", "status"), CASES, ids=[c[0] for c in CASES])
def test_each_limit_gets_its_status(served: Served, what: str, raw: bytes, status: int) -> None:
    answer, headers, _body = served.exchange(raw)
    assert answer == status, what
    if status == 405:
        assert headers["allow"] in ("GET, HEAD", "POST")


def test_json_too_deep_is_one_line_and_no_traceback(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    started = time.monotonic()
    for _ in range(20):
        assert served.exchange(post(DEEP))[0] == 400
        assert served.exchange(telegram(DEEP))[0] == 400
    assert time.monotonic() - started < 20  # each well within a second
    assert not [r for r in caplog.records if r.exc_info]
    assert len([r for r in caplog.records if "too deep" in r.getMessage()]) <= 2  # throttled


def test_a_body_over_the_limit_is_refused_before_it_is_sent(served: Served) -> None:
    head = post(b"", extra="").replace(b"Content-Length: 0", b"Content-Length: 2000000")
    with served.connect() as conn:
        conn.sendall(head)  # and not one byte of the 2 MB
        assert read_answer(conn)[0] == 413


def test_head_is_answered_where_get_is(served: Served) -> None:
    status, headers, body = served.exchange(b"HEAD /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    served.health.last_poll_at = datetime.now(UTC) - timedelta(hours=3)
    assert served.exchange(b"HEAD /healthz HTTP/1.1\r\nHost: h\r\n\r\n")[0] == 503


def test_healthz_says_nothing_of_the_outbox(served: Served) -> None:
    _status, _headers, body = served.exchange(b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
    assert set(json.loads(body)) == {"status", "last_poll_at", "stale_after_seconds"}


def test_slow_heads_and_bodies_are_dropped_within_the_read_timeout(served: Served) -> None:
    started = time.monotonic()
    with served.connect() as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHo")  # and then nothing
        assert read_answer(conn)[0] == 408
    with served.connect() as conn:
        conn.sendall(post(VERIFY)[:-5])  # the body's last bytes never come
        assert read_answer(conn)[0] == 408
    with served.connect() as conn:  # connected, and never a byte
        assert conn.recv(10) == b""
    assert time.monotonic() - started < 3 * LIMITS.head_seconds + 1.5


def test_a_kept_alive_connection_serves_requests_one_after_the_other(served: Served) -> None:
    with served.connect() as conn:
        for _ in range(3):
            conn.sendall(post(VERIFY))
            assert read_answer(conn)[0] == 200
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
        assert read_answer(conn)[0] == 200
        assert conn.recv(10) == b""  # idle past idle_seconds: closed


def test_a_kept_alive_connection_answers_every_kind_of_request(served: Served) -> None:
    """Render's and Railway's proxies reuse their connections to the app: each request on one
    is answered, and a connection hunter closes says so first (issue 29: a GET's was closed
    silently, and the proxy's next request on it came back to LINE as a 502)."""
    with served.connect() as conn:
        for raw in (
            b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n",
            post(VERIFY),
            b"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        ):
            conn.sendall(raw)
            status, headers, _body = read_answer(conn)
            assert status == 200 and headers.get("connection") != "close", raw[:20]
        conn.sendall(b"GET /nowhere HTTP/1.1\r\nHost: h\r\n\r\n")
        status, headers, _body = read_answer(conn)
        assert (status, headers.get("connection")) == (404, "close")
        assert conn.recv(10) == b""


def test_a_connection_that_pipelines_is_closed_after_a_few_answers(served: Served) -> None:
    """Issue 37: requests written ahead of their answers are answered in order, up to
    `max_pipelined` in a row; that answer says the connection closes, and nothing more is read."""
    with served.connect() as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n" * 50)
        answers = b""
        while chunk := conn.recv(65536):
            answers += chunk
    heads = [part.split(b"\r\n\r\n")[0] for part in answers.split(b"HTTP/1.1 ")[1:]]
    assert len(heads) == LIMITS.max_pipelined
    assert all(head.startswith(b"200 ") for head in heads)
    assert [b"connection: close" in head for head in heads[-2:]] == [False, True]


def test_connections_take_turns_however_many_requests_one_has_buffered(tmp_path: Path) -> None:
    """Issue 37: with no limit on pipelining, two connections writing GET /healthz back to
    back still leave LINE's request its turn (before, each waited seconds behind them)."""
    health = Liveness(stale_after=timedelta(minutes=60))
    health.polled(datetime.now(UTC))
    hook = Hook("/line/webhook", lambda headers: None, lambda body, headers: 200)
    limits = Limits(max_pipelined=10**9)
    server = HttpServer(health, 0, [hook], host="127.0.0.1", limits=limits).start()
    stop = threading.Event()
    answered = [0, 0]

    def pipeline(n: int) -> None:
        with socket.create_connection(("127.0.0.1", server.port)) as conn:
            conn.settimeout(5)
            burst = b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n" * 512
            while not stop.is_set():
                conn.sendall(burst)
                answered[n] += conn.recv(1 << 20).count(b"HTTP/1.1 200")

    attackers = [threading.Thread(target=pipeline, args=(n,), daemon=True) for n in (0, 1)]
    try:
        for thread in attackers:
            thread.start()
        time.sleep(0.3)
        waits = []
        for _ in range(10):
            started = time.monotonic()
            assert Served(server, health).exchange(post(VERIFY))[0] == 200
            waits.append(time.monotonic() - started)
        assert all(answered), answered  # the attack was being served all along
        assert max(waits) < 2.0, waits  # LINE's deadline; it took 1-3 ms here
    finally:
        stop.set()
        for thread in attackers:
            thread.join(10)
        server.close(grace=1.0)


def test_a_webhook_request_not_kept_is_answered_so_not_as_a_bad_request(tmp_path: Path) -> None:
    """A new user's find: with the database down, LINE's request was answered 500 with
    {"message": "bad request"}, which says LINE's request was wrong. A 500 says it was not
    kept (LINE sends it again, with Webhook redelivery on); a 400 still says bad request."""
    health = Liveness(stale_after=timedelta(minutes=60))
    health.polled(datetime.now(UTC))
    answers = iter((500, 400))
    hook = Hook("/line/webhook", lambda headers: None, lambda body, headers: next(answers))
    server = HttpServer(health, 0, [hook], host="127.0.0.1", limits=LIMITS).start()
    try:
        served = Served(server, health)
        status, _headers, body = served.exchange(post(VERIFY))
        assert (status, json.loads(body)) == (500, {"message": "not kept: send it again"})
        status, _headers, body = served.exchange(post(VERIFY))
        assert (status, json.loads(body)) == (400, {"message": "bad request"})
    finally:
        server.close(grace=1.0)


def test_requests_one_at_a_time_are_never_counted_as_pipelined(served: Served) -> None:
    with served.connect() as conn:
        for _ in range(3 * LIMITS.max_pipelined):
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
            status, headers, _body = read_answer(conn)
            assert status == 200 and headers.get("connection") != "close"


def test_a_body_in_network_sized_pieces_is_read(served: Served) -> None:
    """The floor on a body's pieces refuses one-byte chunks, not a proxy's chunking or a body
    that arrives in a few reads."""
    body = json.dumps({"destination": BOT, "events": [], "pad": "x" * 200_000}).encode()
    head = f"POST /line/webhook HTTP/1.1\r\nHost: h\r\nx-line-signature: {signature(body)}\r\n"
    raw = f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunked(body, 1400)
    assert served.exchange(raw)[0] == 200
    with served.connect() as conn:  # Content-Length, in 40 writes of 5 KB
        conn.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode())
        for start in range(0, len(body), 5_000):
            conn.sendall(body[start : start + 5_000])
            time.sleep(0.002)
        assert read_answer(conn)[0] == 200


def test_expect_100_continue_is_answered_before_the_body(served: Served) -> None:
    head = post(VERIFY, extra="Expect: 100-continue\r\n")[: -len(VERIFY)]
    with served.connect() as conn:
        conn.sendall(head)
        assert conn.recv(100).startswith(b"HTTP/1.1 100 ")  # not 10 s of waiting, then 408
        conn.sendall(VERIFY)
        assert read_answer(conn)[0] == 200


def test_a_body_that_stops_moving_is_refused_before_its_deadline(served: Served) -> None:
    started = time.monotonic()
    with served.connect() as conn:
        conn.sendall(post(VERIFY)[: -len(VERIFY) + 5])  # five bytes of the body, then nothing
        assert read_answer(conn)[0] == 408
    assert time.monotonic() - started < LIMITS.body_seconds


def test_connections_holding_back_their_body_make_room_for_line(tmp_path: Path) -> None:
    """Issue 29's first high finding, in small: more connections than the cap, each with a
    whole head in and its body held back. They are not being answered, so they make room,
    and LINE's signed request is heard and answered."""
    health = Liveness(stale_after=timedelta(minutes=60))
    health.polled(datetime.now(UTC))
    limits = Limits(body_seconds=30.0, body_stall_seconds=30.0, max_connections=20)
    answered: list[bytes] = []

    def webhook(body: bytes, _headers: Headers) -> int:
        answered.append(body)
        return 200

    hook = Hook("/line/webhook", lambda headers: None, webhook)
    server = HttpServer(health, 0, [hook], host="127.0.0.1", limits=limits).start()
    held_back = post(b"{" * 60_000)[:-60_000]
    holders = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(40)]
    try:
        for conn in holders:
            conn.sendall(held_back)
        time.sleep(0.2)
        assert Served(server, health).exchange(post(VERIFY))[0] == 200
        assert answered == [VERIFY]
    finally:
        for conn in holders:
            conn.close()
        server.close(grace=1.0)


def test_large_bodies_share_a_budget(served: Served) -> None:
    """Two held 1 MB bodies use the 2.5 MB budget; a third waits for nobody: 503."""
    big = 1_000_000
    head = post(b"", extra="").replace(b"Content-Length: 0", f"Content-Length: {big}".encode())
    held = [served.connect() for _ in range(2)]
    for conn in held:
        conn.sendall(head + b"{" * (big - 1))
    time.sleep(0.2)
    assert served.exchange(head + b"{" * big)[0] == 503
    assert served.exchange(post(VERIFY))[0] == 200  # a small (LINE-sized) body always fits
    for conn in held:
        assert read_answer(conn)[0] == 408
        conn.close()


def test_connections_past_the_cap_make_room_and_a_new_request_is_heard(tmp_path: Path) -> None:
    health = Liveness(stale_after=timedelta(minutes=60))
    health.polled(datetime.now(UTC))
    limits = Limits(head_seconds=30.0, max_connections=20)
    server = HttpServer(health, 0, (), host="127.0.0.1", limits=limits).start()
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(40)]
    try:
        served = Served(server, health)
        assert served.exchange(b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")[0] == 200
        time.sleep(0.2)
        dropped = 0
        for conn in idle:
            conn.settimeout(0.05)
            try:
                dropped += conn.recv(10) == b""
            except ConnectionResetError:
                dropped += 1
            except TimeoutError:
                pass  # still open: one of the newer ones
        assert 20 <= dropped < 40  # the oldest idle ones made room, the newest stay
        assert served.exchange(b"POST /line/webhook HTTP/1.1\r\nHost: h\r\n\r\n")[0] == 404
    finally:
        for conn in idle:
            conn.close()
        server.close(grace=1.0)


def test_a_client_that_hangs_up_costs_no_traceback(
    served: Served, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    for raw in (post(VERIFY)[:40], post(VERIFY), b"GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n"):
        conn = served.connect()
        conn.sendall(raw)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        conn.close()  # a reset, mid-request or before the answer is read
    time.sleep(0.3)
    assert served.exchange(post(VERIFY))[0] == 200
    assert "Traceback" not in capfd.readouterr().err
    assert not [r for r in caplog.records if r.exc_info]


def test_refusals_are_logged_at_a_bounded_rate(caplog: pytest.LogCaptureFixture) -> None:
    clock = [0.0]
    throttled = Throttled(logging.getLogger("hunter"), every=10.0, clock=lambda: clock[0])
    for second in range(30):
        clock[0] = float(second)
        for _ in range(100):
            throttled.warning("HTTP request refused (400): junk")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert lines[0] == "HTTP request refused (400): junk"
    assert lines[1].endswith("(and 999 more like it in the last 10 s)")
