"""The status page's pure parts: the chart of a source's days and the month's line (issue 36)."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.web.status_page import chart, month_line, month_share


def test_a_chart_has_a_bar_pair_a_day_and_marks_failed_reads() -> None:
    svg = chart([10, 0, 5, 0, 0, 0, 8], [2, 0, 1, 0, 0, 0, 4], [0, 0, 0, 0, 1, 0, 0])
    assert svg.startswith("<svg") and svg.count("class=all") == 7 and svg.count("class=bar") == 7
    assert svg.count("class=fail") == 1  # the day with a failed read
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_the_months_line_says_where_this_pace_ends_the_month() -> None:
    share = month_share(datetime(2026, 11, 16, 0, tzinfo=UTC), "UTC")
    assert abs(share - 0.5) < 0.001  # the middle of November
    slow = month_line(100, 300, share)
    assert "~200 of 300 by the month's end" in slow and 'class=bar x="0"' in slow
    fast = month_line(200, 300, share)
    assert "~400 of 300" in fast and 'class=fail x="0"' in fast  # over the plan: red
