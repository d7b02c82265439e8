"""`hunter status --markdown`, as GitHub shows a job summary: a table naming each source with
its last 7 days as a line of characters, what waits and each chat; a page's text never breaks
the table. Pure: a report in, Markdown out."""

from __future__ import annotations

from datetime import UTC, datetime

from markdown_it import MarkdownIt

from hunter import redact
from hunter.deliver.channel import Recipient
from hunter.deliver.summary import as_markdown, sparkline
from hunter.store.records import OutboxRow, SourceRow, StatusReport
from hunter.store.states import ErrorKind, RowStatus

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


def test_nothing_from_a_board_or_a_site_renders_as_markup() -> None:
    """Issue 45, finding 8: only `|` was escaped. A site's error text became a link and a raw
    <img> (entities are unescaped on the way in), and a backtick in a board's id closed the
    stuck row's code span. Rendered as CommonMark with GitHub's tables (markdown-it-py, as a
    person sees the job summary): the words are there, as text; no link, image, tag or code
    span of theirs."""
    said = (
        "[jobboard.fastwork.co/apply](https://evil.example/x) <img src=x onerror=alert(1)> "
        "&lt;b&gt;bold&lt;/b&gt; **loud** ![i](https://evil.example/i.png) ~~gone~~ a|b"
    )
    stuck = OutboxRow(
        "board:7`<b>x</b>`",
        RowStatus.STUCK,
        "t",
        1,
        None,
        None,
        None,
        ErrorKind.PERMANENT,
        said,
        T0,
        chat="team",
    )
    report = StatusReport(
        outbox={"pending": 0, "sending": 0, "retry": 0, "stuck": 1}, sent_last_24h=0,
        rows=[stuck], sources=[source("evil[1](https://evil.example)", None, said)],
        last_prune_at=None,
    )  # fmt: skip
    shown = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    page = shown.render(as_markdown(report, T0, "UTC"))
    for markup in ("<a ", "<img", "<b>", "<strong>loud", "<s>", "<del>", "onerror=alert(1)>"):
        assert markup not in page
    assert "[jobboard.fastwork.co/apply](https://evil.example/x)" in page  # as text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<code>board:7`&lt;b&gt;x&lt;/b&gt;`</code> in chat team" in page  # whole, whose
    assert page.count("<tr>") == 2  # the header and one source: no row broken apart


def test_a_secret_a_site_quotes_is_out_before_a_cell_is_cut() -> None:
    """A site's error quoting back the key hunter sent it: the key is redacted before the
    cell is cut to its 120 characters, so no half of it is left for the whole output's
    redaction to miss."""
    key = "sk-summary-" + "9f" * 20
    redact.register(key)
    said = "x" * 90 + f" invalid key {key}"  # the key straddles the 120th character
    report = StatusReport(
        outbox={"pending": 0, "sending": 0, "retry": 0, "stuck": 0}, sent_last_24h=0,
        rows=[], sources=[source("keyed", None, said)], last_prune_at=None,
    )  # fmt: skip
    text = as_markdown(report, T0, "UTC")
    assert key[:8] not in text and "invalid key \\*\\*\\*" in text
