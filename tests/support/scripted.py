"""A fake clock and a scripted LINE sender, for the deliverer's fast tests (no HTTP)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from hunter.channels.line.answers import LineError
from hunter.channels.line.render import LineCards
from hunter.deliver.outcome import Kind, PushResult


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class ScriptedSender(LineCards):
    """Answers each push from a script (then 200), or by a rule over the pushed titles."""

    name = "LINE"  # it stands in for LINE: the words people read name it

    def __init__(self) -> None:
        self.script: list[PushResult] = []
        self.reject_title: str | None = None  # a 400 for any push that holds this title
        self.pushes: list[tuple[str, list[dict[str, Any]]]] = []
        self.quota_answer: tuple[int | None, int] | None = None
        self.quota_error: str | None = None  # LINE's quota API failing, in these words
        self.to: list[str | None] = []  # where each push went (None: LINE_TO)
        self.member_counts: dict[str, int] = {}  # a group's or room's members (else 1)

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        self.pushes.append((retry_key, messages))
        self.to.append(to)
        if self.reject_title and self.reject_title in str(messages):
            return PushResult(Kind.REJECTED, 400, "May not be empty")
        return self.script.pop(0) if self.script else PushResult(Kind.SENT, 200)

    def members(self, to: str) -> int:
        return self.member_counts.get(to, 1)

    def quota(self) -> tuple[int | None, int] | None:
        if self.quota_error:
            raise LineError(self.quota_error)
        return self.quota_answer
