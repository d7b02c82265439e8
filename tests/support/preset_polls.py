"""How the preset tests poll: a Hunter with a scripted LINE, polled as a person would see it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from hunter.app.service import Hunter
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.scripted import Clock, ScriptedSender

PAST_EVERY_PACE = 7 * 3600  # longer than any preset's own `every` (6 h at most)


def pushes_after_two_polls(
    source: dict[str, Any], store: SQLiteStore, add: Callable[[], object], clock: Clock
) -> list[Any]:
    """The pushes of three polls: the first primes (asserted silent), then `add()` posts a
    job, then two polls a pace apart read it; the second must not repeat it."""
    config = parse_config({"sources": [source], "filter": {"include": ["python"]}})
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()
    assert line.pushes == []  # primed silently
    add()
    clock.advance(PAST_EVERY_PACE)
    hunter.poll()
    clock.advance(PAST_EVERY_PACE)
    hunter.poll()  # the same page again: nothing twice
    return line.pushes


def card_of(pushes: list[Any]) -> str:
    """The one push's messages as the text a person would search (Thai kept readable)."""
    [(_key, messages)] = pushes
    return json.dumps(messages, ensure_ascii=False)
