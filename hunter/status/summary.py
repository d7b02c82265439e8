"""The status as GitHub-flavoured Markdown (`hunter status --markdown`), for a run without a
server: the Actions workflow in deploy/ appends it to the job's summary after each run, so
its user sees each source, what waits and each chat at a glance, where a poll-only run had
nothing but a green or red job. The same report `hunter status` prints."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from hunter.redact import clip
from hunter.status.history import FRESH_DAYS, duration, merged_text
from hunter.status.text import membership_text
from hunter.status.view import SourceCondition, StatusView
from hunter.words import plural

BARS = "▁▂▃▄▅▆▇█"


def sparkline(counts: list[int]) -> str:
    """One character a day, its height the day's count against the week's most; "·" for
    none."""
    most = max(counts, default=0)
    if not most:
        return "·" * len(counts)
    return "".join(
        "·" if n == 0 else BARS[min(len(BARS) - 1, (n * len(BARS) - 1) // most)] for n in counts
    )


# What Markdown reads as markup, where a board's or a site's text may hold it: links and
# images ([]()!), raw HTML and entities (<>&), emphasis and code (*_`~), the table's pipe.
# An underscore inside a word (LINE_TO) is no emphasis (CommonMark 6.2), and left as it is.
_MARKUP = re.compile(r"([\\`*\[\]()<>!|~&]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def _line(text: str, most: int = 120) -> str:
    """Text from a board or a site on one line, secrets out (a site may quote back the key
    hunter sent it; cut first, a secret would no longer be found whole), then cut."""
    return clip(" ".join(text.split()), most)


def _cell(text: str, most: int = 120) -> str:
    """Text from a board or a site as plain text: `_line`, then each character Markdown
    would read as markup escaped (cut after, an escape could lose its half)."""
    return _MARKUP.sub(r"\\\1", _line(text, most))


def _code(text: str) -> str:
    """A code span holding `text` whole: its fence is longer than any run of backticks in it
    (CommonMark 6.1), so a backtick in a board's id cannot close it."""
    text = _line(text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}"


def as_markdown(view: StatusView, now: datetime, timezone: str) -> str:
    tz = ZoneInfo(timezone)

    def at(value: datetime | None) -> str:
        return "never" if value is None else f"{value.astimezone(tz):%Y-%m-%d %H:%M}"

    lines = [
        "## hunter",
        "",
        f"Last poll {at(view.last_poll_at)} · last prune {at(view.last_prune_at)} ({timezone})",
        "",
        f"| source | last read | state | new matches, last {FRESH_DAYS} days | posted → sent "
        "| fields |",
        "|---|---|---|---|---|---|",
    ]
    for source in view.sources:
        row = source.row
        state = "✅ " + f"{row.last_count} listings" if not source.problem else "❌ error"
        if source.condition is SourceCondition.BROKEN:
            state = f"⚠️ broken since {at(row.broken_at)}"
        if source.problem:
            state += f": {source.problem}"
        days, failed = source.days.matching, sum(source.days.failed)
        merged = sum(source.days.merged)
        waited = "-"
        if source.fresh:
            spread = source.fresh.posted_to_sent
            waited = f"{duration(spread.median_s)} (p90 {duration(spread.p90_s)})"
        failed_reads = f" ({plural(failed, 'failed read')})" if failed else ""
        lines.append(
            f"| {_cell(source.name)} | {at(row.last_poll_at)} | {_cell(state)} | "
            f"`{sparkline(days)}` {sum(days)}{failed_reads}"
            f"{f'; {merged_text(merged)}' if merged else ''} | "
            f"{waited} | {_cell(source.fields)} |"
        )
    if not view.sources:
        lines.append("| (none polled yet) | | | | | |")
    outbox = view.outbox
    lines += [
        "",
        f"**Outbox**: {outbox.pending} waiting, {outbox.retry} to retry, "
        f"{outbox.stuck} stuck, {view.sent_last_24h} sent in 24 h",
    ]
    if view.no_channel:
        # hunter's own words, naming what to set: whole (cut at 120, it ended "Set LINE_TO, w")
        why = _cell(view.no_channel, 600)
        lines += ["", f"**{outbox.pending} alerts wait for a channel**: {why}"]
    if outbox.stuck:
        lines.append("")
        for stuck in view.stuck_rows:
            whose = f" in chat {_cell(stuck.chat)}" if stuck.chat else ""
            lines.append(f"- {_code(stuck.job_id)}{whose}: {_cell(stuck.last_error or '')}")
        lines.append("\n`hunter retry --all` (or `hunter retry JOB_ID`) sends them again.")
    lines += _chats(view)
    if view.subscribers is not None:
        lines.append(f"\nSubscribers: {membership_text(view.subscribers, view.now)}")
    return "\n".join(lines) + "\n"


def _chats(view: StatusView) -> list[str]:
    if not view.chats:
        return []
    lines = ["", "| chat | channel | sent this month | waiting |", "|---|---|---|---|"]
    for chat in view.chats:
        lines.append(
            f"| {_cell(chat.name)} | {_cell(chat.where.channel or '-')} | "
            f"{chat.sent_this_month} | {chat.waiting_cell} |"
        )
    quota = view.quota
    if quota and quota.error is None and quota.limit is not None:
        lines.append(
            f"\n{view.quota_name}: {quota.used:,} of {quota.limit:,} messages used this month"
        )
    return lines
