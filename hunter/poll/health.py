"""Is a source working? Pure judgement of one read, and the note the store keeps of it.

A scraper's most common failure is silent: the site changes its layout, the selector matches
nothing, and the bot goes quiet. A poll is bad when the fetch failed, when it parsed no listing
where it used to find some, or when most items had no title or id. `broken_after` bad polls in
a row make one "stopped working" notice, the next good poll one "works again" notice (the
store decides both, so restarts and overlapping instances never repeat them). A bad parse
never records anything: a half-broken page must not mark listings as seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hunter.rules import shape
from hunter.rules.listing import Listing
from hunter.settings.config import Config
from hunter.store.records import SourceNote, SourceState
from hunter.words import notices

if TYPE_CHECKING:
    from hunter.sources.reader import SourceRead


@dataclass(frozen=True)
class HealthVerdict:
    good: bool | None  # None: no verdict (an unchanged page, a read cut short)
    reason: str | None = None


@dataclass(frozen=True)
class Health:
    """A source's health after one read: the verdict, and the note the store keeps of it."""

    verdict: HealthVerdict
    note: SourceNote


def assess(read: SourceRead, state: SourceState | None, config: Config, now: datetime) -> Health:
    """Judge one read, once, and write the note that goes with the verdict."""
    verdict = judge(read, state)
    return Health(verdict, note(read, state, verdict, config, now))


def judge(read: SourceRead, state: SourceState | None) -> HealthVerdict:
    if read.unchanged or read.stopped or read.waited:  # waited: never asked, no verdict
        return HealthVerdict(None)
    if read.error:
        return HealthVerdict(False, read.error)
    if not read.listings:
        if state and state.last_good_at:
            return HealthVerdict(
                False,
                "no listings found where there used to be some: the page's layout may have changed",
            )
        return HealthVerdict(None)  # never worked yet: `hunter check` is where that shows
    if read.skipped > len(read.listings):
        return HealthVerdict(
            False,
            f"{read.skipped} of {read.skipped + len(read.listings)} items had "
            "no title or no id: the page's layout may have changed",
        )
    return HealthVerdict(True)


def note(
    read: SourceRead,
    state: SourceState | None,
    verdict: HealthVerdict,
    config: Config,
    now: datetime,
) -> SourceNote:
    """The source's row after this read; notices ready in case the store decides to send."""
    source = read.source
    # Validators are kept from a good parse only: after a bad one, the next fetch must not be
    # answered "304, as before" and hide the breakage forever.
    keep = read.unchanged
    validators = read.validators if verdict.good else None
    return SourceNote(
        name=source.name,
        count=None if read.error or read.unchanged else len(read.listings),
        error=verdict.reason if verdict.good is False else None,
        good=verdict.good,
        etag=validators.etag if validators else None,
        last_modified=validators.last_modified if validators else None,
        validated_url=validators.url if validators else None,
        keep_validators=keep,
        broken_notice=notices.broken(
            source,
            verdict.reason or "",
            state.last_good_at if state else None,
            now,
            config.timezone,
        )
        if verdict.good is False
        else None,
        recovered_notice=notices.recovered(source, now) if verdict.good else None,
        **_shape(read, state, verdict, now),
    )


def _shape(
    read: SourceRead, state: SourceState | None, verdict: HealthVerdict, now: datetime
) -> dict[str, Any]:
    """The SourceNote fields of the source's shape after a good read: its fields' presence,
    the version it was computed from, and the notices of a field gone or back."""
    if not verdict.good or not read.listings:
        return {}
    version = state.shape_version if state else 0
    kept = state.shape if state else {}
    after, changes = shape.advance(
        shape.load(kept), shape.present(read.listings), len(read.listings)
    )
    document = shape.document(after)
    day = now.date().isoformat()
    told: tuple[Listing, ...] = ()
    if changes and shape.allowed(kept, day):  # one notice for the poll's changes, a few a day
        told = (notices.shape_changed(read.source, changes, version + 1, now),)
        document[shape.TOLD] = shape.told_on(kept, day)
    elif isinstance(kept, Mapping) and shape.TOLD in kept:
        document[shape.TOLD] = kept[shape.TOLD]
    return {"shape": document, "shape_version": version, "shape_notices": told}
