"""`hunter status` as text for people and as JSON for scripts."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hunter.errors import LineError
from hunter.line import Sender
from hunter.states import RowStatus
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


def line_quota(sender: Sender) -> dict[str, Any] | None:
    """This month's LINE quota for `hunter status`; None without LINE."""
    try:
        quota = sender.quota()
    except LineError as exc:
        return {"error": str(exc)}
    if quota is None:
        return None
    return {"limit": quota[0], "used": quota[1]}


def as_text(report: StatusReport, now: datetime, timezone: str, lease_seconds: float) -> str:
    tz = ZoneInfo(timezone)

    def at(value: datetime | None) -> str:
        if value is None:
            return "never"
        return f"{value.astimezone(tz):%Y-%m-%d %H:%M} ({_ago(value, now)})"

    lines = ["Sources:"]
    if not report.sources:
        lines.append("  none polled yet")
    for s in report.sources:
        state = f"error: {s.last_error}" if s.last_error else f"{s.last_count} listings"
        primed = "" if s.primed_at else " (not primed yet)"
        lines.append(f"  {s.name}: last poll {at(s.last_poll_at)}, {state}{primed}")
        if s.broken_at:
            lines.append(
                f"    BROKEN since {at(s.broken_at)}: {s.fail_streak} bad polls "
                f"in a row; last good {at(s.last_good_at)}; see `hunter check`"
            )
    o = report.outbox
    lines += [
        "Outbox:",
        f"  pending {o['pending']}, sending {o['sending']}, retry {o['retry']}, "
        f"stuck {o['stuck']}; sent in the last 24 h: {report.sent_last_24h}",
    ]
    for row in report.rows:
        if row.status is RowStatus.STUCK:
            detail = f"stuck since {_ago(row.first_seen_at, now)}: {row.last_error}"
        elif row.status is RowStatus.RETRY:
            detail = f"retry #{row.attempts + 1} {_ago(row.next_attempt_at, now)}: {row.last_error}"
        else:
            lease_end = (
                row.claimed_at + timedelta(seconds=lease_seconds) if row.claimed_at else None
            )
            detail = (
                f"sending by {row.claimed_by} since {_ago(row.claimed_at, now)}, "
                f"lease ends {_ago(lease_end, now)}"
            )
        lines.append(f"  {row.job_id} ({row.title[:60]}): {detail}")
    if report.outbox["stuck"]:
        lines.append("  `hunter retry --all` (or `hunter retry JOB_ID`) sends stuck rows again")
    quota = report.quota
    if quota is not None:
        if "error" in quota:
            lines.append(f"LINE quota: unknown ({quota['error']})")
        else:
            limit = "unlimited" if quota["limit"] is None else f"{quota['limit']:,}"
            lines.append(f"LINE quota: {quota['used']:,} of {limit} messages used this month")
    lines.append(f"Last prune: {at(report.last_prune_at)}")
    return "\n".join(lines)


def as_json(report: StatusReport) -> str:
    def value(v: Any) -> Any:
        return v.isoformat() if isinstance(v, datetime) else v

    document = {
        "sources": [{k: value(v) for k, v in vars(s).items()} for s in report.sources],
        "outbox": report.outbox,
        "sent_last_24h": report.sent_last_24h,
        "rows": [{k: value(v) for k, v in vars(r).items()} for r in report.rows],
        "last_prune_at": value(report.last_prune_at),
        "line_quota": report.quota,
    }
    return json.dumps(document, ensure_ascii=False, indent=2)
