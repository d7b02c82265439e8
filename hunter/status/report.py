"""The status, gathered once (`gather`) into the typed StatusView (view.py) that every
render lays out: `hunter status` as text and JSON (text.py), the chat's "สถานะ", the
Markdown summary, the status page. What it says of a channel (its quota, its recipients, its
name) it asks the channels."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from hunter.deliver.channel import Recipient
from hunter.deliver.pace import MonthPlan, Pacer
from hunter.errors import ChannelError
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER, OWNER_NAME, Destinations
from hunter.rules.held import LAYERS
from hunter.rules.pay import describe_terms
from hunter.settings.config import Config
from hunter.status.history import FRESH_DAYS, ago, days_of, freshness, history
from hunter.status.view import (
    RATE_SPAN,
    ChatView,
    OutboxCounts,
    PaceView,
    QuotaView,
    StatusView,
    source_view,
)
from hunter.store import Store
from hunter.store.records import ChatRow, Marked, PaceState


class Reporting(Protocol):
    """What the status asks of the channels (hunter.deliver.channel.Channels answers it)."""

    @property
    def quota_name(self) -> str:
        """The name of the channel whose monthly quota the pace spreads."""
        ...

    def quota(self) -> tuple[int | None, int] | None: ...

    def recipient(self, to: str | None) -> Recipient: ...


def gather(
    config: Config,
    store: Store,
    destinations: Destinations,
    channels: Reporting,
    now: datetime,
    rows: int = 100,
) -> StatusView:
    """Everything the status says, read once and judged once: the store's rooms (up to `rows`
    outbox rows not done), each chat, the paced channel's quota (its failure is part of the
    report) and the pace."""
    found = store.status(now, rows)
    configured = {source.name for source in config.sources}
    rules = store.chat.rules(now)
    named, quota = channels.quota_name, quota_view(channels)
    chat_views = chats(
        destinations,
        store.pace.chats(),
        store.outbox.waiting_by_chat(),
        rules,
        config.calendar.month(now),
        store.outbox.sent_by_chat(config.calendar.month_bounds(now)[0]),
        channels,
        counted=quota is not None,
    )
    fresh = freshness(store.outbox.sent_times(now - timedelta(days=FRESH_DAYS)))
    days = history(store.reads.by_day(days_of(now, config.timezone)))
    counts = found.outbox
    outbox = OutboxCounts(counts["pending"], counts["sending"], counts["retry"], counts["stuck"])
    owner = next((c for c in chat_views if c.name == OWNER_NAME), None)
    return StatusView(
        now=now,
        sources=[
            source_view(s, fresh.get(s.name), days.get(s.name), s.name in configured)
            for s in found.sources
        ],
        outbox=outbox,
        sent_last_24h=found.sent_last_24h,
        rows=found.rows,
        last_poll_at=found.last_poll_at,
        last_prune_at=found.last_prune_at,
        chats=chat_views,
        quota=quota,
        pace=pace(config, quota, found.pace_state, now, outbox.pending),
        next_push_at=next_push_at(config, quota, found.pace_state, now),
        mutes=dict(rules[OWNER].mutes) if OWNER in rules else {},
        owner_channel=owner.where.channel if owner else named,
        quota_name=named,
        subscribers=store.subscribers.counts(config.calendar.day_start(now), now - RATE_SPAN)
        if config.subscribers.open
        else None,
        no_channel=_waiting(channels),
    )


def _waiting(channels: Reporting) -> str | None:
    """Why alerts wait for a channel, where the channels can tell (Channels.waiting)."""
    waiting = getattr(channels, "waiting", None)
    return str(waiting()) if callable(waiting) and waiting() else None


def quota_view(channels: Reporting) -> QuotaView | None:
    """The paced channel's month as it answers now (None: no channel counts one)."""
    try:
        said = channels.quota()
    except ChannelError as exc:  # the channel could not tell; the rest of the status still helps
        return QuotaView(channels.quota_name, error=str(exc))
    return None if said is None else QuotaView(channels.quota_name, said[0], said[1])


def _next_push(
    config: Config, quota: QuotaView | None, state: PaceState | None, now: datetime
) -> tuple[MonthPlan, float, datetime]:
    """The month's plan, the push interval in force, and when the next push may go."""
    line = None if quota is None or quota.error is not None else (quota.limit, quota.used)
    plan = MonthPlan.of(line, config.monthly_messages, config.reserve_messages)
    pacer = Pacer(config.calendar, timedelta(minutes=config.interval_minutes))
    current = pacer.pace(plan, state, now, notice=False)
    paced = plan.limit is not None
    next_at = pacer.next_push(state, current, now) if paced and state is not None else now
    if config.calendar.is_quiet(next_at):
        next_at = config.calendar.quiet_until(next_at)
    return plan, current.interval, next_at


def next_push_at(
    config: Config, quota: QuotaView | None, state: PaceState | None, now: datetime
) -> datetime | None:
    """When the pace lets the next push go; None when nothing is paced (no monthly limit)."""
    plan, _interval, at = _next_push(config, quota, state, now)
    return at if plan.limit is not None else None


def pace(
    config: Config,
    quota: QuotaView | None,
    state: PaceState | None,
    now: datetime,
    waiting: int,
) -> PaceView:
    """The pace of pushes for `hunter status`: the plan, what is spent, the pace, when the
    next push may go and how many listings wait for it."""
    plan, interval, next_at = _next_push(config, quota, state, now)
    month = config.calendar.month(now)
    return PaceView(
        plan=plan.limit,
        used=plan.used,
        reserve=plan.reserve,
        pushes_this_month=state.pushes if state and state.month == month else 0,
        push_every_seconds=round(interval) if plan.limit is not None else None,
        next_push_at=next_at,
        waiting=waiting,
        quiet_hours=None if config.quiet_hours is None else str(config.quiet_hours),
        quiet_now=config.calendar.is_quiet(now),
    )


def chats(
    destinations: Destinations,
    kept: Mapping[str, ChatRow],
    waiting: Mapping[str, Mapping[str, int]],
    rules: Mapping[str, ChatRules],
    month: str,
    sent: Mapping[str, int],
    channels: Reporting,
    counted: bool = True,
) -> list[ChatView]:
    """Each chat alerts go to: where, how many a push reaches (where its channel counts one
    message for each), what its pushes cost this month, the listings it was sent this month
    (`sent`), what waits for it (`waiting`: its rows not sent, by state), its mutes.
    `counted`: whether the paced channel counts messages (the terminal does not)."""
    found = []
    for name in destinations.names():
        to = destinations.to_of(name)
        notices_only = name == OWNER and destinations.owner is None and bool(destinations.chats)
        mine = waiting.get(name, {})
        if notices_only and not any(mine.values()):
            continue  # no owner's chat: only hunter's notices would wait here, and none do
        row = kept.get(name)
        where = channels.recipient(to)
        single = to is None or not where.per_member  # one message a push
        changed = name in rules and rules[name].changed
        found.append(
            ChatView(
                name=name or OWNER_NAME,
                to=to,
                where=where,
                # A channel that counts no message (the terminal) says what it was sent: "1
                # recipient, 0 messages this month" beside 4 printed (a new user's find)
                paced=counted and where.channel == channels.quota_name,
                recipients=1 if single else (row.members if row else None),
                gone=row is not None and row.gone,
                messages_this_month=row.spent_in(month) if row else 0,
                sent_this_month=sent.get(name, 0),
                waiting=mine.get("pending", 0) + mine.get("retry", 0),
                stuck=mine.get("stuck", 0),
                mutes=sorted(rules[name].mutes) if name in rules else [],
                changed=_changes(rules[name]) if changed else "",
                tuning=rules[name].describe() if name in rules else None,
                held=held_text(rules[name].held, rules[name].held_since) if name in rules else "",
            )
        )
    return found


def tuning_text(changed: Mapping[str, ChatRules], hint: bool = True) -> str:
    """What chats changed of hunter.toml from their phones, a line each; `hint`: with how to
    drop it (not once it is dropped)."""
    if not changed:
        return "no chat changed hunter.toml's rules from its phone"
    said = _changes if hint else _changed
    return "\n".join(f"{name}: {said(rules)}" for name, rules in sorted(changed.items()))


def _changes(rules: ChatRules) -> str:
    return _changed(rules) + " (hunter tuning --reset drops these)"


def _changed(rules: ChatRules) -> str:
    parts = []
    if rules.added:
        parts.append("added " + ", ".join(rules.added))
    if rules.removed:
        parts.append("removed " + ", ".join(rules.removed))
    if rules.min_budget is not None:
        parts.append(f"min budget ฿{rules.min_budget:,} a whole job")
    for floor in rules.floors:
        parts.append(f"min budget {floor.amount:,} {describe_terms(floor.currency, floor.period)}")
    if rules.languages is not None:
        parts.append("languages " + (", ".join(rules.languages) or "every one"))
    if rules.places is not None:
        parts.append("places " + (", ".join(rules.places) or "every one"))
    if rules.paused:
        parts.append("paused")
    return "; ".join(parts)


def applied_text(marked: list[Marked], now: datetime, timezone: str = "UTC") -> str:
    """The listings marked applied, newest first, each on the day of `timezone` (hunter.toml's:
    as the rest of the status says its times)."""
    if not marked:
        return "no listing marked 'applied' yet (the สมัครแล้ว button under a card)"
    zone = ZoneInfo(timezone)
    return "\n".join(
        f"{m.marked_at.astimezone(zone):%Y-%m-%d} ({ago(m.marked_at, now)}): "
        f"{m.listing.title[:80]}\n  "
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


def held_text(held: Mapping[str, int], since: datetime | None) -> str:
    """ "held back since 28 Nov: 12 by place, 3 by language, 4 by taps"; "" when none."""
    parts = [f"{held[layer]} by {layer}" for layer in LAYERS if held.get(layer)]
    if not parts or since is None:
        return ""
    return f"held back since {since:%d %b}: {', '.join(parts)}"
