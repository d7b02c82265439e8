"""`hunter status --markdown`, as GitHub shows a job summary: a table naming each source with
its last 7 days as a line of characters, what waits and each chat; a page's text never breaks
the table. Pure: a report in, Markdown out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from markdown_it import MarkdownIt

from hunter import redact
from hunter.deliver.channel import Recipient
from hunter.status.history import Freshness, LastDays, Spread
from hunter.status.summary import as_markdown, sparkline
from hunter.status.view import (
    ChatView,
    OutboxCounts,
    QuotaView,
    SourceView,
    StatusView,
    source_view,
)
from hunter.store.records import OutboxRow, SourceRow
from hunter.store.states import ErrorKind, RowStatus

T0 = datetime(2026, 11, 30, 9, tzinfo=UTC)


def test_a_week_as_one_character_a_day() -> None:
    assert sparkline([0, 0, 0, 0, 0, 0, 0]) == "·······"
    assert sparkline([0, 1, 2, 4, 8, 0, 8]) == "·▁▂▄█·█"
    assert sparkline([5, 5, 5, 5, 5, 5, 5]) == "███████"


def source(name: str, count: int | None, error: str | None) -> SourceRow:
    return SourceRow(name, T0, T0, T0, count, error, T0, 0, None, {})


def view(
    sources: list[SourceView],
    outbox: OutboxCounts,
    sent: int = 0,
    rows: list[OutboxRow] | None = None,
    chats: list[ChatView] | None = None,
    quota: QuotaView | None = None,
) -> StatusView:
    return StatusView(
        now=T0, sources=sources, outbox=outbox, sent_last_24h=sent, rows=rows or [],
        last_poll_at=T0, last_prune_at=None, chats=chats or [], quota=quota, pace=None,
        next_push_at=None, mutes={}, owner_channel="LINE", quota_name="LINE",
    )  # fmt: skip


def chat(name: str, to: str, sent: int, waiting: int) -> ChatView:
    return ChatView(name, to, Recipient("LINE", "user"), True, 1, False, sent, sent, waiting,
                    [], "", None)  # fmt: skip


def test_a_report_as_a_summary() -> None:
    good = source("fastwork", 50, None)
    bad = source("jobs|db", None, "HTTP 503 from x\nsoon")
    fresh = Freshness(7, 7, Spread(300, 600), Spread(840, 1620))
    days = LastDays(matching=[0, 1, 2, 0, 0, 3, 1])
    report = view(
        [source_view(good, fresh, days), source_view(bad, None, None)],
        OutboxCounts(pending=2),
        sent=7,
        chats=[chat("owner", "U" + "0" * 32, 40, 2)],
        quota=QuotaView("LINE", 300, 41),
    )
    text = as_markdown(report, T0, "Asia/Bangkok")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| source | last read |")
    assert rows[1].startswith("| fastwork | 2026-11-30 16:00 | ✅ 50 listings |")
    assert "`·▃▆··█▃` 7 | 14 min (p90 27 min)" in rows[1]
    assert rows[2].startswith("| jobs\\|db |") and "HTTP 503 from x soon" in rows[2]
    assert all(row.count(" | ") == rows[0].count(" | ") for row in rows[:3])  # one line each
    assert "**Outbox**: 2 waiting, 0 to retry, 0 stuck, 7 sent in 24 h" in text
    assert "| owner | LINE | 40 | 2 |" in text and "LINE: 41 of 300 messages used" in text
    # One failed read is one (a new user's find: "(1 failed reads)")
    once = LastDays(matching=[0] * 7, failed=[0, 0, 0, 0, 0, 0, 1])
    said = as_markdown(view([source_view(good, None, once)], OutboxCounts()), T0, "UTC")
    assert "(1 failed read)" in said and "failed reads" not in said


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
    evil = source("evil[1](https://evil.example)", None, said)
    report = view([source_view(evil, None, None)], OutboxCounts(stuck=1), rows=[stuck])
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
    report = view([source_view(source("keyed", None, said), None, None)], OutboxCounts())
    text = as_markdown(report, T0, "UTC")
    assert key[:8] not in text and "invalid key \\*\\*\\*" in text


def test_applied_listings_are_dated_on_the_configs_clock() -> None:
    """A new user's find: `hunter status --applied` dated a 👍 of 03:24 in Bangkok on the
    day before, in UTC, where every other line speaks hunter.toml's timezone."""
    from hunter.rules.listing import Listing
    from hunter.status.report import applied_text
    from hunter.store.records import Marked

    at = datetime(2026, 12, 7, 20, 24, tzinfo=UTC)  # 03:24 on the 8th in Bangkok
    marked = [Marked("b:1", "applied", Listing("b:1", "b", "Logo design", "https://b.test/1"), at)]
    said = applied_text(marked, at + timedelta(minutes=31), "Asia/Bangkok")
    assert said.startswith("2026-12-08 (31 min ago): Logo design"), said
