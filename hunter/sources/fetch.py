"""Fetch every source's page at once with httpx, politely, each within its own time limit.

One failing or hanging source never stops or delays the others beyond its timeout: each fetch
is its own task under `asyncio.wait_for`, and its failure becomes a `Page` with an error.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from hunter import __version__
from hunter.config import SourceConfig

USER_AGENT = f"hunter/{__version__} (job-alert bot; polls every 30 min; +https://github.com/hunter-bot/hunter)"
MAX_BYTES = 10 * 1024 * 1024  # a listing page is never this big; a bigger answer is refused
PER_HOST = 2  # at most this many requests at once to one host


@dataclass
class Page:
    source: SourceConfig
    url: str
    status: int | None = None
    text: str = ""
    size: int = 0
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


async def _fetch_one(
    client: httpx.AsyncClient, source: SourceConfig, limit: asyncio.Semaphore, timeout: float
) -> Page:
    page = Page(source=source, url=source.url)
    started = time.monotonic()
    try:
        async with limit:
            page = await asyncio.wait_for(_download(client, source, page), timeout)
    except TimeoutError:
        page.error = f"no complete answer within {timeout:g} s"
    except httpx.HTTPError as exc:
        page.error = _describe(exc)
    page.seconds = time.monotonic() - started
    return page


async def _download(client: httpx.AsyncClient, source: SourceConfig, page: Page) -> Page:
    async with client.stream("GET", source.url, headers=dict(source.headers)) as response:
        page.status = response.status_code
        page.url = str(response.url)
        if response.status_code >= 400:
            page.error = f"HTTP {response.status_code} from {urlsplit(page.url).netloc}"
            return page
        declared = int(response.headers.get("content-length") or 0)
        if declared > MAX_BYTES:
            page.error = f"the page is {declared:,} bytes, over the {MAX_BYTES:,}-byte limit"
            return page
        chunks: list[bytes] = []
        async for chunk in response.aiter_bytes():
            page.size += len(chunk)
            if page.size > MAX_BYTES:
                page.error = f"the page is over the {MAX_BYTES:,}-byte limit; refused"
                return page
            chunks.append(chunk)
        body = b"".join(chunks)
        page.text = body.decode(response.encoding or "utf-8", errors="replace")
    return page


def _describe(exc: httpx.HTTPError) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    if isinstance(exc, httpx.ConnectError):
        return "could not connect"
    if isinstance(exc, httpx.TooManyRedirects):
        return "too many redirects"
    return f"{type(exc).__name__}: {exc}"


async def fetch_all(sources: Sequence[SourceConfig], timeout: float) -> list[Page]:
    """One Page per source, in the sources' order."""
    limits: dict[str, asyncio.Semaphore] = defaultdict(lambda: asyncio.Semaphore(PER_HOST))
    async with httpx.AsyncClient(
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"},
        follow_redirects=True,
        max_redirects=5,
        timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
    ) as client:
        tasks = [_fetch_one(client, s, limits[urlsplit(s.url).netloc], timeout) for s in sources]
        return list(await asyncio.gather(*tasks))


def fetch_pages(sources: Sequence[SourceConfig], timeout: float) -> list[Page]:
    return asyncio.run(fetch_all(sources, timeout))
