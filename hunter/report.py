"""`hunter status` as text for people and as JSON for scripts."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from hunter.store.base import StatusReport


def _ago(then: datetime | None, now: datetime) -> str:
    if then is None:
        return "never"
    seconds = (now - then).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            text = f"{seconds / size:.0f} {unit}"
            break
    else:
        text = f"{seconds:.0f} s"
    return f"in {text}" if future else f"{text} ago"


def as_text(report: StatusReport, now: datetime, timezone: str) -> str:
    tz = ZoneInfo(timezone)

    def at(value: datetime | None) -> str:
        if value is None:
            return "never"
        return f"{value.astimezone(tz):%Y-%m-%d %H:%M} ({_ago(value, now)})"

    lines = ["Sources:"]
    if not report.sources:
        lines.append("  none polled yet")
    for s in report.sources:
        state = f"error: {s['last_error']}" if s["last_error"] else f"{s['last_count']} listings"
        primed = "" if s["primed_at"] else " (not primed yet)"
        lines.append(f"  {s['name']}: last poll {at(s['last_poll_at'])}, {state}{primed}")
    o = report.outbox
    lines += [
        "Outbox:",
        f"  pending {o['pending']}, sending {o['sending']}, retry {o['retry']}, "
        f"stuck {o['stuck']}; sent in the last 24 h: {report.sent_last_24h}",
    ]
    for row in report.rows:
        if row.status == "stuck":
            detail = f"stuck since {_ago(row.first_seen_at, now)}: {row.last_error}"
        elif row.status == "retry":
            detail = f"retry #{row.attempts + 1} {_ago(row.next_attempt_at, now)}: {row.last_error}"
        else:
            detail = f"sending by {row.claimed_by} since {_ago(row.claimed_at, now)}"
        lines.append(f"  {row.job_id} ({row.title[:60]}): {detail}")
    if report.outbox["stuck"]:
        lines.append("  `hunter retry --all` (or `hunter retry JOB_ID`) sends stuck rows again")
    lines.append(f"Last prune: {at(report.last_prune_at)}")
    return "\n".join(lines)


def as_json(report: StatusReport) -> str:
    def value(v: Any) -> Any:
        return v.isoformat() if isinstance(v, datetime) else v

    document = {
        "sources": [{k: value(v) for k, v in s.items()} for s in report.sources],
        "outbox": report.outbox,
        "sent_last_24h": report.sent_last_24h,
        "rows": [{k: value(v) for k, v in vars(r).items()} for r in report.rows],
        "last_prune_at": value(report.last_prune_at),
    }
    return json.dumps(document, ensure_ascii=False, indent=2)
