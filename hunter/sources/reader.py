"""Read every source at once: its pages fetched and parsed, each source within its timeout.

One failing or hanging source never stops or delays the others beyond its own time limit:
each is its own task with a deadline, and whatever happens in it (a timeout, a bad page, any
exception at all) becomes that source's `SourceRead` with a one-line error. A stop request
(SIGTERM) cancels every fetch in flight at once. At most two requests at once go to one host,
and all but the first after a short random pause (HostGate).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from asyncio import FIRST_COMPLETED
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from urllib.parse import urlsplit

import httpx

from hunter.errors import ConfigError, SourceError
from hunter.rules.listing import Listing
from hunter.sources import encoding
from hunter.sources.extract import ParseResult
from hunter.sources.fetch import Fetched, Validators, client, fetch
from hunter.sources.kinds import Read, source_kind
from hunter.sources.spec import SourceConfig

log = logging.getLogger("hunter")

PER_HOST = 2
JITTER_SECONDS = 0.25
STOP_CHECK_SECONDS = 0.1


class SourceState(Protocol):
    """What the store remembers of a source that a read uses (store.records.SourceState)."""

    @property
    def last_good_at(self) -> datetime | None: ...

    @property
    def etag(self) -> str | None: ...

    @property
    def last_modified(self) -> str | None: ...

    @property
    def validated_url(self) -> str | None: ...


@dataclass
class SourceRead:
    source: SourceConfig
    listings: list[Listing] = field(default_factory=list)
    skipped: int = 0
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    unchanged: bool = False  # 304: the page is as it was
    stopped: bool = False  # a stop request cut the read short: no verdict on the source
    misconfigured: bool = False  # the config names something the site does not have
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
    limit: HostGate,
    now: datetime,
    conditional: bool,
) -> SourceRead:
    read = SourceRead(source)
    kind = source_kind(source.kind)
    if kind.read is not None:
        return await _read_by_kind(http, source, state, limit, now, kind.read, read)
    cursor = ""
    for page in range(1, source.pages + 1):
        if page > 1 and source.cursor and not cursor:
            break  # the last answer named no next page
        url = source.page_url(page, cursor)
        validators = None
        body = source.page_body(page) if source.body is not None else None
        if conditional and page == 1 and state and state.validated_url == url and body is None:
            validators = Validators(url, state.etag, state.last_modified)
        async with limit:
            got = await fetch(http, url, dict(source.headers), validators, body)
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
        parsed = _parse_into(read, source, got, now)
        if parsed is None:
            break
        cursor = parsed.cursor
        if page == 1:
            read.validators = Validators(url, got.etag, got.last_modified)
        if len(read.listings) == found:  # an empty page: the end
            break
    return read


async def _read_by_kind(
    http: httpx.AsyncClient,
    source: SourceConfig,
    state: SourceState | None,
    limit: HostGate,
    now: datetime,
    reader: Read,
    read: SourceRead,
) -> SourceRead:
    """A source whose kind plans its own requests (several queries, a lookup first)."""

    async def get(url: str) -> tuple[str, str]:
        async with limit:
            got = await fetch(http, url, dict(source.headers), None)
        read.status = read.status or got.status
        read.retry_after = read.retry_after or got.retry_after
        if got.error:
            raise SourceError(got.error)
        read.pages += 1
        return got.url, _decode(read, got)

    try:
        parsed = await reader(source, get, state.last_good_at if state else None, now)
    except SourceError as exc:
        read.error = str(exc)
        return read
    read.listings, read.skipped, read.warnings = parsed.listings, parsed.skipped, parsed.warnings
    return read


def _decode(read: SourceRead, got: Fetched) -> str:
    """The page as text; the read counts its bytes and notes the encoding."""
    text, read.encoding = encoding.decode(got.body, got.content_type)
    read.size += len(got.body)
    return text


def _parse_into(
    read: SourceRead, source: SourceConfig, got: Fetched, now: datetime
) -> ParseResult | None:
    """Add one page's listings to the read; what the page gave, or None when it was no page
    of listings (the read's error says why)."""
    text = _decode(read, got)
    try:
        parsed = parse(source, text, got.url, now)
    except SourceError as exc:
        read.error = str(exc)
        return None
    known = {x.job_id for x in read.listings}
    read.listings += [x for x in parsed.listings if x.job_id not in known]
    read.skipped += parsed.skipped
    read.warnings += parsed.warnings
    read.pages += 1
    return parsed


async def read_all(
    sources: Sequence[SourceConfig],
    states: Mapping[str, SourceState],
    timeout: float,
    now: datetime,
    conditional: bool = True,
    stop: threading.Event | None = None,
) -> list[SourceRead]:
    """One SourceRead per source, in the sources' order (the poller chose which are due)."""
    limits: dict[str, HostGate] = defaultdict(HostGate)
    stopping = asyncio.create_task(_stopped(stop or threading.Event()))

    async def one(http: httpx.AsyncClient, source: SourceConfig) -> SourceRead:
        state = states.get(source.name)
        started = time.monotonic()
        host = urlsplit(source.url).netloc
        task = asyncio.create_task(_read(http, source, state, limits[host], now, conditional))
        await asyncio.wait({task, stopping}, timeout=timeout, return_when=FIRST_COMPLETED)
        if not task.done():
            task.cancel()
            if stopping.done():
                read = SourceRead(source, stopped=True, error="stopped before it was read")
            else:
                read = SourceRead(source, error=f"no complete answer within {timeout:g} s")
        elif isinstance(problem := task.exception(), ConfigError):  # e.g. an unknown category
            read = SourceRead(source, error=str(problem), misconfigured=True)
        elif problem is not None:
            log.debug("source %s: reading failed", source.name, exc_info=problem)
            read = SourceRead(source, error=f"reading it failed: {_one_line(problem)}")
        else:
            read = task.result()
        read.seconds = time.monotonic() - started
        return read

    try:
        async with client(timeout) as http:
            return list(await asyncio.gather(*(one(http, s) for s in sources)))
    finally:
        stopping.cancel()


class HostGate:
    """Politeness towards one host: at most PER_HOST requests at once, and every request
    after the host's first in this poll waits a short random pause, so that many sources on
    one site never arrive as a burst. Sources on different sites wait for nothing."""

    def __init__(self) -> None:
        self._slots = asyncio.Semaphore(PER_HOST)
        self._started = 0

    async def __aenter__(self) -> None:
        await self._slots.acquire()
        self._started += 1
        if self._started > 1:
            try:
                await asyncio.sleep(random.uniform(0, JITTER_SECONDS))
            except BaseException:  # cancelled while waiting: the slot is not taken
                self._slots.release()
                raise

    async def __aexit__(self, *exc: object) -> None:
        self._slots.release()


async def _stopped(stop: threading.Event) -> None:
    """Returns once `stop` is set (by the signal handler, on another thread)."""
    while not stop.is_set():
        await asyncio.sleep(STOP_CHECK_SECONDS)


def _one_line(problem: BaseException) -> str:
    text = " ".join(str(problem).split())[:200]
    return f"{type(problem).__name__}: {text}" if text else type(problem).__name__


def read_sources(
    sources: Sequence[SourceConfig],
    states: Mapping[str, SourceState],
    timeout: float,
    now: datetime,
    conditional: bool = True,
    stop: threading.Event | None = None,
) -> list[SourceRead]:
    return asyncio.run(read_all(sources, states, timeout, now, conditional, stop))
