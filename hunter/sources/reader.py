"""Read every source at once: its pages fetched and parsed, each source within its timeout.

One failing or hanging source never stops or delays the others beyond its own time limit:
each is read on a thread of its own against a deadline, and whatever happens in it (a
timeout, a bad page, any exception at all) becomes that source's `SourceRead` with a one-line
error. The poll waits for no source past the deadline, and a stop request (SIGTERM) ends the
wait at once: threads still reading are left to run out (daemon threads, each request bounded
by the deadline), their answers dropped. At most two requests at once go to one host, and all
but the first after a short random pause (HostGate).
"""

from __future__ import annotations

import logging
import math
import queue
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from urllib.parse import urlsplit

import httpx

from hunter.errors import ConfigError, SourceError
from hunter.redact import clip
from hunter.rules.listing import Listing
from hunter.sources import encoding
from hunter.sources.extract import MAX_ITEMS_PER_READ, ParseResult
from hunter.sources.fetch import Cut, Deadline, Fetched, Validators, client, fetch
from hunter.sources.kinds import Read, source_kind
from hunter.sources.spec import SourceConfig

log = logging.getLogger("hunter")

PER_HOST = 2
JITTER_SECONDS = 0.25
STOP_CHECK_SECONDS = 0.1
# A thread's own deadline is this much after the poll's: the poll, not a request timing out at
# the same instant, says "no complete answer", and a thread past it ends soon after.
GRACE_SECONDS = 0.5


class ReadState(Protocol):
    """What the store remembers of a source that a read uses (store.records.ReadState)."""

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
    unwanted: int = 0  # items the source's `where` left out
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what check tells, no fault's sign
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
    cut: str = ""  # what was left unread past the bounds of one page or one read
    # Its host's turn never came before the deadline (many sources on one site, read a few at
    # a time): not a failure of the source, and it is read first next time.
    waited: bool = False

    @property
    def name(self) -> str:
        return self.source.name


def parse(source: SourceConfig, text: str, base_url: str, now: datetime) -> ParseResult:
    """Listings of one page, by the source's kind."""
    return source_kind(source.kind).parse(source, text, base_url, now)


def _read(
    http: httpx.Client,
    source: SourceConfig,
    state: ReadState | None,
    limit: HostGate,
    now: datetime,
    conditional: bool,
    deadline: Deadline,
) -> SourceRead:
    read = SourceRead(source)
    kind = source_kind(source.kind)
    if kind.read is not None:
        return _read_by_kind(http, source, state, limit, now, kind.read, read, deadline)
    cursor = ""
    for page in range(1, source.pages + 1):
        if page > 1 and source.cursor and not cursor:
            break  # the last answer named no next page
        url = source.page_url(page, cursor)
        validators = None
        body = source.page_body(page) if source.body is not None else None
        if conditional and page == 1 and state and state.validated_url == url and body is None:
            validators = Validators(url, state.etag, state.last_modified)
        with limit.slot(deadline):
            got = fetch(http, url, dict(source.headers), validators, deadline, body)
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
        if len(read.listings) >= MAX_ITEMS_PER_READ:
            del read.listings[MAX_ITEMS_PER_READ:]
            read.cut = f"read {MAX_ITEMS_PER_READ:,} listings by page {page}: no more pages read"
            read.warnings.append(read.cut)
            break
    return read


def _read_by_kind(
    http: httpx.Client,
    source: SourceConfig,
    state: ReadState | None,
    limit: HostGate,
    now: datetime,
    reader: Read,
    read: SourceRead,
    deadline: Deadline,
) -> SourceRead:
    """A source whose kind plans its own requests (several queries, a lookup first)."""

    def get(url: str) -> tuple[str, str]:
        with limit.slot(deadline):
            got = fetch(http, url, dict(source.headers), None, deadline)
        read.status = read.status or got.status
        read.retry_after = read.retry_after or got.retry_after
        if got.error:
            raise SourceError(got.error)
        read.pages += 1
        return got.url, _decode(read, got)

    try:
        parsed = reader(source, get, state.last_good_at if state else None, now)
    except SourceError as exc:
        read.error = str(exc)
        return read
    read.listings, read.skipped, read.warnings = parsed.listings, parsed.skipped, parsed.warnings
    read.notes, read.unwanted = parsed.notes, parsed.unwanted
    if len(read.listings) > MAX_ITEMS_PER_READ:
        read.cut = f"read the first {MAX_ITEMS_PER_READ:,} of {len(read.listings):,} listings"
        read.warnings.append(read.cut)
        del read.listings[MAX_ITEMS_PER_READ:]
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
    read.unwanted += parsed.unwanted
    read.warnings += parsed.warnings
    read.notes += [note for note in parsed.notes if note not in read.notes]
    read.cut = read.cut or parsed.cut
    read.pages += 1
    return parsed


def read_sources(
    sources: Sequence[SourceConfig],
    states: Mapping[str, ReadState],
    timeout: float,
    now: datetime,
    conditional: bool = True,
    stop: threading.Event | None = None,
) -> list[SourceRead]:
    """One SourceRead per source, in the sources' order (the poller chose which are due)."""
    stop = stop or threading.Event()
    started = time.monotonic()
    deadline = Deadline(started + timeout + GRACE_SECONDS, stop)
    gates = {host: HostGate() for host in {_host(s) for s in sources}}
    finished: queue.SimpleQueue[tuple[int, SourceRead]] = queue.SimpleQueue()

    # A source whose host's first turn for it came after this waited the poll out in line:
    # the time left was too short to hold against it.
    late = started + timeout / 2

    def one(n: int, source: SourceConfig, http: httpx.Client) -> None:
        gate, state = gates[_host(source)], states.get(source.name)
        try:
            read = _read(http, source, state, gate, now, conditional, deadline)
        except Cut:  # the deadline, or a stop request
            read = _cut_short(source, gate.late(late), stop.is_set(), timeout)
        except Exception as problem:  # whatever happens in a source is that source's error
            read = _failed(source, problem)
        read.seconds = time.monotonic() - started
        finished.put((n, read))

    reads: dict[int, SourceRead] = {}
    workers: dict[int, threading.Thread] = {}
    with client(timeout) as http:
        for n, source in enumerate(sources):
            worker = threading.Thread(target=one, args=(n, source, http), daemon=True)
            worker.name = f"read {source.name}"
            worker.start()
            workers[n] = worker
        while len(reads) < len(sources) and not stop.is_set():
            left = started + timeout - time.monotonic()
            if left <= 0:
                break
            try:
                n, read = finished.get(timeout=min(left, STOP_CHECK_SECONDS))
            except queue.Empty:
                continue
            reads[n] = read
    seconds = time.monotonic() - started
    for n, source in enumerate(sources):
        if n not in reads:  # no answer yet: the poll goes on without it
            waited = gates[_host(source)].late(late, workers[n].ident)
            reads[n] = _cut_short(source, waited, stop.is_set(), timeout)
            reads[n].seconds = seconds
    return [reads[n] for n in range(len(sources))]


def _host(source: SourceConfig) -> str:
    return urlsplit(source.url).netloc


def _failed(source: SourceConfig, problem: Exception) -> SourceRead:
    """The read of a source whose thread ended with an exception."""
    if isinstance(problem, ConfigError):  # e.g. an unknown category
        return SourceRead(source, error=str(problem), misconfigured=True)
    log.debug("source %s: reading failed", source.name, exc_info=problem)
    return SourceRead(source, error=f"reading it failed: {_one_line(problem)}")


def _cut_short(source: SourceConfig, waited: bool, stopping: bool, timeout: float) -> SourceRead:
    """A source read no further: hunter is stopping (no verdict on it), it waited its host's
    turn past half the poll (no verdict either: read first next time), or out of time."""
    if stopping:
        return SourceRead(source, stopped=True, error="stopped before it was read")
    if waited:
        host = urlsplit(source.url).hostname  # the host alone, never a user:password@
        said = f"its turn at {host} did not come within {timeout:g} s (read first next time)"
        return SourceRead(source, waited=True, error=said)
    return SourceRead(source, error=f"no complete answer within {timeout:g} s")


class HostGate:
    """Politeness towards one host: at most PER_HOST requests at once, and every request
    after the host's first in this poll waits a short random pause, so that many sources on
    one site never arrive as a burst. Sources on different sites wait for nothing."""

    def __init__(self) -> None:
        self._slots = threading.BoundedSemaphore(PER_HOST)
        self._lock = threading.Lock()
        self._started = 0
        self._turns: dict[int | None, float] = {}  # thread -> when it first got a slot

    @contextmanager
    def slot(self, deadline: Deadline) -> Iterator[None]:
        """Hold one of the host's slots for a request; raises Cut when none comes free before
        the deadline, or hunter stops meanwhile."""
        if not self._slots.acquire(timeout=deadline.left()):
            raise Cut("no free slot before the deadline")
        with self._lock:
            self._turns.setdefault(threading.get_ident(), time.monotonic())
        try:
            with self._lock:
                self._started += 1
                pause = random.uniform(0, JITTER_SECONDS) if self._started > 1 else 0.0
            if pause and deadline.stop.wait(min(pause, deadline.left())):
                raise Cut("stopped")
            yield
        finally:
            self._slots.release()

    def late(self, after: float, thread: int | None = None) -> bool:
        """Whether `thread` (this one by default) got its first turn here after `after`
        (time.monotonic), or none."""
        key = threading.get_ident() if thread is None else thread
        with self._lock:
            return self._turns.get(key, math.inf) > after


def _one_line(problem: BaseException) -> str:
    text = clip(" ".join(str(problem).split()), 200)
    return f"{type(problem).__name__}: {text}" if text else type(problem).__name__
