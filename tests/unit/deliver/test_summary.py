"""`hunter status --markdown`, as GitHub shows a job summary: a table naming each source with
its last 7 days as a line of characters, what waits and each chat; a page's text never breaks
the table. Pure: a report in, Markdown out."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.deliver.channel import Recipient
from hunter.deliver.summary import as_markdown, sparkline
from hunter.store.records import SourceRow, StatusReport

T0 = datetime(2026, 11, 30, 9, tzinfo=UTC)


def test_a_week_as_one_character_a_day() -> None:
    assert sparkline([0, 0, 0, 0, 0, 0, 0]) == "·······"
    assert sparkline([0, 1, 2, 4, 8, 0, 8]) == "·▁▂▄█·█"
    assert sparkline([5, 5, 5, 5, 5, 5, 5]) == "███████"


def source(name: str, count: int | None, error: str | None) -> SourceRow:
    return SourceRow(name, T0, T0, T0, count, error, T0, 0, None, {})


def test_a_report_as_a_summary() -> None:
    good = source("fastwork", 50, None)
    bad = source("jobs|db", None, "HTTP 503 from x\nsoon")
    report = StatusReport(
        outbox={"pending": 2, "sending": 0, "retry": 0, "stuck": 0},
        sent_last_24h=7,
        rows=[],
        sources=[good, bad],
        last_prune_at=None,
        freshness={"fastwork": {"sent": 7, "posted_times": 7,
                                "posted_to_found": {"median_s": 300, "p90_s": 600},
                                "posted_to_sent": {"median_s": 840, "p90_s": 1620}}},
        history={"fastwork": {"matching": [0, 1, 2, 0, 0, 3, 1], "failed": [0] * 7}},
        chats=[{"name": "LINE_TO", "to": "U" + "0" * 32, "sent_this_month": 40, "waiting": 2}],
        recipients={"U" + "0" * 32: Recipient("LINE", "user")},
        quota={"limit": 300, "used": 41},
        quota_name="LINE",
    )  # fmt: skip
    text = as_markdown(report, T0, "Asia/Bangkok")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| source | last read |")
    assert rows[1].startswith("| fastwork | 2026-11-30 16:00 | ✅ 50 listings |")
    assert "`·▃▆··█▃` 7 | 14 min (p90 27 min)" in rows[1]
    assert rows[2].startswith("| jobs\\|db |") and "HTTP 503 from x soon" in rows[2]
    assert all(row.count(" | ") == rows[0].count(" | ") for row in rows[:3])  # one line each
    assert "**Outbox**: 2 waiting, 0 to retry, 0 stuck, 7 sent in 24 h" in text
    assert "| LINE_TO | LINE | 40 | 2 |" in text and "LINE: 41 of 300 messages used" in text
