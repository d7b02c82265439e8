"""HTTP for sources: one URL at a time, politely.

An honest User-Agent, compression, redirects (a source's own headers never follow one to
another site), a cap on the body (an answer that inflates past 10 MB is refused as it streams,
never held in memory), conditional GET with the validators the store kept, and the wait a site
asks for with Retry-After on 429/503.

Synchronous on purpose: the reader runs each source on a thread of its own, and httpx's
synchronous client spares a quiet cron run the import of asyncio, anyio and the async
httpcore (about 45 ms of a 50-source poll, bench/peer.py). Under it, httpx's own transport
(connections.py), whose every socket operation is bounded by the source's deadline: a page, a
head or a trailer that trickles in a byte at a time, or never ends, never keeps a thread, a
socket or a core past it.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from hunter import __version__
from hunter.errors import SourceError
from hunter.network import unreached
from hunter.sources.connections import SiteTransport, proxy_mounts, within
from hunter.sources.extract import site_says
from hunter.sources.inflate import Inflater, TooLarge
from hunter.sources.spec import MAX_WAIT_SECONDS

# Honest about the pace: since the learned schedule a busy board's page is read as
# often as every 5 minutes in its busy hours and a quiet one's far less, not every 30 minutes.
USER_AGENT = (
    f"hunter/{__version__} (job-alert bot; reads a page about as often as the board posts, "
    "conditional GET; +https://github.com/hunter-bot/hunter)"
)
MAX_BYTES = 10 * 1024 * 1024  # no listing page is this big; a bigger answer is refused
ERROR_BYTES = 16 * 1024  # what of a refusal is read for its reason: an error says it early
MAX_REDIRECTS = 5
CONNECT_SECONDS = 10.0


class Cut(Exception):
    """A read stopped before its answer was complete: its time ran out, or hunter is stopping."""


@dataclass(frozen=True)
class Deadline:
    """When (time.monotonic()) a source's read must be done, and the poll's stop request."""

    at: float
    stop: threading.Event

    def left(self) -> float:
        """Seconds left; raises Cut when there are none or hunter is stopping."""
        left = self.at - time.monotonic()
        if left <= 0 or self.stop.is_set():
            raise Cut("stopped" if self.stop.is_set() else "out of time")
        return left

    def timeout(self) -> httpx.Timeout:
        left = self.left()
        return httpx.Timeout(left, connect=min(left, CONNECT_SECONDS))


@dataclass(frozen=True)
class Validators:
    url: str
    etag: str | None = None
    last_modified: str | None = None

    def headers(self) -> dict[str, str]:
        """The conditional headers. A validator past ASCII (a site that puts UTF-8 in its
        ETag) is not sent back: httpx sends header text as ASCII, and a full read is safe."""
        out = {}
        if self.etag and self.etag.isascii():
            out["If-None-Match"] = self.etag
        if self.last_modified and self.last_modified.isascii():
            out["If-Modified-Since"] = self.last_modified
        return out


@dataclass
class Fetched:
    url: str
    status: int | None = None
    body: bytes = b""
    content_type: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    retry_after: float | None = None  # seconds the site asked us to wait
    error: str | None = None


def client(timeout: float) -> httpx.Client:
    """The client of one poll, shared by its threads (httpx: "It can be shared between
    threads"). A proxy named in the environment is still honoured, as httpx does."""
    return httpx.Client(
        transport=SiteTransport(),  # httpx's own, each socket bounded by its read's deadline
        mounts=proxy_mounts(),
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"},
        follow_redirects=False,  # _get follows them, minding whose headers go where
        timeout=httpx.Timeout(timeout, connect=min(timeout, CONNECT_SECONDS)),
    )


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After as seconds: a number, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), MAX_WAIT_SECONDS)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return min(max(seconds, 0.0), MAX_WAIT_SECONDS)


def fetch(
    http: httpx.Client,
    url: str,
    headers: dict[str, str],
    validators: Validators | None,
    deadline: Deadline,
    body: Any = None,
) -> Fetched:
    """GET `url` (POST `body` as JSON when there is one) within `deadline`; a 304 that names
    other validators than ours is not trusted: fetched again. Raises Cut past the deadline,
    whatever the site is sending then (connections.within)."""
    with within(deadline):
        got = _get(http, url, headers, validators.headers() if validators else {}, deadline, body)
        if got.not_modified and validators and got.etag and got.etag != validators.etag:
            got = _get(http, url, headers, {}, deadline, body)
    return got


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _get(
    http: httpx.Client,
    url: str,
    headers: dict[str, str],
    conditional: dict[str, str],
    deadline: Deadline,
    body: Any = None,
) -> Fetched:
    """GET (or POST `body`) with redirects followed here, not by httpx: a redirect to another
    origin drops the source's own headers (an API key meant for one site never reaches
    another), as httpx does for Authorization. A POST is never redirected: its body would be
    dropped or sent where it was not meant to go."""
    got = Fetched(url=url)
    target, first = httpx.URL(url), httpx.URL(url)
    sent = {**headers, **conditional}
    method = "GET" if body is None else "POST"
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            timeout = deadline.timeout()
            with http.stream(method, target, headers=sent, json=body, timeout=timeout) as response:
                if response.is_redirect and method == "POST":
                    got.error = (
                        f"the POST was redirected (HTTP {response.status_code}); set url to "
                        "where it points"
                    )
                    return got
                if response.is_redirect and response.next_request is not None:
                    target = response.next_request.url
                    if _origin(target) != _origin(first):
                        sent = dict(conditional)
                    continue
                _answer(response, got, deadline)
                return got
        got.error = "too many redirects"
    except httpx.TimeoutException:
        got.error = "timed out"
    except httpx.ConnectError as exc:
        got.error = "could not connect" + (_untrusted(exc) or f": {unreached(exc)}")
    except httpx.ProxyError as exc:  # the proxy answered, and would not reach the site
        got.error = f"could not connect: {unreached(exc)}"
    except httpx.HTTPError as exc:
        got.error = f"{type(exc).__name__}: {exc}"
    except SourceError as exc:
        got.error = str(exc)
    return got


def _untrusted(exc: httpx.ConnectError) -> str:
    """ ": its certificate is not trusted (why)" when TLS verification refused the site, so
    that the owner knows it is the certificate (an expired one, a company proxy's own CA:
    SSL_CERT_FILE names a bundle to trust), not the network."""
    text = str(exc)
    if "CERTIFICATE_VERIFY_FAILED" not in text:
        return ""
    why = text.split("certificate verify failed:", 1)[-1].split("(_ssl", 1)[0].strip()
    return f": its certificate is not trusted ({why or 'verification failed'})"


CHALLENGED = (
    "the site shows a bot check (Cloudflare's challenge page), which hunter cannot pass; read "
    "the board's feed or API instead if it has one (a preset: docs/sources.md)"
)


def _error_said(response: httpx.Response, deadline: Deadline) -> str:
    """What a refusal's JSON body says ("You must be authenticated ..."), read within
    ERROR_BYTES; "" when it is no JSON or says nothing."""
    if "json" not in (response.headers.get("content-type") or ""):
        return ""
    inflater = Inflater(response.headers.get("content-encoding"), ERROR_BYTES)
    chunks = []
    try:
        for chunk in response.iter_raw():
            deadline.left()
            chunks.append(inflater.feed(chunk))
        return site_says(json.loads(b"".join(chunks)))
    except (TooLarge, ValueError):
        return ""


def _answer(response: httpx.Response, got: Fetched, deadline: Deadline) -> None:
    """Fill `got` from a final (non-redirect) answer, reading and inflating the body within
    the size cap."""
    got.status = response.status_code
    got.url = str(response.url)
    got.etag = response.headers.get("etag")
    got.last_modified = response.headers.get("last-modified")
    got.content_type = response.headers.get("content-type")
    if response.status_code == 304:
        got.not_modified = True
        response.read()  # nothing (a 304 has no body), and its connection is kept for the next
        return
    if response.status_code >= 400:
        host = response.url.host  # never the url's user:password@, nor its query
        got.error = f"HTTP {response.status_code} from {host}"
        # Cloudflare marks a challenge page so, whatever its kind ("Detect a Challenge Page
        # response", developers.cloudflare.com): a browser's check no program passes
        if response.headers.get("cf-mitigated") == "challenge":
            got.error += f": {CHALLENGED}"
            return
        said = _error_said(response, deadline)
        if said:
            got.error += f": {said}"
        if response.status_code in (429, 503):
            got.retry_after = retry_after_seconds(response.headers.get("retry-after"))
            if got.retry_after:
                got.error += f"; it asks to wait {got.retry_after:.0f} s"
        return
    declared = int(response.headers.get("content-length") or 0)
    if declared > MAX_BYTES:
        got.error = f"the page is {declared:,} bytes, over the {MAX_BYTES:,}-byte limit"
        return
    inflater = Inflater(response.headers.get("content-encoding"), MAX_BYTES)
    chunks = []
    try:
        for chunk in response.iter_raw():
            deadline.left()  # a page that trickles in is cut at its deadline
            chunks.append(inflater.feed(chunk))
    except TooLarge:
        got.error = f"the page is over the {MAX_BYTES:,}-byte limit; refused"
        return
    got.body = b"".join(chunks)
