"""A stranger's attack on hunter's public HTTP side, from 127.0.0.1, bounded in count and time.

What issue 21 measured against the first webhook server, made repeatable: connections that
trickle their headers a byte every few seconds (slowloris), connections that announce a 1 MB
body and hold its last byte, and clients posting 1 MB unsigned bodies as fast as they can.
Issue 29's second attack: connections that send a whole signed-looking head announcing a
60 KB body, then nothing, each opened again as soon as the server closes it. Issue 37's third:
connections pipelining `GET /healthz` back to back as fast as the server reads them, and
connections posting 600 KB bodies in one-byte chunks behind any `x-line-signature`.
Meanwhile a prober posts LINE-signed requests (and Telegram's, with its secret, when one is
given) and asks /healthz, and a sampler reads the
server's threads, memory and open files from /proc. Used by tests/e2e/test_webhook_siege.py
and bench/siege.py; it only ever connects to the address it is given (loopback in both).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.webhook import BOT, signature

BODY = 1024 * 1024


@dataclass(frozen=True)
class Attack:
    slowloris: int = 500  # connections trickling their headers
    trickle_every: float = 5.0  # seconds between two of their bytes
    held_bodies: int = 200  # connections holding the last byte of a 1 MB body
    posters: int = 16  # clients posting 1 MB unsigned bodies in a loop
    seconds: float = 30.0  # how long the slow connections are kept up
    posting_seconds: float = 15.0  # how long the posters post
    probe_every: float = 0.5  # a signed request, and a /healthz, this often
    held_small: int = 0  # connections holding back a 60 KB body, reopened when closed
    pipeliners: int = 0  # connections writing GET /healthz back to back, reopened when closed
    chunkers: int = 0  # clients posting 600 KB bodies in one-byte chunks, in a loop


@dataclass
class Report:
    signed: list[tuple[int, float]] = field(default_factory=list)  # (status, seconds)
    healthz: list[tuple[int, float]] = field(default_factory=list)
    slow_dropped_after: list[float] = field(default_factory=list)  # seconds, server closed
    slow_still_open: int = 0  # at the attack's end
    held_dropped_after: list[float] = field(default_factory=list)
    held_still_open: int = 0
    unsigned_answers: dict[int, int] = field(default_factory=dict)
    held_small_opened: int = 0  # connections the held-small-bodies attack opened in all
    telegram: list[tuple[int, float]] = field(default_factory=list)  # (status, seconds)
    pipelined_answers: int = 0  # answers the pipelining connections read
    pipelined_opened: int = 0  # connections they opened in all
    chunked_answers: dict[int, int] = field(default_factory=dict)
    threads: list[int] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    open_files: list[int] = field(default_factory=list)

    def slowest_signed(self) -> float:
        return max((s for _, s in self.signed), default=float("inf"))

    def slowest(self, answers: list[tuple[int, float]]) -> float:
        return max((s for _, s in answers), default=float("inf"))

    def summary(self) -> dict[str, object]:
        ok = [s for status, s in self.signed if status == 200]
        return {
            "signed": len(self.signed),
            "signed_200": len(ok),
            "signed_median_s": round(statistics.median(ok), 3) if ok else None,
            "signed_p99_s": _p99(ok),
            "signed_max_s": round(self.slowest_signed(), 3),
            "telegram": len(self.telegram),
            "telegram_200": sum(1 for status, _ in self.telegram if status == 200),
            "telegram_p99_s": _p99([s for _, s in self.telegram]),
            "telegram_max_s": round(self.slowest(self.telegram), 3) if self.telegram else None,
            "healthz": len(self.healthz),
            "healthz_answered": sum(1 for status, _ in self.healthz if status in (200, 503)),
            "healthz_p99_s": _p99([s for _, s in self.healthz]),
            "healthz_max_s": round(self.slowest(self.healthz), 3),
            "slow_dropped": len(self.slow_dropped_after),
            "slow_dropped_max_s": round(max(self.slow_dropped_after, default=0.0), 1),
            "slow_still_open": self.slow_still_open,
            "held_dropped": len(self.held_dropped_after),
            "held_still_open": self.held_still_open,
            "unsigned_answers": dict(sorted(self.unsigned_answers.items())),
            "held_small_opened": self.held_small_opened,
            "pipelined_answers": self.pipelined_answers,
            "pipelined_opened": self.pipelined_opened,
            "chunked_answers": dict(sorted(self.chunked_answers.items())),
            "threads_max": max(self.threads, default=0),
            "rss_mb_start": self.rss_mb[0] if self.rss_mb else None,
            "rss_mb_max": max(self.rss_mb, default=0.0),
            "open_files_max": max(self.open_files, default=0),
        }


def _p99(seconds: list[float]) -> float | None:
    if not seconds:
        return None
    ranked = sorted(seconds)
    return round(ranked[min(len(ranked) - 1, int(len(ranked) * 0.99))], 3)


def raise_open_file_limit() -> None:
    """The attack holds hundreds of sockets in this process: lift the soft limit to the hard."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def besiege(
    host: str, port: int, pid: int, secret: str, attack: Attack, telegram_secret: str = ""
) -> Report:
    """Run `attack` against host:port (the process `pid` serves it) and report what held;
    with `telegram_secret`, Telegram's webhook is probed beside LINE's."""
    raise_open_file_limit()
    return asyncio.run(_Siege(host, port, pid, secret, attack, telegram_secret).run())


class _Siege:
    def __init__(
        self, host: str, port: int, pid: int, secret: str, attack: Attack, telegram_secret: str
    ) -> None:
        self.host, self.port, self.pid, self.secret = host, port, pid, secret
        self.telegram_secret = telegram_secret
        self.attack = attack
        self.report = Report()
        self.started = 0.0

    async def run(self) -> Report:
        self.started = time.monotonic()
        end = self.started + self.attack.seconds
        tasks = [asyncio.create_task(self._slow(end)) for _ in range(self.attack.slowloris)]
        tasks += [asyncio.create_task(self._held(end)) for _ in range(self.attack.held_bodies)]
        posting_end = self.started + self.attack.posting_seconds
        tasks += [
            asyncio.create_task(self._poster(posting_end)) for _ in range(self.attack.posters)
        ]
        tasks += [asyncio.create_task(self._held_small(end)) for _ in range(self.attack.held_small)]
        tasks += [asyncio.create_task(self._pipeline(end)) for _ in range(self.attack.pipeliners)]
        tasks += [asyncio.create_task(self._chunker(end)) for _ in range(self.attack.chunkers)]
        tasks += [
            asyncio.create_task(self._probe(end)),
            asyncio.create_task(self._sample(end)),
        ]
        await asyncio.gather(*tasks)
        return self.report

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            return await asyncio.wait_for(asyncio.open_connection(self.host, self.port), 10)
        except (OSError, TimeoutError):
            return None

    async def _held_until_closed(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, end: float, every: float
    ) -> float | None:
        """Keep the connection, writing a byte every `every` s (0: none); the seconds after
        which the server closed it, or None if it was still open at `end`."""
        opened = time.monotonic()
        while time.monotonic() < end:
            try:
                await asyncio.wait_for(
                    reader.read(65536), min(every or 1.0, end - time.monotonic())
                )
                if reader.at_eof():
                    return time.monotonic() - opened
            except TimeoutError:
                pass
            except OSError:
                return time.monotonic() - opened
            if every:
                try:
                    writer.write(b"x")
                    await writer.drain()
                except OSError:
                    return time.monotonic() - opened
        return None

    async def _slow(self, end: float) -> None:
        head = b"POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nX-Slow: "
        closed = await self._hold(head, end, self.attack.trickle_every)
        if closed is None:
            self.report.slow_still_open += 1
        elif closed >= 0:
            self.report.slow_dropped_after.append(closed)

    async def _held(self, end: float) -> None:
        head = (
            "POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"x-line-signature: {'A' * 43}=\r\nContent-Length: {BODY}\r\n\r\n"
        ).encode()
        closed = await self._hold(head + b"{" * (BODY - 1), end, 0)
        if closed is None:
            self.report.held_still_open += 1
        elif closed >= 0:
            self.report.held_dropped_after.append(closed)

    async def _held_small(self, end: float) -> None:
        """A complete head, a small body announced and never sent; again once it is closed."""
        head = (
            "POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"x-line-signature: {'A' * 43}=\r\nContent-Length: 60000\r\n\r\n"
        ).encode()
        while time.monotonic() < end:
            self.report.held_small_opened += 1
            if await self._hold(head, end, 0) == -1.0:
                await asyncio.sleep(0.05)  # could not connect: the backlog is full

    async def _hold(self, sent: bytes, end: float, every: float) -> float | None:
        """Open a connection, send `sent`, keep it (a byte every `every` s); the seconds until
        the server closed it, None if still open at `end`, -1 if it never opened."""
        connection = await self._open()
        if connection is None:
            return -1.0
        reader, writer = connection
        opened = time.monotonic()
        try:
            writer.write(sent)
            await writer.drain()
            return await self._held_until_closed(reader, writer, end, every)
        except OSError:
            return time.monotonic() - opened
        finally:
            writer.close()

    async def _pipeline(self, end: float) -> None:
        """Write GET /healthz back to back on one keep-alive connection, as fast as the server
        takes them, reading (and counting) its answers; again when the server closes it."""
        burst = b"GET /healthz HTTP/1.1\r\nHost: hunter\r\n\r\n" * 256
        while time.monotonic() < end:
            connection = await self._open()
            if connection is None:
                await asyncio.sleep(0.05)
                continue
            reader, writer = connection

            async def drink(reader: asyncio.StreamReader = reader) -> None:
                with contextlib.suppress(OSError):
                    while chunk := await reader.read(65536):
                        self.report.pipelined_answers += chunk.count(b"HTTP/1.1 ")

            self.report.pipelined_opened += 1
            reading = asyncio.create_task(drink())
            try:
                while time.monotonic() < end and not reading.done():
                    writer.write(burst)
                    await asyncio.wait_for(writer.drain(), max(0.01, end - time.monotonic()))
                    await asyncio.sleep(0)  # drain need not wait: let the answers be read
            except (OSError, TimeoutError):
                pass
            finally:
                writer.close()
                reading.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reading

    async def _chunker(self, end: float) -> None:
        """POST a 600 KB body in one-byte chunks behind a made-up signature, again and again."""
        head = (
            "POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"x-line-signature: {'A' * 43}=\r\nTransfer-Encoding: chunked\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        body = b"1\r\n{\r\n" * 600_000 + b"0\r\n\r\n"
        while time.monotonic() < end:
            connection = await self._open()
            if connection is None:
                await asyncio.sleep(0.05)
                continue
            status = await _exchange(*connection, head + body, 10)
            self.report.chunked_answers[status] = self.report.chunked_answers.get(status, 0) + 1

    async def _poster(self, end: float) -> None:
        body = b"\0" * BODY
        head = (
            "POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"Content-Length: {BODY}\r\nConnection: close\r\n\r\n"
        ).encode()
        while time.monotonic() < end:
            connection = await self._open()
            if connection is None:
                await asyncio.sleep(0.05)
                continue
            status = await _exchange(*connection, head + body, 5)
            self.report.unsigned_answers[status] = self.report.unsigned_answers.get(status, 0) + 1

    async def _probe(self, end: float) -> None:
        body = json.dumps({"destination": BOT, "events": []}).encode()
        signed = (
            "POST /line/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"x-line-signature: {signature(body, self.secret)}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body
        health = b"GET /healthz HTTP/1.1\r\nHost: hunter\r\nConnection: close\r\n\r\n"
        update = json.dumps({"update_id": 1, "edited_channel_post": {"message_id": 1}}).encode()
        telegram = (
            "POST /telegram/webhook HTTP/1.1\r\nHost: hunter\r\nContent-Type: application/json\r\n"
            f"X-Telegram-Bot-Api-Secret-Token: {self.telegram_secret}\r\n"
            f"Content-Length: {len(update)}\r\nConnection: close\r\n\r\n"
        ).encode() + update
        await asyncio.sleep(1.0)  # let the attack's connections open first
        probes = [signed, health, *([telegram] if self.telegram_secret else [])]
        await asyncio.to_thread(self._probe_apart, probes, end)

    def _probe_apart(self, probes: list[bytes], end: float) -> None:
        """The probes from threads of their own, with blocking sockets: LINE's servers do not
        wait on the attacker. Asked from the attack's event loop, a probe queued behind
        hundreds of attacking tasks, and on a busy machine its time was the loop's, not the
        server's (a median of 0.7 s under the suite's load, 0.003 s alone)."""
        due = time.monotonic()
        with ThreadPoolExecutor(len(probes)) as pool:
            while due < end:
                answers = list(pool.map(self._request_apart, probes))
                self.report.signed.append(answers[0])
                self.report.healthz.append(answers[1])
                if self.telegram_secret:
                    self.report.telegram.append(answers[2])
                # A steady rhythm, however long the answers took: the count of probes then
                # says how long the server was watched, not how busy the machine was.
                due = max(due + self.attack.probe_every, time.monotonic())
                time.sleep(max(0.0, due - time.monotonic()))

    def _request_apart(self, raw: bytes) -> tuple[int, float]:
        """(status, seconds) of one request on a connection of its own; 0 when none came."""
        started = time.monotonic()
        try:
            with socket.create_connection((self.host, self.port), timeout=10) as connection:
                with contextlib.suppress(OSError):
                    connection.sendall(raw)
                line = connection.makefile("rb").readline()
            status = int(line.split()[1]) if line.startswith(b"HTTP/") else 0
        except (OSError, ValueError, IndexError):
            status = 0
        return status, time.monotonic() - started

    async def _sample(self, end: float) -> None:
        while time.monotonic() < end:
            status = _proc_status(self.pid)
            if status:
                self.report.threads.append(int(status.get("Threads", "0")))
                self.report.rss_mb.append(round(int(status["VmRSS"].split()[0]) / 1024, 1))
            with contextlib.suppress(OSError):
                self.report.open_files.append(len(list(Path(f"/proc/{self.pid}/fd").iterdir())))
            await asyncio.sleep(1.0)


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes, timeout: float
) -> int:
    """Send `raw`, read the answer's status line: its status, 0 when none came. The server
    may close before the whole request is sent (a refusal): the answer is read anyway."""
    try:
        with contextlib.suppress(OSError, TimeoutError):
            writer.write(raw)
            await asyncio.wait_for(writer.drain(), timeout)
        line = await asyncio.wait_for(reader.readline(), timeout)
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        return 0
    finally:
        writer.close()


def _proc_status(pid: int) -> dict[str, str]:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)
