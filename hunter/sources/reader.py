"""Read every source at once: its pages fetched and parsed, each source within its timeout.

One failing or hanging source never stops or delays the others beyond its own time limit:
each is its own task under `asyncio.wait_for`, and whatever happens becomes a `SourceRead`.
At most two requests at once go to one host, each after a short random pause.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import httpx

from hunter.errors import SourceError
from hunter.listing import Listing
from hunter.sources import encoding
from hunter.sources.extract import ParseResult
from hunter.sources.fetch import Fetched, Validators, client, fetch
from hunter.sources.kinds import source_kind
from hunter.sources.spec import SourceConfig
from hunter.store.base import SourceState

PER_HOST = 2
JITTER_SECONDS = 0.25


@dataclass
class SourceRead:
    source: SourceConfig
    listings: list[Listing] = field(default_factory=list)
    skipped: int = 0
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    unchanged: bool = False  # 304: the page is as it was
    waiting_until: datetime | None = None  # the site asked us to wait; not fetched
    status: int | None = None
    size: int = 0
    seconds: float = 0.0
    encoding: str | None = None
    pages: int = 0
    validators: Validators | None = None  # of page 1, to send next time
    retry_after: float | None = None

    @property
    def name(self) -> str:
        return self.source.name


def parse(source: SourceConfig, text: str, base_url: str, now: datetime) -> ParseResult:
    """Listings of one page, by the source's kind."""
    return source_kind(source.kind).parse(source, text, base_url, now)


async def _read(
    http: httpx.AsyncClient,
    source: SourceConfig,
    state: SourceState | None,
    limit: asyncio.Semaphore,
    now: datetime,
    conditional: bool,
) -> SourceRead:
    read = SourceRead(source)
    for page in range(1, source.pages + 1):
        url = source.page_url(page)
        validators = None
        if conditional and page == 1 and state and state.validated_url == url:
            validators = Validators(url, state.etag, state.last_modified)
        async with limit:
            await asyncio.sleep(random.uniform(0, JITTER_SECONDS))
            got = await fetch(http, url, dict(source.headers), validators)
        if page > 1 and got.error:  # past the last page, many sites answer 404
            read.warnings.append(f"page {page}: {got.error}; stopped paging there")
            break
        if page == 1:
            read.status, read.retry_after = got.status, got.retry_after
        if got.error:
            read.error = got.error
            break
        if got.not_modified:  # nothing changed since the last good parse: nothing to parse
            read.unchanged, read.validators = True, validators
            break
        found = len(read.listings)
        if not _parse_into(read, source, got, now):
            break
        if page == 1:
            read.validators = Validators(url, got.etag, got.last_modified)
        if len(read.listings) == found:  # an empty page: the end
            break
    return read


def _parse_into(read: SourceRead, source: SourceConfig, got: Fetched, now: datetime) -> bool:
    text, read.encoding = encoding.decode(got.body, got.content_type)
    read.size += len(got.body)
    try:
        parsed = parse(source, text, got.url, now)
    except SourceError as exc:
        read.error = str(exc)
        return False
    known = {x.job_id for x in read.listings}
    read.listings += [x for x in parsed.listings if x.job_id not in known]
    read.skipped += parsed.skipped
    read.warnings += parsed.warnings
    read.pages += 1
    return True


async def read_all(
    sources: Sequence[SourceConfig],
    states: Mapping[str, SourceState],
    timeout: float,
    now: datetime,
    conditional: bool = True,
) -> list[SourceRead]:
    """One SourceRead per source, in the sources' order. A source whose site asked us to wait
    (Retry-After) is not fetched until then."""
    limits: dict[str, asyncio.Semaphore] = defaultdict(lambda: asyncio.Semaphore(PER_HOST))

    async def one(http: httpx.AsyncClient, source: SourceConfig) -> SourceRead:
        state = states.get(source.name)
        if conditional and state and state.not_before and state.not_before > now:
            return SourceRead(source, waiting_until=state.not_before)
        started = time.monotonic()
        host = urlsplit(source.url).netloc
        try:
            read = await asyncio.wait_for(
                _read(http, source, state, limits[host], now, conditional), timeout
            )
        except TimeoutError:
            read = SourceRead(source, error=f"no complete answer within {timeout:g} s")
        read.seconds = time.monotonic() - started
        return read

    async with client(timeout) as http:
        return list(await asyncio.gather(*(one(http, s) for s in sources)))


def read_sources(
    sources: Sequence[SourceConfig],
    states: Mapping[str, SourceState],
    timeout: float,
    now: datetime,
    conditional: bool = True,
) -> list[SourceRead]:
    return asyncio.run(read_all(sources, states, timeout, now, conditional))


def wait_until(read: SourceRead, now: datetime) -> datetime | None:
    """When the site asked us to come back, if it did."""
    if read.waiting_until:
        return read.waiting_until
    return now + timedelta(seconds=read.retry_after) if read.retry_after else None
