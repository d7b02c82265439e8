"""One typed view, five renders (issue 44): the status is judged once (status_view.py) and the
text, JSON, Markdown, chat and page renders only lay it out, so they cannot disagree, and a
render that reads a field the view does not have is a type error, found before it runs."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mypy import api

from hunter.deliver.channel import Recipient
from hunter.status.history import LastDays
from hunter.status.summary import as_markdown
from hunter.status.text import as_json, as_text, chat_text
from hunter.status.view import (
    ChatView,
    OutboxCounts,
    QuotaView,
    SourceCondition,
    StatusView,
    source_view,
)
from hunter.store.records import SourceRow
from hunter.store.subscribers import Membership
from hunter.web.status_page import render

ROOT = Path(__file__).resolve().parents[3]
T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)
GONE = {"fields": {"budget": {"seen": 0, "polls": 5, "share": 0.97, "gone": True}}}


def row(name: str, error: str | None = None, broken: bool = False) -> SourceRow:
    return SourceRow(
        name, T0, T0, T0 if not error else None, 20, error, T0 - timedelta(hours=3),
        5 if broken else 0, T0 - timedelta(hours=1) if broken else None, {},
    )  # fmt: skip


def a_view() -> StatusView:
    sources = [
        source_view(row("good"), None, LastDays(matching=[0, 0, 0, 0, 0, 2, 1], reads_today=9)),
        source_view(row("flaky", "HTTP 503 from flaky.test"), None, None),
        source_view(row("dead", "no listings found", broken=True), None, None),
    ]
    owner = ChatView("owner", "U" + "1" * 32, Recipient("LINE", "user"), True, 1, False,
                     12, 12, 3, ["php"], "", None)  # fmt: skip
    return StatusView(
        now=T0, sources=sources, outbox=OutboxCounts(pending=3), sent_last_24h=4, rows=[],
        last_poll_at=T0, last_prune_at=None, chats=[owner], quota=QuotaView("LINE", 300, 12),
        pace=None, next_push_at=None, mutes={}, owner_channel="LINE", quota_name="LINE",
    )  # fmt: skip


def test_each_source_is_judged_once() -> None:
    view = a_view()
    assert [s.condition for s in view.sources] == [
        SourceCondition.OK,
        SourceCondition.FAILING,
        SourceCondition.BROKEN,
    ]
    assert view.sources[1].problem == "HTTP 503 from flaky.test"


def test_the_five_renders_say_the_same_of_each_source() -> None:
    view = a_view()
    text = as_text(view, T0, "UTC", 120)
    document = json.loads(as_json(view))
    markdown = as_markdown(view, T0, "UTC")
    chat = chat_text(view, "", "UTC")
    page = render(view, T0, "UTC")
    # broken: the alarm, in every layout
    assert "BROKEN since" in text and "⚠️ broken since" in markdown
    assert "dead: ⚠️ broken: no listings found" in chat and "broken since" in page
    assert document["sources"][2]["broken_at"] is not None
    # failing, not broken: its error, and no alarm
    assert "flaky: last poll" in text and "error: HTTP 503 from flaky.test" in text
    assert "❌ error: HTTP 503 from flaky.test" in markdown
    assert "flaky: ❌ HTTP 503 from flaky.test" in chat and "❌ HTTP 503 from flaky.test" in page
    # good, with its last days
    assert "good: ✅" in chat and "✅ 20 listings" in page and "9 reads today" in text
    assert document["sources"][0]["last_days"]["matching"] == [0, 0, 0, 0, 0, 2, 1]
    assert document["sources"][1]["last_days"] is None  # no read of it kept
    # the chat's waiting listings
    assert "3 waiting; muted php" in text and "รอส่ง 3 · waiting 3" in chat
    assert document["chats"][0]["waiting"] == 3 and "| owner | LINE | 12 | 3 |" in markdown


def test_a_render_reading_a_field_the_view_lacks_is_a_type_error(tmp_path: Path) -> None:
    """mypy --strict, as CI runs it (.ci/run), on a render that reads a field that does not
    exist: the error names it. The same render reading a real field passes."""

    def check(field: str) -> tuple[str, int]:
        module = tmp_path / f"render_{field}.py"
        module.write_text(
            textwrap.dedent(f"""\
                from hunter.status.view import StatusView


                def render(view: StatusView) -> str:
                    return ", ".join(str(s.{field}) for s in view.sources)
                """),
            encoding="utf-8",
        )
        out, _err, status = api.run(
            [
                "--strict",
                "--no-error-summary",
                "--cache-dir",
                str(ROOT / ".mypy_cache"),
                str(module),
            ]
        )
        return out, status

    out, status = check("broken_since")
    assert status == 1 and '"SourceView" has no attribute "broken_since"' in out
    assert check("condition") == ("", 0)


def test_the_subscribers_are_counted_in_every_render_and_only_where_strangers_join() -> None:
    waiting = Membership(12, 2, 3, 1, T0 - timedelta(minutes=3), 120)
    view = replace(a_view(), subscribers=waiting)
    said = "12 in, 2 waiting for approval; today 3 joined, 1 left; 0.4 messages a second, the "
    said += "longest wait 3 min"
    assert f"Subscribers: {said}" in as_text(view, T0, "UTC", 120)
    assert json.loads(as_json(view))["subscribers"] == {
        "in": 12, "waiting_for_approval": 2, "joined_today": 3, "left_today": 1,
        "messages_a_second": 0.4, "oldest_waiting": "2026-12-01T08:57:00+00:00",
    }  # fmt: skip
    assert f"Subscribers: {said}" in as_markdown(view, T0, "UTC")
    assert said in render(view, T0, "UTC")
    assert said in chat_text(view, "", "UTC")  # the owner's chat
    assert "subscribers" not in chat_text(view, "design", "UTC")  # another chat's: not its
    closed = a_view()  # join = "closed": no word of subscribers anywhere
    assert "Subscribers" not in as_text(closed, T0, "UTC", 120) + as_markdown(closed, T0, "UTC")
    assert json.loads(as_json(closed))["subscribers"] is None


def test_a_learned_schedule_says_the_most_reads_a_day_in_each_render_that_counts_them() -> None:
    """Issue 56: the reads today beside the budget its schedule keeps (kept with its cadence);
    a fixed schedule has none and says only its reads."""
    learned = replace(row("good"), cadence={"rate": 7.1, "budget": 96})
    days = LastDays(matching=[0] * 7, reads_today=9)
    view = replace(a_view(), sources=[source_view(learned, None, days)])
    assert "9 reads today (at most 96 a day)" in as_text(view, T0, "UTC", 120)
    assert "today 9 of 96 reads" in render(view, T0, "UTC")
    assert json.loads(as_json(view))["sources"][0]["schedule"]["read_budget"] == 96
    fixed = replace(a_view(), sources=[source_view(row("good"), None, days)])
    assert "9 reads today; next read" in as_text(fixed, T0, "UTC", 120)
    assert "today 9 reads" in render(fixed, T0, "UTC")
    assert json.loads(as_json(fixed))["sources"][0]["schedule"]["read_budget"] is None
