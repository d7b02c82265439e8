"""What the store's answers look like: the rows hunter reads back, typed, by column name, and
the documents it hands the database. Plain data; the port that returns them is base.py."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from operator import attrgetter
from typing import Any

from hunter.rules.listing import Listing
from hunter.store.columns import (
    Row,
    document,
    integer,
    moment,
    optional_document,
    optional_integer,
    optional_moment,
    optional_text,
    real,
    text,
)
from hunter.store.states import ErrorKind, RowStatus


@dataclass(frozen=True)
class Pace:
    """One claim of the allowance, as the store applies it (see `PaceStore.claim`)."""

    month: str
    now: float  # active seconds since the month began
    interval: float  # active seconds per push at the current pace
    tolerance: float  # active seconds of credit that may be spent ahead
    cap: int  # the most messages hunter may count this month (its own counter)
    notice: bool  # a notice of hunter's own waits: spend the reserve, not the pace
    cost: int = 1  # messages this push costs: LINE counts one per recipient (a group's members)


@dataclass(frozen=True)
class PaceState:
    """The pace as the store holds it: one row, shared by every replica."""

    month: str
    tat: float  # the theoretical arrival time of the next push, in active seconds
    pushes: int  # messages hunter's pushes cost this month (one per recipient of each)
    granted: bool = False  # the answer to the claim that returned this state


@dataclass(frozen=True)
class ReadRow:
    """One read of one source, as the history keeps it."""

    source: str
    read_at: datetime
    listings: int  # read on the page (0 when it failed, or the site said "as before")
    new: int  # of which never seen before
    matching: int  # of those, judged worth a chat's alert
    error: str | None  # why it failed, if it did
    seconds: float  # how long it took
    merged: int = 0  # of the new, merged with an earlier copy of their job

    def document(self) -> dict[str, Any]:
        """The read as the store writes it (its time as ISO 8601 text). By hand, not
        dataclasses.asdict, which deep-copies: 39 us a row, most of keeping 400,000 reads."""
        return {
            "source": self.source,
            "read_at": self.read_at.isoformat(),
            "listings": self.listings,
            "new": self.new,
            "matching": self.matching,
            "error": self.error,
            "seconds": self.seconds,
            "merged": self.merged,
        }


@dataclass(frozen=True)
class SentTimes:
    """When one sent listing was posted (by its board: "" not stated), found and sent."""

    source: str
    posted: str
    found: datetime
    sent: datetime


@dataclass(frozen=True)
class Claimed:
    """A row this worker owns for one push."""

    job_id: str
    listing: Listing
    retry_key: str
    retry_key_at: datetime
    attempts: int
    chat: str = ""  # whose row (with job_id, its key): '' the owner's, else a chat's name

    @classmethod
    def from_row(cls, row: Row) -> Claimed:
        """From a claimed row as any adapter reads it."""
        job_id = text(row, "job_id")
        return cls(
            job_id=job_id,
            listing=listing_of_row(row),
            retry_key=text(row, "retry_key"),
            retry_key_at=moment(row, "retry_key_at"),
            attempts=integer(row, "attempts"),
            chat=optional_text(row, "chat") or "",
        )


ALSO_KEPT = 10  # copies kept on one alert (more say nothing new)


def listing_of_row(row: Row) -> Listing:
    """An outbox row's listing, with the copies of its job merged into it since it was
    recorded (`also`): a claimed one's alert says "also on <board>" from the start,
    and an edited one's after."""
    job_id = text(row, "job_id")
    listing = Listing.from_payload(job_id, document(row, "listing"))
    found = also_of(row.get("also"))
    return replace(listing, also_on=found) if found else listing


def also_of(raw: object) -> tuple[tuple[str, str], ...]:
    """A row's `also` (JSON text on SQLite, JSON on PostgreSQL) as (source, url) pairs."""
    data = json.loads(raw) if isinstance(raw, str) else raw
    pairs = data if isinstance(data, list) else []
    found = ((str(p[0]), str(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2)
    return tuple(found)[:ALSO_KEPT]


def claimed(rows: Iterable[Row]) -> list[Claimed]:
    """Claimed rows in job id order, whatever order the database returned them in."""
    return sorted((Claimed.from_row(row) for row in rows), key=lambda c: c.job_id)


@dataclass(frozen=True)
class SourceNote:
    """What one poll of one source came to, for its row in hunter_sources."""

    name: str
    count: int | None  # listings parsed; None when nothing was parsed
    error: str | None = None
    good: bool | None = None  # health verdict: True good, False bad, None no verdict
    etag: str | None = None
    last_modified: str | None = None
    validated_url: str | None = None
    keep_validators: bool = False
    not_before: datetime | None = None
    broken_notice: Listing | None = None  # queued when this note makes the source broken
    recovered_notice: Listing | None = None  # queued when this note ends a broken spell
    # Its fields' presence after this poll (hunter/rules/shape.py), computed from the version
    # the poll read: written, with its notices, only if the row still holds that version, so
    # two replicas polling one source at once never tell one change twice.
    shape: Mapping[str, Any] | None = None
    shape_version: int = 0
    shape_notices: tuple[Listing, ...] = ()
    # What hunter learned of its hours (hunter/poll/cadence.py; None: as it was), and why
    # `not_before`, its next read, is when it is.
    cadence: Mapping[str, Any] | None = None
    read_reason: str | None = None

    def document(self) -> dict[str, Any]:
        def notice(listing: Listing | None) -> dict[str, Any] | None:
            if listing is None:
                return None
            return {"job_id": listing.job_id, "listing": listing.payload()}

        return {
            "name": self.name,
            "count": self.count,
            "error": self.error,
            "good": self.good,
            "etag": self.etag,
            "last_modified": self.last_modified,
            "validated_url": self.validated_url,
            "keep_validators": self.keep_validators,
            "not_before": self.not_before.isoformat() if self.not_before else None,
            "broken_notice": notice(self.broken_notice),
            "recovered_notice": notice(self.recovered_notice),
            "shape": None if self.shape is None else dict(self.shape),
            "shape_version": self.shape_version,
            "cadence": None if self.cadence is None else dict(self.cadence),
            "read_reason": self.read_reason,
            "shape_notices": [notice(listing) for listing in self.shape_notices],
        }


@dataclass(frozen=True)
class SourceState:
    """What the store remembers of a source between polls (and restarts)."""

    name: str
    primed: bool = False
    last_good_at: datetime | None = None
    fail_streak: int = 0
    broken_at: datetime | None = None
    etag: str | None = None
    last_modified: str | None = None
    validated_url: str | None = None
    not_before: datetime | None = None
    shape: Mapping[str, Any] = field(default_factory=dict)  # what rules/shape.py keeps
    shape_version: int = 0
    cadence: Mapping[str, Any] = field(default_factory=dict)  # hunter/poll/cadence.py's
    read_reason: str | None = None

    @classmethod
    def from_row(cls, row: Row) -> SourceState:
        return cls(
            name=text(row, "name"),
            primed=row["primed_at"] is not None,
            last_good_at=optional_moment(row, "last_good_at"),
            fail_streak=integer(row, "fail_streak"),
            broken_at=optional_moment(row, "broken_at"),
            etag=optional_text(row, "etag"),
            last_modified=optional_text(row, "last_modified"),
            validated_url=optional_text(row, "validated_url"),
            not_before=optional_moment(row, "not_before"),
            shape=optional_document(row, "shape"),
            shape_version=integer(row, "shape_version"),
            cadence=optional_document(row, "cadence"),
            read_reason=optional_text(row, "read_reason"),
        )


@dataclass(frozen=True)
class Failure:
    """A failed push's outcome as the store writes it on the batch's rows."""

    status: RowStatus  # retry, stuck or pending
    error_kind: ErrorKind | None
    error: str | None
    next_at: datetime | None  # the next attempt (a retry, or the probe of a parked batch)
    count_attempt: bool

    @classmethod
    def unsent(cls, why: str | None = None) -> Failure:
        """A batch that never reached its channel (held by the pace, or a reply that failed) goes
        back to `pending`, in its order, and gives up its key. `why`: what holds its chat
        (its channel cannot be reached, the chat is gone), for `hunter status` to say."""
        return cls(RowStatus.PENDING, None, why, None, count_attempt=False)


@dataclass(frozen=True)
class OutboxRow:
    job_id: str
    status: RowStatus
    title: str
    attempts: int
    next_attempt_at: datetime | None
    claimed_by: str | None
    claimed_at: datetime | None
    error_kind: ErrorKind | None
    last_error: str | None
    first_seen_at: datetime
    chat: str = ""  # whose row ('' the owner's): a listing has a row in each chat it matches

    @classmethod
    def from_row(cls, row: Row) -> OutboxRow:
        kind = optional_text(row, "error_kind")
        return cls(
            job_id=text(row, "job_id"),
            status=RowStatus(text(row, "status")),
            title=str(document(row, "listing").get("title", "")),
            attempts=integer(row, "attempts"),
            next_attempt_at=optional_moment(row, "next_attempt_at"),
            claimed_by=optional_text(row, "claimed_by"),
            claimed_at=optional_moment(row, "claimed_at"),
            error_kind=ErrorKind(kind) if kind else None,
            last_error=optional_text(row, "last_error"),
            first_seen_at=moment(row, "first_seen_at"),
            chat=optional_text(row, "chat") or "",
        )


@dataclass(frozen=True)
class SourceRow:
    """A source's row in hunter_sources, as `hunter status` shows it."""

    name: str
    primed_at: datetime | None
    last_poll_at: datetime | None
    last_ok_at: datetime | None
    last_count: int | None
    last_error: str | None
    last_good_at: datetime | None
    fail_streak: int
    broken_at: datetime | None
    shape: Mapping[str, Any]  # its fields' presence (hunter/rules/shape.py)
    # Its next read, and why then: its schedule (busy, quiet, fixed), its `every`, the site
    not_before: datetime | None = None
    read_reason: str | None = None
    cadence: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: Row) -> SourceRow:
        return cls(
            name=text(row, "name"),
            primed_at=optional_moment(row, "primed_at"),
            last_poll_at=optional_moment(row, "last_poll_at"),
            last_ok_at=optional_moment(row, "last_ok_at"),
            last_count=optional_integer(row, "last_count"),
            last_error=optional_text(row, "last_error"),
            last_good_at=optional_moment(row, "last_good_at"),
            fail_streak=integer(row, "fail_streak"),
            broken_at=optional_moment(row, "broken_at"),
            shape=optional_document(row, "shape"),
            not_before=optional_moment(row, "not_before") if "not_before" in row else None,
            read_reason=optional_text(row, "read_reason") if "read_reason" in row else None,
            cadence=optional_document(row, "cadence") if "cadence" in row else {},
        )


GONE = 0  # the member count kept for a chat the bot is no longer in (a channel counts >= 1)


@dataclass(frozen=True)
class ChatRow:
    """What the store keeps of a chat: its recipients and the messages it spent."""

    name: str
    to: str | None
    members: int | None
    members_at: datetime | None
    month: str | None
    spent: int

    @classmethod
    def from_row(cls, row: Row) -> ChatRow:
        return cls(
            name=text(row, "name"),
            to=optional_text(row, "to_id"),
            members=optional_integer(row, "members"),
            members_at=optional_moment(row, "members_at"),
            month=optional_text(row, "month"),
            spent=integer(row, "spent"),
        )

    def spent_in(self, month: str) -> int:
        return self.spent if self.month == month else 0

    @property
    def gone(self) -> bool:
        """The channel said the bot is not in this chat (kept as a member count of GONE)."""
        return self.members == GONE


@dataclass(frozen=True)
class Marked:
    """A listing a chat marked from a card (`hunter status --applied`)."""

    job_id: str
    mark: str
    listing: Listing
    marked_at: datetime
    chat: str = ""  # whose mark: '' the owner's, else a chat's name

    @classmethod
    def from_row(cls, row: Row) -> Marked:
        job_id = text(row, "job_id")
        return cls(
            job_id=job_id,
            mark=text(row, "mark"),
            listing=Listing.from_payload(job_id, document(row, "listing")),
            marked_at=moment(row, "marked_at"),
            chat=optional_text(row, "chat") or "",
        )


@dataclass
class StatusReport:
    """What the store holds for the status, read in one go; status/report.py's `gather`
    judges it, with the chats and the channels, into the StatusView every render lays out."""

    outbox: dict[str, int]
    sent_last_24h: int
    rows: list[OutboxRow]
    sources: list[SourceRow]
    last_prune_at: datetime | None

    @property
    def last_poll_at(self) -> datetime | None:
        """When a poll last ran (any replica, `run --once` included): its sources' latest."""
        polls = [s.last_poll_at for s in self.sources if s.last_poll_at is not None]
        return max(polls, default=None)

    meta: dict[str, str] = field(default_factory=dict)
    pace_state: PaceState | None = None


def pace_state(row: Row, granted: bool = False) -> PaceState:
    return PaceState(
        month=text(row, "month"),
        tat=real(row, "tat"),
        pushes=integer(row, "pushes"),
        granted=granted,
    )


ChatMatches = Mapping[str, Sequence[tuple[str, Listing]]]  # job id -> (chat, its listing)
# A listing's fields but its keywords, as one tuple: a chat's copy compared with its listing
# field by field (replace() and ==, 14 us a copy, were 0.75 s for 54,000 subscribers' rows).
_BUT_KEYWORDS = attrgetter(*(f.name for f in fields(Listing) if f.name != "keywords"))


def jobs_document(
    listings: Iterable[Listing], matched: set[str], chats: ChatMatches | None = None
) -> list[dict[str, Any]]:
    """The listings as the record statement takes them, sorted by id (a fixed lock order),
    each with the chats it matches (their rows are made when the listing is new)."""
    return list(_jobs(listings, matched, chats))


def jobs_json(
    listings: Iterable[Listing], matched: set[str], chats: ChatMatches | None = None
) -> str:
    """jobs_document as JSON text, written a listing at a time: the whole document's dicts
    were 17 MB beside their 6 MB of text for 10,000 subscribers' 58,000 matches of a read,
    the peak of a PostgreSQL `run --once` (bench/community.py)."""
    return "[" + ",".join(json.dumps(job) for job in _jobs(listings, matched, chats)) + "]"


def _jobs(
    listings: Iterable[Listing], matched: set[str], chats: ChatMatches | None
) -> Iterator[dict[str, Any]]:
    unique = {listing.job_id: listing for listing in listings}
    for job_id in sorted(unique):
        job: dict[str, Any] = {
            "job_id": job_id,
            "matched": job_id in matched,
            "listing": unique[job_id].payload(),
        }
        for_chats = (chats or {}).get(job_id)
        if for_chats:
            # A chat's copy differs from the listing by the keywords it matched: it goes as
            # those alone (10,000 subscribers' rows of 50 listings were 40 MB of JSON with
            # each copy whole; migration 023), and whole only where it differs otherwise.
            main = _BUT_KEYWORDS(unique[job_id])
            job["chats"] = [
                {"chat": c, "keywords": list(x.keywords)}
                if _BUT_KEYWORDS(x) == main
                else {"chat": c, "listing": x.payload()}
                for c, x in for_chats
            ]
        yield job
