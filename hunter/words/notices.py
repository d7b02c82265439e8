"""What hunter itself has to tell the owner in their chat: a source stopped working, works again,
flooded, or no longer shows a field it used to (and shows it again). Notices are rows of the
pseudo-source "hunter" in the same outbox as listings, so they get the same guarantees:
written down before they are sent, sent once, retried, never lost."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from hunter.rules.listing import Listing
from hunter.rules.shape import BACK, GONE, UNRELIABLE, Change

SOURCE = "hunter"


class Source(Protocol):
    """The source a notice is about: its name and address (a Source)."""

    @property
    def name(self) -> str: ...

    @property
    def url(self) -> str: ...


def _job_id(kind: str, source: Source, now: datetime) -> str:
    return f"{SOURCE}:{kind}:{source.name}:{now.isoformat()}"


def _month(now: datetime, timezone: str) -> str:
    return now.astimezone(ZoneInfo(timezone)).strftime("%Y-%m")


def broken(
    source: Source, reason: str, last_good_at: datetime | None, now: datetime, timezone: str
) -> Listing:
    when = (
        f"last good at {last_good_at.astimezone(ZoneInfo(timezone)):%Y-%m-%d %H:%M}"
        if last_good_at
        else "it never worked yet"
    )
    # One that never worked did not stop: it cannot be read yet (a new user's find, setting up)
    fault = "stopped working" if last_good_at else "cannot be read"
    return Listing(
        job_id=_job_id("broken", source, now),
        source=SOURCE,
        title=f"⚠️ Source {source.name} {fault}",
        url=source.url,
        summary=f"{reason}; {when}. Run `hunter check` to see what it parses.",
    )


def recovered(source: Source, now: datetime) -> Listing:
    return Listing(
        job_id=_job_id("recovered", source, now),
        source=SOURCE,
        title=f"✅ Source {source.name} works again",
        url=source.url,
        summary="Its new listings are alerted as before.",
    )


def shape_since(listing: Listing) -> datetime | None:
    """When a notice of a source's fields (shape_changed) was made; None for anything else."""
    if listing.source != SOURCE or not listing.job_id.startswith(f"{SOURCE}:shape:"):
        return None
    try:
        return datetime.fromisoformat(listing.job_id.rsplit("@", 1)[1])
    except (IndexError, ValueError):
        return None


ALSO = f"{SOURCE}:also:"


def also_elsewhere(first: Listing, board: str, url: str, now: datetime) -> Listing:
    """A chat's line for a copy of a job merged into the alert it got (`first`), where that
    alert could not be edited to say so (LINE edits nothing; a Telegram message the person
    deleted): the copy's link is never hidden. Once per copy: its id is a mark of
    the alert's id and the copy's link. It rides with the chat's next push (rides_along_since:
    its `posted` is when it was made)."""
    mark = zlib.crc32(f"{first.job_id} {url}".encode()) & 0xFFFFFFFF
    return Listing(
        job_id=f"{ALSO}{mark:08x}",
        source=SOURCE,
        title=f"🔁 ลงที่อื่นด้วย · also on {board}: {first.title}",
        url=url,
        summary=f"The same job as the alert you got from {first.source}: {first.url}",
        posted=now.astimezone(UTC).isoformat(timespec="seconds"),
    )


def rides_along_since(listing: Listing) -> datetime | None:
    """When a notice that never takes a listing's place in a paced month was made: a
    source's fields (shape_changed), the chats that ask to join (asks_to_join) or a copy of a
    job an alert could not be edited for (also_elsewhere); None for anything else. Such a
    notice goes with the chat's next push of listings, where it costs nothing, and alone only
    after a day without one."""
    made = shape_since(listing)
    if listing.source == SOURCE and listing.job_id.startswith(ALSO) and listing.posted:
        return datetime.fromisoformat(listing.posted)
    if made is not None or not askers(listing):
        return made
    try:
        return datetime.strptime(listing.job_id.rpartition(":")[2], "%Y%m%dT%H%M%S").replace(
            tzinfo=UTC
        )
    except ValueError:
        return None


def shape_changed(
    source: Source, changes: Sequence[Change], version: int, now: datetime
) -> Listing:
    """One notice for what one poll found of a source's fields (gone, back, or coming and
    going); once per change: the store keeps `version` of the source's shape, and writes a
    notice only with the shape change that made it."""
    by_kind: dict[str, list[str]] = {GONE: [], BACK: [], UNRELIABLE: []}
    for change in changes:
        by_kind[change.kind].append(change.field)
    gone, back, flapping = by_kind[GONE], by_kind[BACK], by_kind[UNRELIABLE]
    parts, said = [], []
    if gone:
        parts.append(f"{', '.join(gone)} no longer found in its listings")
        said.append(
            f"The site may have changed: its listings still come, without their "
            f"{', '.join(gone)}. Run `hunter check` to see which fields it finds."
        )
    if back:
        parts.append(f"{', '.join(back)} found again in its listings")
        said.append("Its listings carry it as before.")
    if flapping:
        parts.append(f"{', '.join(flapping)} comes and goes")
        said.append(
            f"{', '.join(flapping)} is in some polls' listings and not in others: no more "
            "notices about it (`hunter status` shows how often it is found)."
        )
    icon = "🔎" if gone or flapping else "✅"
    return Listing(
        job_id=f"{SOURCE}:shape:{source.name}:{version}@{now.isoformat(timespec='seconds')}",
        source=SOURCE,
        title=f"{icon} {source.name}: {'; '.join(parts)}",
        url=source.url,
        summary=" ".join(said),
    )


def quota(used: int, limit: int, now: datetime, timezone: str, channel: str) -> Listing:
    """Once a month: the month is part of the id, so a second one is never queued. `channel`
    is the name of the channel whose month it is."""
    return Listing(
        job_id=f"{SOURCE}:quota:{_month(now, timezone)}",
        source=SOURCE,
        title=f"📈 {used} of this month's {limit} {channel} messages are used",
        url="",
        summary="At the limit, alerts wait (none is lost) until the month resets or the "
        "plan is raised.",
    )


def flood(source: Source, titles: list[str], now: datetime) -> Listing:
    """The title holds "%s" for the number of new listings, which only the store knows."""
    name = source.name.replace("%", "%%")
    sample = " · ".join(t[:60] for t in titles[:3])
    return Listing(
        job_id=_job_id("flood", source, now),
        source=SOURCE,
        title=f"📦 {name} showed %s new listings and none it showed before",
        url=source.url,
        summary="It looks renumbered (or its url changed): they were recorded silently "
        f"instead of a flood of alerts (flood_threshold). Among them: {sample}",
    )


def chat_gone(chat: str, to: str, now: datetime, timezone: str, why: str) -> Listing:
    """Once a month at most for one chat: its name, id and month make the id. `why`: the
    channel's own words ("Telegram says Forbidden: bot was blocked by the user"), so that the
    owner knows which of a person's block, a group's kick or a chat never opened it was."""
    said = f"{why.rstrip('.')}. " if why else ""
    return Listing(
        job_id=f"{SOURCE}:gone:{chat}:{to}:{_month(now, timezone)}",
        source=SOURCE,
        title=f"🚪 The bot is no longer in chat {chat} ({to})",
        url="",
        summary=f"{said}Its listings wait and nothing is pushed there. Bring the bot back (a "
        "group: invite it again; a person: unblock it, or open its chat and press Start) and "
        "they go out with the next poll, or remove that [[chats]] from hunter.toml.",
    )


# Bidirectional controls (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM, ALM): a
# stranger's name with U+202E shows the owner's card right to left from there on.
_BIDI = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
)


def shown_name(name: str) -> str:
    """A name a person chose (a stranger's, a group's title) as hunter shows it: without
    bidirectional controls, on one line."""
    return " ".join(name.translate(_BIDI).split())


ASKS = f"{SOURCE}:asks:"
_ASKERS_APART = ":,:"  # between the chats one card names (ids hold ':' but never this)
ASKERS_NAMED = 10  # chats one card names; the rest are counted (the owner's status lists all)


def asks_to_join(askers: Sequence[tuple[str, str]], now: datetime) -> Listing:
    """The owner's card of the chats that ask to join (join = "approve"), each (its id, its
    name where known): one card for all who asked since the last (chat/asks.py). Its
    buttons approve and refuse (details.buttons, by `askers`). Its id names each chat, so
    that a chat's /forget deletes a card that names it (store: position(':chat:'))."""
    named = list(askers[:ASKERS_NAMED])
    chats = _ASKERS_APART.join(chat for chat, _who in named)
    who = [f"{shown_name(name)} ({chat})" if shown_name(name) else chat for chat, name in named]
    more = len(askers) - len(named)
    if len(askers) == 1:
        title = f"🙋 {who[0]} asks to join hunter's alerts"
        how = f"Tap Approve or Refuse (or send “approve {named[0][0]}”, “refuse {named[0][0]}”)."
    else:
        title = f"🙋 {len(askers)} chats ask to join hunter's alerts"
        listed = ", ".join(who) + (f" and {more} more" if more else "")
        how = f"{listed}. Send “approve ID” or “refuse ID” for each (“status” lists who waits)."
    return Listing(
        job_id=f"{ASKS}{chats}:{now.astimezone(UTC):%Y%m%dT%H%M%S}",
        source=SOURCE,
        title=title,
        url="",
        summary=f"{how} Nothing reaches a chat before you approve it.",
    )


def askers(listing: Listing) -> list[str]:
    """The chats an "asks to join" card is about; [] for any other listing."""
    if listing.source != SOURCE or not listing.job_id.startswith(ASKS):
        return []
    named = listing.job_id[len(ASKS) :].rpartition(":")[0]
    return [chat for chat in named.split(_ASKERS_APART) if chat]


def let_in(chat: str, now: datetime) -> Listing:
    """The subscriber's own card once the owner let it in."""
    return Listing(
        job_id=f"{SOURCE}:in:{chat}:{now.isoformat(timespec='seconds')}",
        source=SOURCE,
        title="✅ ยินดีต้อนรับ คุณเข้าร่วมแล้ว · You're in",
        url="",
        summary="ส่ง “add คำ” เพื่อรับงานที่ตรงกับคำนั้น เช่น add python · Send “add WORD” to "
        "get the listings that match it, e.g. add python; stop ends it, forget deletes all.",
    )
