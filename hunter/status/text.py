"""The status as `hunter status` prints it, as text for people (`as_text`) and as JSON for
scripts (`as_json`), and as a chat's "สถานะ" (`chat_text`): three layouts of one StatusView
(view.py), which made every judgement; nothing here decides anything again."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hunter.deliver.pace import describe_interval
from hunter.rules.destinations import OWNER_NAME
from hunter.status.history import (
    FRESH_DAYS,
    Freshness,
    ago,
    duration,
    merged_text,
    spread_text,
)
from hunter.status.view import (
    RATE_SPAN,
    ChatView,
    PaceView,
    SourceCondition,
    SourceView,
    StatusView,
)
from hunter.store.states import RowStatus
from hunter.store.subscribers import Membership
from hunter.words import plural


def as_text(view: StatusView, now: datetime, timezone: str, lease_seconds: float) -> str:
    tz = ZoneInfo(timezone)

    def at(value: datetime | None) -> str:
        if value is None:
            return "never"
        return f"{value.astimezone(tz):%Y-%m-%d %H:%M} ({ago(value, now)})"

    lines = ["Sources:"]
    if not view.sources:
        lines.append("  none polled yet")
    for s in view.sources:
        row = s.row
        state = f"error: {s.problem}" if s.problem else plural(row.last_count or 0, "listing")
        primed = "" if row.primed_at else " (not primed yet: no listing found so far)"
        lines.append(f"  {s.name}: last poll {at(row.last_poll_at)}, {state}{primed}")
        if not s.in_config:
            lines.append("    not in hunter.toml any more: read no more (its rows are kept)")
            continue
        if s.condition is SourceCondition.BROKEN:
            lines.append(
                f"    BROKEN since {at(row.broken_at)}: {row.fail_streak} bad polls "
                f"in a row; last good {at(row.last_good_at)}; see `hunter check`"
            )
        if s.fields:
            lines.append(f"    fields found: {s.fields}")
        if s.fresh:
            lines.append(f"    {_fresh_line(s.fresh)}")
        if merged := sum(s.days.merged):
            lines.append(f"    {merged_text(merged)}")
        when = f" {at(row.not_before)}" if row.not_before else ""
        most = f" (at most {s.read_budget} a day)" if s.read_budget is not None else ""
        lines.append(
            f"    {plural(s.days.reads_today, 'read')} today{most}; next read{when}: "
            f"{s.next_read_why}"
        )
    o = view.outbox
    lines += [
        "Outbox:",
        f"  pending {o.pending}, sending {o.sending}, retry {o.retry}, "
        f"stuck {o.stuck}; sent in the last 24 h: {view.sent_last_24h}",
    ]
    if view.no_channel:
        lines.append(f"  {o.pending} alerts wait for a channel: {view.no_channel}")
    held: set[str] = set()
    for r in view.rows:
        if r.status is RowStatus.PENDING:  # what holds its chat, once a chat (a new user's find)
            if r.chat not in held:
                held.add(r.chat)
                lines.append(f"  chat {r.chat or OWNER_NAME} waits: {r.last_error}")
            continue
        if r.status is RowStatus.STUCK:
            detail = f"stuck (first seen {ago(r.first_seen_at, now)}): {r.last_error}"
        elif r.status is RowStatus.RETRY:
            detail = f"retry #{r.attempts + 1} {ago(r.next_attempt_at, now)}: {r.last_error}"
        else:
            lease_end = r.claimed_at + timedelta(seconds=lease_seconds) if r.claimed_at else None
            detail = (
                f"sending by {r.claimed_by}, claimed {ago(r.claimed_at, now)}, "
                f"lease ends {ago(lease_end, now)}"
            )
        whose = f" in chat {r.chat}" if r.chat else ""
        lines.append(f"  {r.job_id}{whose} ({r.title[:60]}): {detail}")
    if o.stuck:
        lines.append("  `hunter retry --all` (or `hunter retry JOB_ID`) sends stuck rows again")
    quota, named = view.quota, view.quota_name
    if quota is not None:
        if quota.error is not None:
            lines.append(f"{named} quota: unknown ({quota.error})")
        else:
            limit = "unlimited" if quota.limit is None else f"{quota.limit:,}"
            lines.append(f"{named} quota: {quota.used:,} of {limit} messages used this month")
    if view.pace is not None:
        lines += _pace_lines(view.pace, at, named)
    lines += _chat_lines(view.chats)
    if view.subscribers is not None:
        lines.append(f"Subscribers: {membership_text(view.subscribers, view.now)}")
    for word, until in sorted(view.mutes.items()):
        lines.append(
            f"Muted on {view.owner_channel}: {word!r} until {at(until)}; "
            f"`hunter unmute {word}` lifts it"
        )
    lines.append(f"Last poll: {at(view.last_poll_at)}")
    lines.append(f"Last prune: {at(view.last_prune_at)}")
    return "\n".join(lines)


def membership_text(m: Membership, now: datetime) -> str:
    """ "12 in, 2 waiting for approval; today 3 joined, 1 left; 0.4 messages a second, the
    longest wait 3 min" (every render's words)."""
    asked = f", {m.asked} waiting for approval" if m.asked else ""
    rate = m.sent_recently / RATE_SPAN.total_seconds()
    waited = now - m.oldest_waiting if m.oldest_waiting else None
    wait = f", the longest wait {duration(waited.total_seconds())}" if waited else ""
    return (
        f"{m.active} in{asked}; today {m.joined} joined, {m.left} left; "
        f"{rate:.1f} messages a second{wait}"
    )


def _pace_lines(pace: PaceView, at: Callable[[datetime | None], str], channel: str) -> list[str]:
    quiet = f"; quiet hours {pace.quiet_hours}" if pace.quiet_hours else ""
    if pace.quiet_now:  # what waits, waits for them (a new user saw "1 waiting", not why)
        quiet += f", now: nothing is pushed before {at(pace.next_push_at)}"
    if pace.plan is None:
        # A channel that counts none (the terminal, none set yet) is not named as if it could.
        said = (
            f"{channel} reports no monthly limit"
            if channel not in ("terminal", "no channel")
            else "no channel in use counts messages a month"
        )
        return [
            f"Pace: none, every listing goes in the poll that finds it ({said}; set "
            f"monthly_messages to pace){quiet}"
        ]
    every = describe_interval(pace.push_every_seconds or 0)
    return [
        f"Pace: {pace.plan:,} messages this month, {pace.used:,} used, "
        f"{pace.reserve} kept for hunter's notices; a push every {every}{quiet}",
        f"  next push may go {at(pace.next_push_at)}; {pace.waiting} listings wait for it",
    ]


def _chat_lines(chats: list[ChatView]) -> list[str]:
    lines = ["Chats:"] if chats else []
    for chat in chats:
        recipients = chat.recipients
        whom = (
            "? recipients (read at its next push)"
            if recipients is None
            else "the bot is not in this chat (blocked, or removed from it): its listings wait"
            if chat.gone
            else f"{chat.where.channel}, no monthly quota"
            if not chat.paced
            else (f"{recipients} recipient{'s' if recipients != 1 else ''}")
        )
        muted = f"; muted {', '.join(chat.mutes)}" if chat.mutes else ""
        spent = f"{plural(chat.messages_this_month, 'message')} this month"
        if not chat.paced:  # no messages counted: what it was sent
            spent = f"{chat.sent_this_month} sent this month"
        lines.append(
            f"  {chat.name} ({chat.to or chat.where.channel}): {whom}, {spent}, "
            f"{chat.waiting_text}{muted}"
        )
        if chat.changed:
            lines.append(f"    changed from {chat.where.channel}: {chat.changed}")
        if chat.held:  # what its places, languages and taps held back
            lines.append(f"    {chat.held}")
    return lines


def _fresh_line(fresh: Freshness) -> str:
    """ "posted -> sent: median 14 min, p90 27 min (12 sent in 7 days, 12 with a posted time)"."""
    return (
        f"posted -> sent: {spread_text(fresh.posted_to_sent)} ({fresh.sent} sent in "
        f"{FRESH_DAYS} days, {fresh.posted_times} with a posted time)"
    )


def _value(v: Any) -> Any:
    return v.isoformat() if isinstance(v, datetime) else v


def _source_document(s: SourceView) -> dict[str, Any]:
    shown = {k: _value(v) for k, v in vars(s.row).items() if k not in ("shape", "cadence")}
    return {
        **shown,
        "in_config": s.in_config,
        "fields": s.presence,
        "freshness": asdict(s.fresh) if s.fresh else None,
        "last_days": asdict(s.history) if s.history else None,
        "schedule": {
            "reads_today": s.days.reads_today,
            "read_budget": s.read_budget,
            "next_read_at": _value(s.row.not_before),
            "next_read_reason": s.row.read_reason,
            "next_read_why": s.next_read_why,
            "listings_an_hour": s.listings_an_hour,
            "posted_to_sent": asdict(s.fresh.posted_to_sent) if s.fresh else None,
        },
    }


def as_json(view: StatusView) -> str:
    quota = None
    if view.quota is not None:
        q = view.quota
        said = {"error": q.error} if q.error is not None else {"limit": q.limit, "used": q.used}
        quota = {"channel": q.channel, **said}
    pace = None
    if view.pace is not None:
        pace = {**asdict(view.pace), "next_push_at": view.pace.next_push_at.isoformat()}
    document = {
        "sources": [_source_document(s) for s in view.sources],
        "outbox": asdict(view.outbox),
        "sent_last_24h": view.sent_last_24h,
        "no_channel": view.no_channel,
        "rows": [{k: _value(v) for k, v in vars(r).items()} for r in view.rows],
        "last_poll_at": _value(view.last_poll_at),
        "last_prune_at": _value(view.last_prune_at),
        "quota": quota,
        "pace": pace,
        "mutes": {word: until.isoformat() for word, until in sorted(view.mutes.items())},
        "chats": [chat.document() for chat in view.chats],
        "subscribers": None
        if view.subscribers is None
        else {
            "in": view.subscribers.active,
            "waiting_for_approval": view.subscribers.asked,
            "joined_today": view.subscribers.joined,
            "left_today": view.subscribers.left,
            "messages_a_second": round(
                view.subscribers.sent_recently / RATE_SPAN.total_seconds(), 2
            ),
            "oldest_waiting": _value(view.subscribers.oldest_waiting),
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def chat_text(view: StatusView, chat: str, timezone: str) -> str:
    """ "สถานะ" in a chat: the sources' health, what waits for this chat, the paced channel's
    quota and the next push (for a chat on that channel), this chat's recipients and spending
    and its mutes, from the view `hunter status` prints."""
    tz = ZoneInfo(timezone)
    lines = []
    for source in view.sources:
        state = "❌ " + source.problem[:80] if source.problem else "✅"
        if source.condition is SourceCondition.BROKEN:
            state = "⚠️ broken: " + (source.problem or "no listings")[:80]
        elif source.fields_gone:
            state = f"⚠️ {', '.join(source.fields_gone)} no longer found"
        if source.fresh:  # posted -> sent, the median
            state += f" · ⏱ {duration(source.fresh.posted_to_sent.median_s)}"
        if merged := sum(source.days.merged):  # copies of a job, in 7 days
            state += f" · 🔁 {merged} รวมแล้ว merged"
        if source.row.not_before and source.row.not_before > view.now:
            state += f" · อ่านต่อ next read {source.row.not_before.astimezone(tz):%H:%M}"
        lines.append(f"{source.name}: {state}")
    mine = view.chat(chat or OWNER_NAME)
    waiting = mine.waiting if mine else 0
    lines.append(f"รอส่ง {waiting} · waiting {waiting}")
    if view.outbox.stuck:
        stuck = view.outbox.stuck
        lines.append(f"ติดค้าง {stuck} · stuck {stuck}: hunter status")
    unpaced = mine is not None and not mine.paced
    pace = view.pace
    if pace is not None and pace.plan is not None and view.next_push_at and not unpaced:
        at = view.next_push_at.astimezone(tz)  # the pace holds no other channel's push
        lines.append(f"{view.quota_name} {pace.used}/{pace.plan} · next push {at:%d %b %H:%M}")
    if mine is not None and unpaced:
        sent = mine.sent_this_month
        lines.append(f"แชทนี้ · this chat: ส่งแล้ว {sent} งานเดือนนี้ · {sent} sent this month")
    elif mine is not None and mine.messages_this_month:
        members, spent = mine.recipients or 1, mine.messages_this_month
        lines.append(f"แชทนี้ · this chat: {members} คน/members, {spent} ข้อความ/messages")
    if mine is not None and mine.mutes:
        lines.append("ปิดคำ · muted: " + ", ".join(mine.mutes))
    if view.subscribers is not None and not chat:  # the owner's alone
        lines.append(f"สมาชิก · subscribers: {membership_text(view.subscribers, view.now)}")
    return "\n".join(lines)
