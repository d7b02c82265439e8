"""The likeness room: each listing hunter records, kept with what it is compared by, so that a
later copy of the same job is found by its title's bucket (hunter/rules/likeness.py
decides). Pruned with the outbox (`prune_after_days`)."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hunter.rules.likeness import Likeness
from hunter.rules.listing import Listing
from hunter.store.columns import Row, moment, text
from hunter.store.room import Room


@dataclass(frozen=True)
class Earlier:
    """A listing recorded before, of a title a new one has: a candidate first copy."""

    job_id: str
    source: str
    url: str
    title: str  # as its board showed it
    likeness: Likeness
    seen_at: datetime
    chats: frozenset[str]  # the chats it was or will be sent to ('' the owner's)


@dataclass(frozen=True)
class Noted:
    fresh: frozenset[str]  # the job ids hunter never recorded (only those can be a copy)
    earlier: tuple[Earlier, ...]  # oldest first


def likeness_document(listings: Sequence[tuple[Listing, Likeness]]) -> list[dict[str, object]]:
    """The listings as the note takes them: each one's bucket (its title key) and what the
    store keeps, with its link and shown title for /why."""
    return [
        {
            "job_id": listing.job_id,
            "source": listing.source,
            "title": likeness.title,
            "likeness": {**likeness.document(), "url": listing.url, "shown": listing.title},
        }
        for listing, likeness in sorted(listings, key=lambda pair: pair[0].job_id)
    ]


def noted(rows: Sequence[Row]) -> Noted:
    fresh, earlier = set(), []
    for row in rows:
        if row.get("fresh") in (True, 1):
            fresh.add(text(row, "job_id"))
            continue
        raw = row.get("likeness")
        data = json.loads(raw) if isinstance(raw, str) else raw
        data = data if isinstance(data, dict) else {}
        chats = row.get("chats")
        if isinstance(chats, str):  # SQLite: a JSON array
            chats = json.loads(chats)
        chats = chats if isinstance(chats, list) else []
        earlier.append(
            Earlier(
                job_id=text(row, "job_id"),
                source=text(row, "source"),
                url=str(data.get("url") or ""),
                title=str(data.get("shown") or ""),
                likeness=Likeness.from_document(text(row, "title"), data),
                seen_at=moment(row, "seen_at"),
                chats=frozenset(str(c) for c in chats),
            )
        )
    return Noted(frozenset(fresh), tuple(earlier))


class LikenessStore(Room):
    @abstractmethod
    def note(
        self,
        listings: Sequence[tuple[Listing, Likeness]],
        since: datetime,
        now: datetime,
        keep: bool = True,
    ) -> Noted:
        """In one call: which of `listings` hunter never recorded (each kept with its
        likeness, unless `keep` is False), and the listings seen since `since` of the fresh
        ones' titles, oldest first, with the chats each went or goes to: the ones recorded
        before, among `listings` too (a board showing a job and its re-post), never a fresh
        one, nor one of another employer where both state one (never the same job: a common
        title is thousands of listings). A read of listings all seen before looks nothing
        up."""

    @abstractmethod
    def prune(self, before: datetime) -> int:
        """Forget the likeness of listings first seen before `before`; how many."""
