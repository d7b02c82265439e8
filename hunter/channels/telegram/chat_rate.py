"""Telegram's pace for one sender (its FAQ, "My bot is hitting limits"): about a message a
second in a chat, 20 messages in any minute in a group, 30 a second for the bot. When each
next message may go, in this process; the bot's pace across replicas is deliver/rate.py's."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

USER_GAP = 1.0  # seconds between two messages in a chat
# A group: 20 messages in any minute, each at a chat's pace, so that a group's few answers go
# at once instead of three seconds apart (20 a minute is a window, not a gap)
GROUP_MINUTE = 20


class ChatPace:
    """When the next message to a chat may go (monotonic seconds), kept per chat and, while no
    shared rate keeps the bot's, for the bot."""

    def __init__(self, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[int, float] = {}  # chat -> when its last message went
        self._bot = -1.0  # when the bot's last message went
        self._group: dict[int, deque[float]] = {}  # a group's last GROUP_MINUTE messages

    def wait(self, chat: int, bot: bool) -> float:
        """Seconds the next message to `chat` waits (0: now), that moment taken for it; `bot`:
        keep the bot's pace here too (no shared rate)."""
        with self._lock:
            now = self._clock()
            due = self._last.get(chat, -USER_GAP) + USER_GAP
            if chat < 0:  # a group: the minute since its 20th last message is over
                sent = self._group.setdefault(chat, deque(maxlen=GROUP_MINUTE))
                if len(sent) == GROUP_MINUTE:
                    due = max(due, sent[0] + 60.0)
                sent.append(max(now, due))
            if bot:
                due = max(due, self._bot + 1 / self.per_second)
                self._bot = max(now, due)
            self._last[chat] = max(now, due)
        return max(0.0, due - now)
