"""The unit tier: hunter's parts in this process, with nothing of the network. A unit test
starts no server, opens no connection and runs no subprocess (a test that needs a board, LINE
or the CLI belongs in tests/integration or tests/e2e); the whole tier runs in seconds. Its
store is a real SQLite file."""

from __future__ import annotations

import socket
import subprocess

import pytest

from hunter.rules import gazetteer
from tests.support.sqlite_store import store

__all__ = ["store"]


@pytest.fixture(autouse=True)
def no_network_and_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError(
            "a unit test starts no server, opens no socket and runs no process: "
            "move it to tests/integration (local servers) or tests/e2e (the CLI)"
        )

    monkeypatch.setattr(socket.socket, "bind", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    # The gazetteer reads GeoNames' cities in a child process of its own (its memory given
    # back whole); here, where no process starts, it takes its other way: in this one.
    monkeypatch.setattr(gazetteer, "READ_IN_CHILD", False)
