"""The line each poll logs (app/service.py's PollReport): what it read, found and sent."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.app.service import PollReport
from hunter.deliver.deliverer import Delivery


def test_the_polls_line_says_until_when_in_the_configs_timezone() -> None:
    """A new user's find: quiet hours read in Asia/Bangkok, and the line said "held by quiet
    hours until 2026-12-08 00:00 UTC", a time of no clock they keep."""
    held = Delivery(held=1, held_by="quiet hours", next_push_at=datetime(2026, 12, 8, tzinfo=UTC))
    line = PollReport([], held, timezone="Asia/Bangkok").line()
    assert "1 held by quiet hours until 2026-12-08 07:00 Asia/Bangkok" in line
