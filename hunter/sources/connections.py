"""The transport under the sources' httpx client: httpx's own (httpcore and h11), each read
bounded by its source's deadline, and the environment's proxies.

httpx and httpcore own the HTTP: framing, informational answers (a 103 Early Hints before the
200 is skipped, never taken for the page), chunked bodies and trailers, header limits (h11
takes 100 KiB of head), the pool of kept connections and TLS. Why no hand-written transport:
docs/decisions/http-transport.md.

What hunter adds is a deadline under every socket operation. httpcore's read timeout applies
to each socket read, so a board that sends its head a byte a second, an endless run of
`100 Continue` heads, or a trailer that never ends would hold its thread, its socket and a
core long after the poll. The network backend here wraps httpcore's own: before each connect,
read and write it asks the deadline of the read this thread is making (`within`) for the time
left, and gives the socket no more than that; past it (or once hunter stops) the operation
raises the deadline's own exception, which httpcore answers by closing that connection.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import ssl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import httpcore
import httpx

from hunter.errors import ConfigError
from hunter.network import proxies, proxy_refused

# Every site's connections, in one httpcore pool: a source thread never waits for another's
# connection (the reader bounds requests to a host, HostGate), and the idle ones a poll keeps
# are its sites' next pages.
LIMITS = httpx.Limits(max_connections=None, max_keepalive_connections=100, keepalive_expiry=5)


class Limit(Protocol):
    """A read's deadline (fetch.Deadline): the seconds left, or its exception when none are."""

    def left(self) -> float: ...


_reading = threading.local()  # .limit: the Limit of the read this thread is making


@contextmanager
def within(limit: Limit) -> Iterator[None]:
    """Every socket operation this thread makes meanwhile ends by `limit`."""
    before = getattr(_reading, "limit", None)
    _reading.limit = limit
    try:
        yield
    finally:
        _reading.limit = before


def _bounded(timeout: float | None) -> float | None:
    """`timeout` cut to the time this thread's read has left; raises once it has none."""
    limit: Limit | None = getattr(_reading, "limit", None)
    if limit is None:
        return timeout
    left = limit.left()
    return left if timeout is None else min(timeout, left)


class _BoundedStream(httpcore.NetworkStream):
    """httpcore's stream, each operation bounded by the deadline of the thread using it."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        return _BoundedStream(
            self._stream.start_tls(ssl_context, server_hostname, _bounded(timeout))
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _BoundedBackend(httpcore.SyncBackend):
    """httpcore's synchronous backend, its streams bounded (_BoundedStream)."""

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = super().connect_tcp(host, port, _bounded(timeout), local_address, socket_options)
        return _BoundedStream(stream)


class SiteTransport(httpx.BaseTransport):
    """The sources' transport: httpx's for http:// sites, and another for https:// made at the
    first https request, so that a poll of plain-http pages never loads the CA bundle (~25 ms
    of a cron run). The plain one trusts no certificate at all: were TLS ever asked of it, it
    would refuse, never read unverified."""

    def __init__(self) -> None:
        self._plain = transport(tls=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
        self._secure: httpx.HTTPTransport | None = None
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme != "https":
            return self._plain.handle_request(request)
        with self._lock:
            if self._secure is None:
                self._secure = transport()
            secure = self._secure
        return secure.handle_request(request)

    def close(self) -> None:
        self._plain.close()
        with self._lock:
            secure, self._secure = self._secure, None
        if secure is not None:
            secure.close()


def transport(proxy: str | None = None, tls: ssl.SSLContext | None = None) -> httpx.HTTPTransport:
    """httpx's transport (through `proxy` when named), its sockets bounded by each read's
    deadline; it trusts what httpx trusts unless given `tls`. httpx builds the pool from its
    own arguments; hunter gives it the network backend, httpcore's argument that httpx does
    not pass on (test_hostile_boards.py's deadline tests fail if a new httpx or httpcore
    names either otherwise)."""
    made = httpx.HTTPTransport(verify=tls or _tls(), proxy=proxy, limits=LIMITS)
    pool = made._pool
    assert isinstance(pool, httpcore.ConnectionPool), "httpx's transport has no httpcore pool"
    pool._network_backend = _BoundedBackend()
    return made


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for the process: loading the CA bundle costs ~25 ms, every poll. httpx's
    own (certifi's bundle, or SSL_CERT_FILE and SSL_CERT_DIR when set)."""
    return httpx.create_ssl_context()


def proxy_mounts() -> dict[str, httpx.BaseTransport | None]:
    """The proxies HTTP_PROXY, HTTPS_PROXY and ALL_PROXY name (either case), each through
    httpx's own transport, and the hosts NO_PROXY names left to the sites' connections (None):
    what httpx does for a client whose transport it makes (httpx 0.28 _utils.py
    get_environment_proxies, which follows curl's NO_PROXY: "*" is every host, ".site.com"
    its subdomains, "site.com" it and them). A client given its own transport, as the
    sources' is, would otherwise ignore them: a company network's proxy never used."""
    named = proxies(os.environ)  # the environment's, as httpx reads them
    exempt = [host.strip() for host in named.get("no", "").split(",") if host.strip()]
    if "*" in exempt:
        return {}
    mounts: dict[str, httpx.BaseTransport | None] = {}
    for scheme in ("http", "https", "all"):
        if named.get(scheme):
            mounts[f"{scheme}://"] = _through(named[scheme], f"{scheme.upper()}_PROXY")
    if not mounts:
        return {}
    # This machine itself is never reached through a proxy (a board served here, `hunter
    # demo`'s own): a company network's proxy cannot reach it, and curl's NO_PROXY habit
    # of listing it is easy to forget.
    for host in [*exempt, "localhost", "127.0.0.1", "::1"]:
        mounts[_exempt(host)] = None
    return mounts


def _through(url: str, variable: str) -> httpx.BaseTransport:
    """httpx's transport through the proxy at `url`. One hunter cannot use is refused when the
    environment is read (network.proxy_refused); this says it again for a caller that did not
    read it, in a line without the URL, which may hold a password."""
    try:
        return transport(url)
    except (ImportError, ValueError) as exc:
        said = proxy_refused({variable: url}) or f"{variable} names a proxy hunter cannot use"
        raise ConfigError(said) from exc


def _exempt(host: str) -> str:
    """NO_PROXY's entry as httpx's mount pattern."""
    if "://" in host:
        return host
    try:
        address = ipaddress.ip_address(host.split("/")[0])
    except ValueError:
        return f"all://{host}" if host.lower() == "localhost" else f"all://*{host}"
    return f"all://[{host}]" if address.version == 6 else f"all://{host}"
