"""The integration tier: hunter's real parts in this process against real local servers (a
job board, the LINE stand-in, hunter's own HTTP server) on 127.0.0.1, with a real SQLite store
and, where time matters, a fake clock. The CLI as a subprocess is tests/e2e; every database
adapter is tests/contract."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hunter.channels.telegram.send import TelegramSender
from tests.support.remote_boards import RemoteBoards
from tests.support.scripted import Clock
from tests.support.sqlite_store import store
from tests.support.telegram_standin import TOKEN, TelegramStandIn

__all__ = ["store"]


@pytest.fixture
def telegram_sender(telegram: TelegramStandIn) -> Iterator[TelegramSender]:
    """hunter's Telegram channel, pointed at the Bot API stand-in."""
    channel = TelegramSender(TOKEN, telegram.url, deadline=2.0)
    yield channel
    channel.close()


@pytest.fixture
def boards(clock: Clock) -> Iterator[RemoteBoards]:
    """The remote boards' stand-in (Freelancer, Himalayas, Remotive, Jobicy), on the test's
    clock (a test module says where its clock starts: a `clock` fixture)."""
    stand_in = RemoteBoards(clock=clock)
    yield stand_in
    stand_in.close()
