"""HTTP for sources: one URL at a time, politely.

An honest User-Agent, compression, redirects (a source's own headers never follow one to
another site), a cap on the body (an answer that inflates past 10 MB is refused as it streams,
never held in memory), conditional GET with the validators the store kept, and the wait a site
asks for with Retry-After on 429/503.
"""

from __future__ import annotations

import functools
import json
import ssl
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from hunter import __version__
from hunter.errors import SourceError
from hunter.sources.extract import site_says
from hunter.sources.inflate import Inflater, TooLarge
from hunter.sources.spec import MAX_WAIT_SECONDS

USER_AGENT = (
    f"hunter/{__version__} (job-alert bot; one request per page every 30 min; "
    "+https://github.com/hunter-bot/hunter)"
)
MAX_BYTES = 10 * 1024 * 1024  # no listing page is this big; a bigger answer is refused
ERROR_BYTES = 16 * 1024  # what of a refusal is read for its reason: an error says it early
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Validators:
    url: str
    etag: str | None = None
    last_modified: str | None = None

    def headers(self) -> dict[str, str]:
        out = {}
        if self.etag:
            out["If-None-Match"] = self.etag
        if self.last_modified:
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


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for the process: loading the CA bundle costs ~40 ms, every poll."""
    return httpx.create_ssl_context()


def client(timeout: float) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        verify=_tls(),
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"},
        follow_redirects=False,  # _get follows them, minding whose headers go where
        timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
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


async def fetch(
    http: httpx.AsyncClient,
    url: str,
    headers: dict[str, str],
    validators: Validators | None,
    body: Any = None,
) -> Fetched:
    """GET `url` (POST `body` as JSON when there is one); a 304 that names other validators
    than ours is not trusted: fetched again."""
    got = await _get(http, url, headers, validators.headers() if validators else {}, body)
    if got.not_modified and validators and got.etag and got.etag != validators.etag:
        got = await _get(http, url, headers, {}, body)
    return got


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


async def _get(
    http: httpx.AsyncClient,
    url: str,
    headers: dict[str, str],
    conditional: dict[str, str],
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
            async with http.stream(method, target, headers=sent, json=body) as response:
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
                await _answer(response, got)
                return got
        got.error = "too many redirects"
    except httpx.TimeoutException:
        got.error = "timed out"
    except httpx.ConnectError:
        got.error = "could not connect"
    except httpx.HTTPError as exc:
        got.error = f"{type(exc).__name__}: {exc}"
    except SourceError as exc:
        got.error = str(exc)
    return got


async def _error_said(response: httpx.Response) -> str:
    """What a refusal's JSON body says ("You must be authenticated ..."), read within
    ERROR_BYTES; "" when it is no JSON or says nothing."""
    if "json" not in (response.headers.get("content-type") or ""):
        return ""
    inflater = Inflater(response.headers.get("content-encoding"), ERROR_BYTES)
    chunks = []
    try:
        async for chunk in response.aiter_raw():
            chunks.append(inflater.feed(chunk))
        return site_says(json.loads(b"".join(chunks)))
    except (TooLarge, ValueError):
        return ""


async def _answer(response: httpx.Response, got: Fetched) -> None:
    """Fill `got` from a final (non-redirect) answer, reading and inflating the body within
    the size cap."""
    got.status = response.status_code
    got.url = str(response.url)
    got.etag = response.headers.get("etag")
    got.last_modified = response.headers.get("last-modified")
    got.content_type = response.headers.get("content-type")
    if response.status_code == 304:
        got.not_modified = True
        return
    if response.status_code >= 400:
        host = response.url.host  # never the url's user:password@, nor its query
        got.error = f"HTTP {response.status_code} from {host}"
        said = await _error_said(response)
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
        async for chunk in response.aiter_raw():
            chunks.append(inflater.feed(chunk))
    except TooLarge:
        got.error = f"the page is over the {MAX_BYTES:,}-byte limit; refused"
        return
    got.body = b"".join(chunks)
