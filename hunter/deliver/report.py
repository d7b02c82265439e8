"""The status report: one object (`gather`), printed by `hunter status` as text for people and
as JSON for scripts, and shown in a chat's "สถานะ" (`chat_text`), so that both say the same.
What it says of a channel (its quota, its recipients, its name) it asks the channels."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from hunter.deliver.channel import Recipient
from hunter.deliver.history import (
    FRESH_DAYS,
    days_of,
    duration,
    freshness,
    history,
    spread_text,
)
from hunter.deliver.pace import MonthPlan, Pacer, describe_interval
from hunter.errors import ChannelError
from hunter.rules import shape
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER, OWNER_NAME, Destinations
from hunter.rules.pay import describe_terms
from hunter.settings.config import Config
from hunter.store import Store
from hunter.store.records import (
    ChatRow,
    Marked,
    PaceState,
    SourceRow,
    StatusReport,
)
from hunter.store.states import RowStatus


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


class Reporting(Protocol):
    """What the status asks of the channels (hunter.deliver.channel.Channels answers it)."""

    @property
    def quota_name(self) -> str:
        """The name of the channel whose monthly quota the pace spreads."""
        ...

    def quota(self) -> tuple[int | None, int] | None: ...

    def recipient(self, to: str | None) -> Recipient: ...


def quota_of(quota: tuple[int | None, int] | None) -> dict[str, Any] | None:
    return None if quota is None else {"limit": quota[0], "used": quota[1]}


def gather(
    config: Config,
    store: Store,
    destinations: Destinations,
    channels: Reporting,
    now: datetime,
    rows: int = 100,
) -> StatusReport:
    """Everything the status says, read once: the store's rooms (up to `rows` outbox rows not
    done), each chat, the paced channel's quota (its failure is part of the report) and the
    pace."""
    result = store.status(now, rows)
    result.now = now
    rules = store.chat.rules(now)
    result.mutes = dict(rules[OWNER].mutes) if OWNER in rules else {}
    result.chats = chats(
        destinations,
        store.pace.chats(),
        store.outbox.pending_by_chat(),
        rules,
        config.calendar.month(now),
        store.outbox.sent_by_chat(config.calendar.month_bounds(now)[0]),
        channels.recipient,
    )
    result.recipients = {c["to"]: channels.recipient(c["to"]) for c in result.chats}
    result.freshness = freshness(store.outbox.sent_times(now - timedelta(days=FRESH_DAYS)))
    result.history = history(store.reads.by_day(days_of(now, config.timezone)))
    result.quota_name = channels.quota_name
    try:
        result.quota = quota_of(channels.quota())
    except ChannelError as exc:  # the channel could not tell; the rest of the status still helps
        result.quota = {"error": str(exc)}
    result.pace = pace(config, result.quota, result.pace_state, now, result.outbox["pending"])
    result.next_push_at = next_push_at(config, result.quota, result.pace_state, now)
    return result


def _next_push(
    config: Config, quota: dict[str, Any] | None, state: PaceState | None, now: datetime
) -> tuple[MonthPlan, float, datetime]:
    """The month's plan, the push interval in force, and when the next push may go."""
    line = None if quota is None or "error" in quota else (quota["limit"], quota["used"])
    plan = MonthPlan.of(line, config.monthly_messages, config.reserve_messages)
    pacer = Pacer(config.calendar, timedelta(minutes=config.interval_minutes))
    current = pacer.pace(plan, state, now, notice=False)
    paced = plan.limit is not None
    next_at = pacer.next_push(state, current, now) if paced and state is not None else now
    if config.calendar.is_quiet(next_at):
        next_at = config.calendar.quiet_until(next_at)
    return plan, current.interval, next_at


def next_push_at(
    config: Config, quota: dict[str, Any] | None, state: PaceState | None, now: datetime
) -> datetime | None:
    """When the pace lets the next push go; None when nothing is paced (no monthly limit)."""
    plan, _interval, at = _next_push(config, quota, state, now)
    return at if plan.limit is not None else None


def pace(
    config: Config,
    quota: dict[str, Any] | None,
    state: PaceState | None,
    now: datetime,
    waiting: int,
) -> dict[str, Any]:
    """The pace of pushes for `hunter status`: the plan, what is spent, the pace, when the
    next push may go and how many listings wait for it."""
    plan, interval, next_at = _next_push(config, quota, state, now)
    month = config.calendar.month(now)
    return {
        "plan": plan.limit,
        "used": plan.used,
        "reserve": plan.reserve,
        "pushes_this_month": state.pushes if state and state.month == month else 0,
        "push_every_seconds": round(interval) if plan.limit is not None else None,
        "next_push_at": next_at.isoformat(),
        "waiting": waiting,
        "quiet_hours": None if config.quiet_hours is None else str(config.quiet_hours),
    }


def _pace_lines(pace: dict[str, Any], at: Any, channel: str) -> list[str]:
    quiet = f"; quiet hours {pace['quiet_hours']}" if pace["quiet_hours"] else ""
    if pace["plan"] is None:
        return [
            f"Pace: none, every listing goes in the poll that finds it ({channel} reports no "
            f"monthly limit; set monthly_messages to pace){quiet}"
        ]
    every = describe_interval(pace["push_every_seconds"])
    return [
        f"Pace: {pace['plan']:,} messages this month, {pace['used']:,} used, "
        f"{pace['reserve']} kept for hunter's notices; a push every {every}{quiet}",
        f"  next push may go {at(datetime.fromisoformat(pace['next_push_at']))}; "
        f"{pace['waiting']} listings wait for it",
    ]


def chats(
    destinations: Destinations,
    kept: Mapping[str, ChatRow],
    pending: Mapping[str, int],
    rules: Mapping[str, ChatRules],
    month: str,
    sent: Mapping[str, int],
    recipient: Callable[[str | None], Recipient],
) -> list[dict[str, Any]]:
    """Each chat alerts go to: where, how many a push reaches (where its channel counts one
    message for each), what its pushes cost this month, the listings it was sent this month
    (`sent`), what waits for it, its mutes."""
    found = []
    for name in destinations.names():
        to = destinations.to_of(name)
        notices_only = name == OWNER and destinations.owner is None and bool(destinations.chats)
        if notices_only and not pending.get(OWNER):
            continue  # no LINE_TO: only hunter's notices would wait here, and none do
        row = kept.get(name)
        single = to is None or not recipient(to).per_member  # one message a push
        members = 1 if single else (row.members if row else None)
        found.append(
            {
                "name": name or OWNER_NAME,
                "to": to,
                "recipients": members,
                "gone": row is not None and row.gone,
                "messages_this_month": row.spent_in(month) if row else 0,
                "sent_this_month": sent.get(name, 0),
                "waiting": pending.get(name, 0),
                "mutes": sorted(rules[name].mutes) if name in rules else [],
                "changed": _changes(rules[name]) if name in rules and rules[name].changed else "",
                "tuning": rules[name].describe() if name in rules else None,
            }
        )
    return found


def tuning_text(changed: Mapping[str, ChatRules]) -> str:
    """What chats changed of hunter.toml from their phones, a line each."""
    if not changed:
        return "no chat changed hunter.toml's rules from its phone"
    return "\n".join(f"{name}: {_changes(rules)}" for name, rules in sorted(changed.items()))


def _changes(rules: ChatRules) -> str:
    parts = []
    if rules.added:
        parts.append("added " + ", ".join(rules.added))
    if rules.removed:
        parts.append("removed " + ", ".join(rules.removed))
    if rules.min_budget is not None:
        parts.append(f"min budget ฿{rules.min_budget:,} a whole job")
    for floor in rules.floors:
        parts.append(f"min budget {floor.amount:,} {describe_terms(floor.currency, floor.period)}")
    if rules.paused:
        parts.append("paused")
    return "; ".join(parts) + " (hunter tuning --reset drops these)"


def _chat_lines(chats: list[dict[str, Any]], report: StatusReport) -> list[str]:
    lines = ["Chats:"] if chats else []
    for chat in chats:
        recipients = chat["recipients"]
        where = recipient_of(report, chat["to"])
        paced = where.channel == report.quota_name
        whom = (
            "? recipients (read at its next push)"
            if recipients is None
            else "the bot is not in this chat (blocked, or removed from it): its listings wait"
            if chat["gone"]
            else f"{where.channel}, no monthly quota"
            if not paced
            else (f"{recipients} recipient{'s' if recipients != 1 else ''}")
        )
        muted = f"; muted {', '.join(chat['mutes'])}" if chat["mutes"] else ""
        spent = f"{chat['messages_this_month']} messages this month"
        if not paced:  # no messages counted: what it was sent
            spent = f"{chat['sent_this_month']} sent this month"
        lines.append(
            f"  {chat['name']} ({chat['to'] or 'terminal'}): {whom}, {spent}, "
            f"{chat['waiting']} waiting{muted}"
        )
        if chat.get("changed"):
            lines.append(f"    changed from {where.channel}: {chat['changed']}")
    return lines


def recipient_of(report: StatusReport, to: str | None) -> Recipient:
    """What the report's channels said of `to` (the paced channel's chat when unknown): every
    rendering of the report (text, chat, Markdown, page) asks here."""
    found = report.recipients.get(to)
    return found if isinstance(found, Recipient) else Recipient(report.quota_name, "chat")


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
        if fields := shape.describe(s.shape):
            lines.append(f"    fields found: {fields}")
        if fresh := report.freshness.get(s.name):
            lines.append(f"    {_fresh_line(fresh)}")
        reads = report.history.get(s.name, {}).get("reads_today", 0)
        when = f" {at(s.not_before)}" if s.not_before else ""
        lines.append(f"    {reads} reads today; next read{when}: {why(s)}")
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
        whose = f" in chat {row.chat}" if row.chat else ""
        lines.append(f"  {row.job_id}{whose} ({row.title[:60]}): {detail}")
    if report.outbox["stuck"]:
        lines.append("  `hunter retry --all` (or `hunter retry JOB_ID`) sends stuck rows again")
    quota, named = report.quota, report.quota_name
    if quota is not None:
        if "error" in quota:
            lines.append(f"{named} quota: unknown ({quota['error']})")
        else:
            limit = "unlimited" if quota["limit"] is None else f"{quota['limit']:,}"
            lines.append(f"{named} quota: {quota['used']:,} of {limit} messages used this month")
    if report.pace is not None:
        lines += _pace_lines(report.pace, at, named)
    lines += _chat_lines(report.chats, report)
    owner = recipient_of(
        report, next((c["to"] for c in report.chats if c["name"] == OWNER_NAME), None)
    )
    for word, until in sorted(report.mutes.items()):
        lines.append(
            f"Muted on {owner.channel}: {word!r} until {at(until)}; `hunter unmute {word}` lifts it"
        )
    lines.append(f"Last poll: {at(report.last_poll_at)}")
    lines.append(f"Last prune: {at(report.last_prune_at)}")
    return "\n".join(lines)


# Why a source's next read is when it is (timetable.plan's reasons), as a person reads it.
REASONS = {
    "busy": "a busy hour for it",
    "quiet": "a quiet hour for it",
    "new": "still learning its hours (every interval_minutes until then)",
    "fixed": "schedule = fixed, every interval_minutes",
    "every": "its `every` holds it",
    "site": "the site asked to wait (Retry-After, 429 or 503)",
    "waited": "first in line: its site's turn did not come last poll",
}


def why(row: SourceRow) -> str:
    """ "a busy hour for it (~7.1 listings an hour)": the reason of its next read."""
    if row.read_reason is None:
        return "at the next poll"
    said = REASONS.get(row.read_reason, row.read_reason)
    rate = _rate(row)
    if row.read_reason in ("busy", "quiet") and rate is not None:
        said += f" (~{rate:.1f} listings an hour)"
    return said


def _rate(row: SourceRow) -> float | None:
    """The listings an hour its schedule expects now (kept with its cadence), if any."""
    rate = row.cadence.get("rate")
    return float(rate) if isinstance(rate, int | float) else None


def schedule(report: StatusReport, row: SourceRow) -> dict[str, Any]:
    """A source's schedule in the JSON: reads today, the next read and why, and how long its
    listings took from posted to sent (7 days)."""
    fresh = report.freshness.get(row.name)
    return {
        "reads_today": report.history.get(row.name, {}).get("reads_today", 0),
        "next_read_at": row.not_before.isoformat() if row.not_before else None,
        "next_read_reason": row.read_reason,
        "next_read_why": why(row),
        "listings_an_hour": _rate(row),
        "posted_to_sent": fresh["posted_to_sent"] if fresh else None,
    }


def _fresh_line(fresh: dict[str, Any]) -> str:
    """ "posted -> sent: median 14 min, p90 27 min (12 sent in 7 days, 12 with a posted time)"."""
    return (
        f"posted -> sent: {spread_text(fresh['posted_to_sent'])} ({fresh['sent']} sent in "
        f"{FRESH_DAYS} days, {fresh['posted_times']} with a posted time)"
    )


def as_json(report: StatusReport) -> str:
    def value(v: Any) -> Any:
        return v.isoformat() if isinstance(v, datetime) else v

    def source(row: SourceRow) -> dict[str, Any]:
        shown = {k: value(v) for k, v in vars(row).items() if k not in ("shape", "cadence")}
        fresh = report.freshness.get(row.name)
        days = report.history.get(row.name)
        return {
            **shown,
            "fields": shape.presence(row.shape),
            "freshness": fresh,
            "last_days": days,
            "schedule": schedule(report, row),
        }

    document = {
        "sources": [source(s) for s in report.sources],
        "outbox": report.outbox,
        "sent_last_24h": report.sent_last_24h,
        "rows": [{k: value(v) for k, v in vars(r).items()} for r in report.rows],
        "last_poll_at": value(report.last_poll_at),
        "last_prune_at": value(report.last_prune_at),
        "quota": None if report.quota is None else {"channel": report.quota_name, **report.quota},
        "pace": report.pace,
        "mutes": {word: until.isoformat() for word, until in sorted(report.mutes.items())},
        "chats": report.chats,
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def chat_text(report: StatusReport, chat: str, timezone: str) -> str:
    """ "สถานะ" in a chat: the sources' health, what waits for this chat, the paced channel's
    quota and the next push (for a chat on that channel), this chat's recipients and spending
    and its mutes, from the report `hunter status` prints."""
    tz = ZoneInfo(timezone)
    lines = []
    for source in report.sources:
        state = "❌ " + (source.last_error or "")[:80] if source.last_error else "✅"
        if source.broken_at:
            state = "⚠️ broken: " + (source.last_error or "no listings")[:80]
        elif missing := shape.gone(source.shape):
            state = f"⚠️ {', '.join(missing)} no longer found"
        if fresh := report.freshness.get(source.name):  # posted -> sent, the median
            state += f" · ⏱ {duration(fresh['posted_to_sent']['median_s'])}"
        if source.not_before and report.now and source.not_before > report.now:
            state += f" · อ่านต่อ next read {source.not_before.astimezone(tz):%H:%M}"
        lines.append(f"{source.name}: {state}")
    mine = next((c for c in report.chats if c["name"] == (chat or OWNER_NAME)), None)
    waiting = mine["waiting"] if mine else 0
    lines.append(f"รอส่ง {waiting} · waiting {waiting}")
    stuck = report.outbox["stuck"]
    if stuck:
        lines.append(f"ติดค้าง {stuck} · stuck {stuck}: hunter status")
    unpaced = mine is not None and recipient_of(report, mine["to"]).channel != report.quota_name
    pace = report.pace
    if pace is not None and pace["plan"] is not None and report.next_push_at and not unpaced:
        at = report.next_push_at.astimezone(tz)  # the pace holds no other channel's push
        used, plan = pace["used"], pace["plan"]
        lines.append(f"{report.quota_name} {used}/{plan} · next push {at:%d %b %H:%M}")
    if mine is not None and unpaced:
        sent = mine["sent_this_month"]
        lines.append(f"แชทนี้ · this chat: ส่งแล้ว {sent} งานเดือนนี้ · {sent} sent this month")
    elif mine is not None and mine["messages_this_month"]:
        members, spent = mine["recipients"] or 1, mine["messages_this_month"]
        lines.append(f"แชทนี้ · this chat: {members} คน/members, {spent} ข้อความ/messages")
    if mine is not None and mine["mutes"]:
        lines.append("ปิดคำ · muted: " + ", ".join(mine["mutes"]))
    return "\n".join(lines)


def applied_text(marked: list[Marked], now: datetime) -> str:
    if not marked:
        return "no listing marked 'applied' yet (the สมัครแล้ว button under a card)"
    return "\n".join(
        f"{m.marked_at:%Y-%m-%d} ({_ago(m.marked_at, now)}): {m.listing.title[:80]}\n  "
        f"{m.listing.url or m.job_id}"
        for m in marked
    )


def applied_json(marked: list[Marked]) -> str:
    return json.dumps(
        [
            {
                "job_id": m.job_id,
                "title": m.listing.title,
                "url": m.listing.url,
                "marked_at": m.marked_at.isoformat(),
            }
            for m in marked
        ],
        ensure_ascii=False,
        indent=2,
    )
