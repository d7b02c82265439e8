"""The reader against real HTTP servers on 127.0.0.1: each source on a thread of its own with
one deadline for the poll, a stop request that ends the wait at once, at most two requests at
once to one site, and HTTPS verified against the CA bundle (or SSL_CERT_FILE, as httpx reads
it) while a poll of plain-http pages never loads that bundle."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hunter.settings.config import parse_config
from hunter.sources.reader import read_sources
from hunter.sources.spec import SourceConfig
from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config

T0 = datetime(2026, 12, 2, 9, tzinfo=UTC)
SEED = [("1", "python job one"), ("2", "python job two")]


def sources(*tables: dict[str, object]) -> list[SourceConfig]:
    return list(parse_config({"sources": list(tables)}).sources)


def readers() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("read ")]


def wait_until_gone(names: list[str], seconds: float) -> list[str]:
    deadline = time.monotonic() + seconds
    while (left := [n for n in readers() if n in names]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_a_trickling_page_is_cut_at_the_deadline_and_its_thread_ends(board: Board) -> None:
    slow = board.serve_jobs("/slow", SEED * 20, trickle=0.2)  # a byte every 0.2 s: minutes
    fast = board.serve_jobs("/fast", SEED)
    started = time.monotonic()
    reads = read_sources(sources(html_source("slow", slow), html_source("fast", fast)), {}, 1, T0)
    took = time.monotonic() - started
    assert [r.error for r in reads] == ["no complete answer within 1 s", None]
    assert len(reads[1].listings) == 2  # the slow one delayed nothing
    assert took < 1.5
    # No thread reads on in the background: each request has only the time left.
    assert wait_until_gone(["read slow"], 2) == []


def test_a_stop_request_ends_the_wait_at_once(board: Board) -> None:
    hanging = board.serve_jobs("/hang", SEED, hang=30)
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    [read] = read_sources(sources(html_source("hang", hanging)), {}, 60, T0, stop=stop)
    assert time.monotonic() - started < 1.0
    assert read.stopped and read.error == "stopped before it was read"


def test_one_site_gets_at_most_two_requests_at_once(board: Board) -> None:
    tables = [html_source(f"s{n}", board.serve_jobs(f"/s{n}", SEED, hang=0.2)) for n in range(6)]
    reads = read_sources(sources(*tables), {}, 20, T0)
    assert [r.error for r in reads] == [None] * 6
    assert board.most_at_once == 2


def test_sites_apart_are_read_at_once() -> None:
    boards = [Board() for _ in range(6)]
    try:
        tables = [
            html_source(f"s{n}", b.serve_jobs("/jobs", SEED, hang=0.5))
            for n, b in enumerate(boards)
        ]
        started = time.monotonic()
        reads = read_sources(sources(*tables), {}, 20, T0)
        assert [r.error for r in reads] == [None] * 6
        assert time.monotonic() - started < 2.0  # not 6 x 0.5 s one after another
    finally:
        for b in boards:
            b.close()


@pytest.fixture
def tls_board(tmp_path: Path) -> Iterator[tuple[Board, Path]]:
    from tests.support.tls import self_signed  # cryptography comes with supabase

    certificate = self_signed(tmp_path)
    server = Board(tls=certificate.server_context())
    yield server, certificate.cert
    server.close()


def test_https_is_verified_against_the_trusted_certificates(
    tmp_path: Path, tls_board: tuple[Board, Path]
) -> None:
    board, cert = tls_board
    url = board.serve_jobs("/jobs", SEED)
    assert url.startswith("https://")
    folder = tmp_path / "run"
    folder.mkdir()
    write_config(folder, [html_source("tls", url)])
    # Each in a process of its own: the trusted certificates are the process's, read once.
    untrusted = run_hunter(folder, "run", "--once", env=base_env(folder), own_process=True)
    reason = "could not connect: its certificate is not trusted (self-signed certificate)"
    assert f"source tls: {reason}" in untrusted.stderr
    assert board.hits == {}  # no request went over a connection it could not trust
    trusted = run_hunter(
        folder, "run", "--once", env=base_env(folder, SSL_CERT_FILE=str(cert)), own_process=True
    )
    assert trusted.returncode == 0, trusted.stderr
    assert "source tls primed silently: 2 listings" in trusted.stderr


# What a quiet cron run of plain-http pages must not pay for (bench/peer.py): asyncio (the
# synchronous client, fetch.py). httpcore and h11 are httpx's own transport, which the sources
# read over since issue 62. Read in a fresh interpreter, as a cron's `run --once` is.
QUIET_READ = """
import sys
from datetime import UTC, datetime
from hunter.settings.config import parse_config
from hunter.sources.reader import read_sources
source = {"name": "plain", "kind": "html", "url": sys.argv[1], "item": "li.job",
          "id": "@data-jid", "title": "h3 a", "link": "h3 a@href"}
[read] = read_sources(parse_config({"sources": [source]}).sources, {}, 10, datetime.now(UTC))
print(len(read.listings), read.error)
print(" ".join(m for m in ("asyncio", "httpcore", "h11") if m in sys.modules) or "-")
"""


def test_a_plain_http_read_loads_no_asyncio_and_reads_over_httpx_own_transport(
    board: Board,
) -> None:
    url = board.serve_jobs("/jobs", SEED)
    done = subprocess.run(
        [sys.executable, "-c", QUIET_READ, url], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["2 None", "httpcore h11"]


def test_a_bot_check_page_says_so_and_what_to_read_instead(board: Board) -> None:
    """A new user's find: a board behind Cloudflare's challenge said "HTTP 403" and no more.
    Cloudflare marks every challenge page with `cf-mitigated: challenge` (its docs, "Detect a
    Challenge Page response"); a plain 403 stays a plain 403."""
    page = "<html><title>Just a moment...</title></html>"
    checked = board.serve("/jobs", page, status=403, headers={"cf-mitigated": "challenge"})
    refused = board.serve("/other", page, status=403)
    reads = read_sources(sources(html_source("cf", checked), html_source("no", refused)), {}, 5, T0)
    host = checked.split("//")[1].split("/")[0].split(":")[0]
    assert reads[0].error == (
        f"HTTP 403 from {host}: the site shows a bot check (Cloudflare's challenge page), "
        "which hunter cannot pass; read the board's feed or API instead if it has one (a "
        "preset: docs/sources.md)"
    )
    assert reads[1].error == f"HTTP 403 from {host}"
