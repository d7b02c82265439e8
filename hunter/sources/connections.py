"""The connections under the sources' httpx client: one set per site, HTTP/1.1 over the
standard library's http.client.

Why not httpx's own transport (httpcore and h11): a quiet cron run of 50 sources spent a third
of its time there (bench/peer.py, issue 56): importing httpcore and h11, about 20 ms, and
their pure-Python framing, about 0.5 ms of CPU a request, where http.client, which httpx
already imports (http.cookiejar needs it), parses a 304 in C-backed buffered reads. httpx stays
the client: its URLs, headers, redirects, timeouts, cookies and exceptions are what fetch.py
speaks, and a proxy named in the environment goes through httpx's own transport
(proxy_mounts: httpx reads the environment only when it makes the transport itself).

What httpcore did that is done here too: a connection per request at a time, idle ones kept
for the site's next request (a source's next page), a kept one the site has closed meanwhile
tried once more on a new connection, a connection whose answer was not read to its end never
reused, and the body handed over as it arrives (one socket read at a time, so fetch.py's
deadline cuts a page that trickles in). Errors become httpx's: a timeout its ConnectTimeout or
ReadTimeout, a refused or failed connection its ConnectError (a certificate not trusted says
so, as before), an answer that breaks off its RemoteProtocolError.

Limits are http.client's (3.11-3.14 alike): a header line of at most 64 KiB and at most 100
header fields, where httpcore allowed 100 KiB of head in all; an answer past them is a
RemoteProtocolError, the source's error until the site answers as sites do.
"""

from __future__ import annotations

import functools
import http.client
import ipaddress
import ssl
import threading
import urllib.request
from collections.abc import Callable, Iterator

import httpx

from hunter.errors import ConfigError

CHUNK = 64 * 1024  # at most this much of a body a socket read


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for the process: loading the CA bundle costs ~25 ms, every poll. httpx's
    own (certifi's bundle, or SSL_CERT_FILE and SSL_CERT_DIR when set), so what is trusted is
    what httpx trusts."""
    return httpx.create_ssl_context()


def proxy_mounts() -> dict[str, httpx.BaseTransport | None]:
    """The proxies HTTP_PROXY, HTTPS_PROXY and ALL_PROXY name (either case), each through
    httpx's own transport, and the hosts NO_PROXY names left to the sites' connections (None):
    what httpx does for a client whose transport it makes (httpx 0.28 _utils.py
    get_environment_proxies, which follows curl's NO_PROXY: "*" is every host, ".site.com"
    its subdomains, "site.com" it and them). A client given its own transport, as the
    sources' is, would otherwise ignore them: a company network's proxy never used."""
    named = urllib.request.getproxies()  # the environment's *_proxy, as httpx reads it
    exempt = [host.strip() for host in named.get("no", "").split(",") if host.strip()]
    if "*" in exempt:
        return {}
    mounts: dict[str, httpx.BaseTransport | None] = {}
    for scheme in ("http", "https", "all"):
        if named.get(scheme):
            url = named[scheme] if "://" in named[scheme] else f"http://{named[scheme]}"
            mounts[f"{scheme}://"] = _through(url, f"{scheme.upper()}_PROXY")
    if not mounts:
        return {}
    for host in exempt:
        mounts[_exempt(host)] = None
    return mounts


def _through(url: str, variable: str) -> httpx.BaseTransport:
    """httpx's transport through the proxy at `url`. One hunter cannot use (SOCKS, which needs
    a package hunter does not install, or no proxy scheme at all) is the environment's
    mistake, said in a line without the URL, which may hold a password."""
    try:
        return httpx.HTTPTransport(proxy=url, verify=_tls())
    except (ImportError, ValueError) as exc:
        kind = url.split("://", 1)[0]
        raise ConfigError(
            f"{variable} (or its lowercase) names a {kind}:// proxy, which hunter cannot use "
            "to read sources: name an http:// or https:// proxy, or unset it for hunter"
        ) from exc


def _exempt(host: str) -> str:
    """NO_PROXY's entry as httpx's mount pattern."""
    if "://" in host:
        return host
    try:
        address = ipaddress.ip_address(host.split("/")[0])
    except ValueError:
        return f"all://{host}" if host.lower() == "localhost" else f"all://*{host}"
    return f"all://[{host}]" if address.version == 6 else f"all://{host}"


class SiteTransport(httpx.BaseTransport):
    """The sources' transport: each site's (scheme, host and port) connections, made at its
    first request. A request looks only at its own site's idle connections (with httpcore's
    one pool for all sites, 49 requests to 49 sites cost 105 ms of CPU looking over the
    others'), and a poll of plain-http pages never loads the CA bundle."""

    def __init__(self) -> None:
        self._sites: dict[tuple[bytes, bytes, int | None], SiteConnections] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        site = (url.raw_scheme, url.raw_host, url.port)
        with self._lock:
            if site not in self._sites:
                self._sites[site] = SiteConnections(*site)
            connections = self._sites[site]
        return connections.handle_request(request)

    def close(self) -> None:
        with self._lock:
            sites, self._sites = list(self._sites.values()), {}
        for site in sites:
            site.close()


class SiteConnections(httpx.BaseTransport):
    """One site's HTTP/1.1 connections: a request takes an idle one or opens its own, and gives
    it back once its answer was read to the end (unless either side said close)."""

    def __init__(self, scheme: bytes, host: bytes, port: int | None) -> None:
        if scheme not in (b"http", b"https"):
            raise httpx.UnsupportedProtocol(f"{scheme.decode(errors='replace')} is not http(s)")
        self._tls = scheme == b"https"
        self._host = host.decode("ascii")
        self._port = port or (443 if self._tls else 80)
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        timeouts = request.extensions.get("timeout", {})
        connect, read = timeouts.get("connect"), timeouts.get("read")
        body = request.read() or None
        with self._lock:
            kept = self._idle.pop() if self._idle else None
        if kept is not None:
            try:
                return self._exchange(kept, request, body, read)
            except _Stale:  # the site closed it while it was idle: once more, on a new one
                pass
        try:
            return self._exchange(self._open(connect), request, body, read)
        except _Stale as stale:
            raise httpx.RemoteProtocolError(str(stale.__cause__), request=request) from stale

    def _open(self, connect: float | None) -> http.client.HTTPConnection:
        connection: http.client.HTTPConnection
        if self._tls:
            connection = http.client.HTTPSConnection(
                self._host, self._port, timeout=connect, context=_tls()
            )
        else:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=connect)
        try:
            connection.connect()
        except TimeoutError as exc:
            connection.close()
            raise httpx.ConnectTimeout(str(exc) or "timed out connecting") from exc
        except OSError as exc:  # refused, unreachable, a certificate not trusted (ssl.SSLError)
            connection.close()
            raise httpx.ConnectError(str(exc)) from exc
        return connection

    def _exchange(
        self,
        connection: http.client.HTTPConnection,
        request: httpx.Request,
        body: bytes | None,
        read: float | None,
    ) -> httpx.Response:
        """Send `request` and read its answer's head; the body is read as it is consumed."""
        try:
            assert connection.sock is not None
            connection.sock.settimeout(read)
            connection.putrequest(
                request.method,
                request.url.raw_path.decode("ascii"),
                skip_host=True,  # httpx's headers hold Host and Accept-Encoding
                skip_accept_encoding=True,
            )
            for name, value in request.headers.raw:
                connection.putheader(name, value)
            connection.endheaders(body)
            answer = connection.getresponse()
        except TimeoutError as exc:
            connection.close()
            raise httpx.ReadTimeout(str(exc) or "timed out", request=request) from exc
        except ConnectionError as exc:  # closed before any answer (RemoteDisconnected too)
            connection.close()
            raise _Stale from exc
        except (http.client.HTTPException, OSError) as exc:  # no status line, a header too long
            connection.close()
            raise httpx.RemoteProtocolError(str(exc) or type(exc).__name__) from exc
        return httpx.Response(
            answer.status,
            # As the bytes came: http.client read them as latin-1, httpx would encode as ascii
            headers=[(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.getheaders()],
            stream=_Body(answer, connection, self._give_back),
            extensions={
                "http_version": b"HTTP/1.1" if answer.version == 11 else b"HTTP/1.0",
                "reason_phrase": answer.reason.encode("latin-1", "replace"),
            },
        )

    def _give_back(self, connection: http.client.HTTPConnection) -> None:
        with self._lock:
            self._idle.append(connection)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


class _Stale(Exception):
    """A kept connection the site had closed: nothing of the request was answered."""


class _Body(httpx.SyncByteStream):
    """An answer's body as it arrives, a socket read at a time (de-chunked, not inflated:
    fetch.py inflates it within its cap). Read to its end, the connection goes back to the
    site's idle ones; closed before that, or told to close, it is closed."""

    def __init__(
        self,
        answer: http.client.HTTPResponse,
        connection: http.client.HTTPConnection,
        give_back: Callable[[http.client.HTTPConnection], None],
    ) -> None:
        self._answer, self._connection, self._give_back = answer, connection, give_back

    def __iter__(self) -> Iterator[bytes]:
        received = 0
        while True:
            try:
                chunk = self._answer.read1(CHUNK)
            except TimeoutError as exc:
                raise httpx.ReadTimeout(str(exc) or "timed out") from exc
            except http.client.IncompleteRead as exc:  # a chunked one, cut
                raise httpx.RemoteProtocolError(_broke_off(received)) from exc
            except (http.client.HTTPException, OSError) as exc:
                raise httpx.ReadError(str(exc) or type(exc).__name__) from exc
            if not chunk:
                # http.client's read1 ends quietly where the site closed before its
                # Content-Length: a page cut short is no page
                if self._answer.length:
                    raise httpx.RemoteProtocolError(_broke_off(received))
                return
            received += len(chunk)
            yield chunk

    def close(self) -> None:
        answer = self._answer
        if answer.length == 0 and not answer.isclosed():  # a 304, a 204: its end is its head
            answer.read()
        # http.client closes an answer read to its end; one left before that is not reused
        reusable = answer.isclosed() and not answer.will_close
        answer.close()
        if reusable:
            self._give_back(self._connection)
        else:
            self._connection.close()


def _broke_off(received: int) -> str:
    return f"the answer broke off after {received} bytes of its body"
