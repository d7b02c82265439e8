"""The status as one typed view: gathered once (report.gather), every judgement made
here, once: a source's condition and its problem, its fields found and gone, how fresh its
listings came, its last days, its next read and why; what waits and what is stuck; each
chat's line; the paced channel's month. The five renders (text and JSON in report.py, the
Markdown summary, the chat's "สถานะ", the status page) only lay it out: a field added here
reaches a render by one edit to it, and mypy --strict finds a render reading one that is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from hunter.deliver.channel import Recipient
from hunter.rules import shape
from hunter.status.history import Freshness, LastDays
from hunter.store.records import OutboxRow, SourceRow
from hunter.store.states import RowStatus
from hunter.store.subscribers import Membership

# Why a source's next read is when it is (timetable.plan's reasons), as a person reads it.
REASONS = {
    "busy": "a busy hour for it",
    "quiet": "a quiet hour for it",
    "new": "still learning its hours (as often as its reads a day allow until then)",
    "spent": "today's reads are spent: the next at the slowest, or tomorrow",
    "fixed": "schedule = fixed, every interval_minutes",
    "every": "its `every` holds it",
    "site": "the site asked to wait (Retry-After, 429 or 503)",
    "waited": "first in line: its site's turn did not come last poll",
}


class SourceCondition(StrEnum):
    """How a source is, as every render says it."""

    OK = "ok"  # its last read was good
    FAILING = "failing"  # its last read failed; not yet for broken_after reads in a row
    BROKEN = "broken"  # failed (or found nothing) broken_after reads in a row: the alarm


@dataclass(frozen=True)
class SourceView:
    row: SourceRow  # what the store holds of it (the JSON shows it whole)
    condition: SourceCondition
    problem: str  # its last error; "" when its last read was good
    fields: str  # its fields found, in words ("link 100%, pay GONE (was 97%)"); "" if none
    fields_gone: list[str]
    presence: dict[str, dict[str, Any]]  # each field's share, as the JSON shows it
    fresh: Freshness | None
    history: LastDays | None  # None: no read of it kept in the last days
    next_read_why: str  # "a busy hour for it (~7.1 listings an hour)"
    listings_an_hour: float | None  # what its schedule expects in the hour of its last read
    read_budget: int | None  # the reads a day its schedule may make (None: a fixed one)
    # In hunter.toml: a source taken out (or renamed) keeps its row, and is read no more.
    in_config: bool = True

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def days(self) -> LastDays:
        return self.history or LastDays()


@dataclass(frozen=True)
class ChatView:
    """A chat alerts go to, as every render shows it."""

    name: str
    to: str | None
    where: Recipient  # what its channel says of it
    paced: bool  # on the paced channel: its pushes cost the month's messages
    recipients: int | None  # a push reaches this many (None: not read yet)
    gone: bool  # the bot is not in the chat
    messages_this_month: int
    sent_this_month: int
    waiting: int  # its listings that go by themselves: new (pending) and to retry
    mutes: list[str]
    changed: str  # what it changed of hunter.toml from the chat, in words; "" if nothing
    tuning: dict[str, Any] | None  # the same, as the JSON shows it
    held: str = ""  # what its places, languages and taps held back lately, in words
    stuck: int = 0  # its listings that wait for a hand (`hunter retry`)

    @property
    def waiting_text(self) -> str:
        """ "3 waiting", "3 waiting, 1 stuck": every row of the chat not sent (a chat's "0
        waiting" beside the outbox's "retry 40" told a new user nothing waited)."""
        return f"{self.waiting} waiting" + (f", {self.stuck} stuck" if self.stuck else "")

    @property
    def waiting_cell(self) -> str:
        """The same in a table's column of what waits: "3", "3, 1 stuck"."""
        return str(self.waiting) + (f", {self.stuck} stuck" if self.stuck else "")

    def document(self) -> dict[str, Any]:
        """The chat as `hunter status --json` shows it."""
        return {
            "name": self.name,
            "to": self.to,
            "recipients": self.recipients,
            "gone": self.gone,
            "messages_this_month": self.messages_this_month,
            "sent_this_month": self.sent_this_month,
            "waiting": self.waiting,
            "stuck": self.stuck,
            "mutes": self.mutes,
            "changed": self.changed,
            "tuning": self.tuning,
            "held": self.held,
        }


@dataclass(frozen=True)
class QuotaView:
    """The paced channel's month as it answered: its limit (None: unlimited) and use, or why
    it could not tell."""

    channel: str
    limit: int | None = None
    used: int = 0
    error: str | None = None


@dataclass(frozen=True)
class PaceView:
    plan: int | None  # messages of the month the pace spreads; None: nothing paced
    used: int
    reserve: int
    pushes_this_month: int
    push_every_seconds: int | None
    next_push_at: datetime
    waiting: int
    quiet_hours: str | None
    quiet_now: bool = False  # within the quiet hours: nothing goes before next_push_at


@dataclass(frozen=True)
class OutboxCounts:
    pending: int = 0
    sending: int = 0
    retry: int = 0
    stuck: int = 0


RATE_SPAN = timedelta(minutes=5)  # the subscribers' messages a second: over the last this long


@dataclass(frozen=True)
class StatusView:
    now: datetime
    sources: list[SourceView]
    outbox: OutboxCounts
    sent_last_24h: int
    rows: list[OutboxRow]  # rows not done, up to the limit asked
    last_poll_at: datetime | None
    last_prune_at: datetime | None
    chats: list[ChatView]
    quota: QuotaView | None  # None: no channel counts a month
    pace: PaceView | None
    next_push_at: datetime | None  # when the pace lets the next push go; None: unpaced
    mutes: dict[str, datetime]  # the owner's muted keywords -> until
    owner_channel: str  # the owner chat's channel, for "Muted on <channel>"
    quota_name: str  # the paced channel's name
    # The subscribers in, waiting, joined and left today; None: strangers may not join.
    subscribers: Membership | None = None
    # Why alerts wait for a channel (none is set on a host), naming what to set; None: none do.
    no_channel: str | None = None

    @property
    def stuck_rows(self) -> list[OutboxRow]:
        return [row for row in self.rows if row.status is RowStatus.STUCK]

    def chat(self, name: str) -> ChatView | None:
        return next((c for c in self.chats if c.name == name), None)


def source_view(
    row: SourceRow, fresh: Freshness | None, days: LastDays | None, in_config: bool = True
) -> SourceView:
    """A source as every render says it: its condition and problem judged here, once."""
    condition = SourceCondition.OK
    if row.broken_at:
        condition = SourceCondition.BROKEN
    elif row.last_error:
        condition = SourceCondition.FAILING
    return SourceView(
        row=row,
        condition=condition,
        problem=row.last_error or "",
        fields=shape.describe(row.shape),
        fields_gone=shape.gone(row.shape),
        presence=shape.presence(row.shape),
        fresh=fresh,
        history=days,
        next_read_why=why(row) if in_config else "not in hunter.toml: read no more",
        listings_an_hour=_rate(row),
        read_budget=_budget(row),
        in_config=in_config,
    )


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


def _budget(row: SourceRow) -> int | None:
    """The reads a day its schedule may make (kept with its cadence), if any."""
    budget = row.cadence.get("budget")
    return budget if isinstance(budget, int) and not isinstance(budget, bool) else None
