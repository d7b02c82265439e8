"""Has a board changed shape? How often each field hunter reads is present, and when one that
used to be there is gone from every listing. Pure, no I/O.

A board can rename a field at any time (Jobicy's annualSalaryMin became salaryMin in 2026).
Nothing fails: the listings still come, each with its pay "not stated", so the source's health
alarm (hunter/poll/health.py) never rings. This is the other alarm. Per source and field, the
store keeps how many listings had the field (its rate) and, since it was last seen, how many
polls and listings were without it. A field is gone when

- it was established: seen in at least `ESTABLISHED_POLLS` polls and `ESTABLISHED_ITEMS`
  listings (a board that never states pay never has it);
- it has been absent from every listing of at least `ABSENT_POLLS` polls in a row (one poll
  without it is chance, or a flip);
- and so many listings in a row without it would be a chance under `CHANCE` at the rate it
  had: (1 - rate) ** absent listings. A field in 30% of listings needs 13 listings without it,
  one in every listing needs only the two polls; a board with one listing a poll needs more
  polls than one with fifty.

The rate is a smoothed estimate (present / (listings + 2)), so that a few listings never make
a certainty. A gone field is told once; it is told back once it has been in listings for
`BACK_POLLS` polls in a row. A field told gone `FLAPS` times comes and goes: it is told once as
unreliable, then never again. A notice costs the owner as much as a listing (a field
missing two polls and back one, again and again, queued 231 notices in 20 polls), so a
source's changes of one poll are one notice (hunter/poll/health.py), and a source makes at
most `NOTICES_A_DAY` of them a day (`allowed`).
The title and the id are not tracked here: a listing without them is skipped, and a poll that
skips most of its items is a broken source already, as is a list of items that is no longer
found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hunter.rules.listing import Listing

ESTABLISHED_POLLS = 3
ESTABLISHED_ITEMS = 5
ABSENT_POLLS = 2
BACK_POLLS = 3  # polls in a row with a gone field before it is told back
FLAPS = 2  # told gone this often: it comes and goes; told once so, then kept quiet
NOTICES_A_DAY = 2  # shape notices of one source in one day (UTC)
TOLD = "_told"  # the document's key of the notices told today: {"day": ..., "count": ...}
CHANCE = 0.01
WINDOW = 500  # listings the rate remembers: older ones weigh less, so a rate can change

# The fields a listing may carry beyond its title and id (its attribute: the name a person
# reads in a notice).
FIELDS: dict[str, str] = {
    "url": "link",
    "budget": "pay",
    "summary": "summary",
    "category": "category",
    "engagement": "type",
    "offers": "offers",
    "deadline": "deadline",
    "posted": "posted time",
}


def present(listings: Sequence[Listing]) -> dict[str, int]:
    """How many of `listings` carry each field."""
    counts = dict.fromkeys(FIELDS.values(), 0)
    for listing in listings:
        for attribute, name in FIELDS.items():
            value = getattr(listing, attribute)
            if value is not None and value != "":
                counts[name] += 1
    return counts


@dataclass(frozen=True)
class FieldTrack:
    """What is remembered of one field of one source."""

    polls: int = 0  # polls (with listings) it was counted in, before its absence began
    items: float = 0.0  # listings counted then (weighed, at most WINDOW)
    seen: float = 0.0  # ... of which carried the field
    absent_polls: int = 0  # polls in a row since, without it in any listing
    absent_items: int = 0  # listings in those polls
    gone: bool = False  # told as gone, not yet as recovered
    back_polls: int = 0  # while gone: polls in a row with it again
    flaps: int = 0  # times it was found gone
    quiet: bool = False  # told as unreliable: never told again

    @property
    def rate(self) -> float:
        return self.seen / (self.items + 2)

    @property
    def established(self) -> bool:
        return (
            self.polls >= ESTABLISHED_POLLS
            and self.items >= ESTABLISHED_ITEMS
            and self.seen >= ESTABLISHED_POLLS
        )

    def document(self) -> dict[str, Any]:
        return {
            "polls": self.polls,
            "items": round(self.items, 3),
            "seen": round(self.seen, 3),
            "absent_polls": self.absent_polls,
            "absent_items": self.absent_items,
            "gone": self.gone,
            "back_polls": self.back_polls,
            "flaps": self.flaps,
            "quiet": self.quiet,
        }

    @classmethod
    def from_document(cls, data: Mapping[str, Any]) -> FieldTrack:
        def number(key: str) -> float:
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                return 0.0
            return float(value)

        return cls(
            polls=int(number("polls")),
            items=number("items"),
            seen=number("seen"),
            absent_polls=int(number("absent_polls")),
            absent_items=int(number("absent_items")),
            gone=data.get("gone") is True,
            back_polls=int(number("back_polls")),
            flaps=int(number("flaps")),
            quiet=data.get("quiet") is True,
        )


GONE, BACK, UNRELIABLE = "gone", "back", "unreliable"


@dataclass(frozen=True)
class Change:
    """A field that went (GONE), came back (BACK), or comes and goes (UNRELIABLE)."""

    field: str
    kind: str


def step(track: FieldTrack, seen: int, items: int) -> tuple[FieldTrack, str | None]:
    """One poll of `items` listings, `seen` of which carry the field: the field's new track,
    and GONE, BACK or UNRELIABLE when that is to be told now, None otherwise."""
    if items <= 0:
        return track, None
    if seen > 0:
        if track.gone and track.back_polls + 1 < BACK_POLLS:  # back, not yet for good
            return replace(track, back_polls=track.back_polls + 1), None
        # A short absence was chance after all, and counts toward the rate; the absence of a
        # field told as gone was a change of the board, since undone, and does not.
        absent_polls, absent_items = (
            (0, 0) if track.gone else (track.absent_polls, track.absent_items)
        )
        counted = track.items + absent_items + items
        scale = min(1.0, WINDOW / counted)
        after = FieldTrack(
            polls=track.polls + absent_polls + 1,
            items=counted * scale,
            seen=(track.seen + seen) * scale,
            flaps=track.flaps,
            quiet=track.quiet,
        )
        return after, (BACK if track.gone and not track.quiet else None)
    after = replace(
        track,
        absent_polls=track.absent_polls + 1,
        absent_items=track.absent_items + items,
        back_polls=0,
    )
    if after.gone or not after.established or after.absent_polls < ABSENT_POLLS:
        return after, None
    if (1 - after.rate) ** after.absent_items >= CHANCE:
        return after, None
    flaps = track.flaps + 1
    if track.quiet:
        return replace(after, gone=True, flaps=flaps), None
    if flaps >= FLAPS:
        return replace(after, gone=True, flaps=flaps, quiet=True), UNRELIABLE
    return replace(after, gone=True, flaps=flaps), GONE


Shape = dict[str, FieldTrack]


def advance(
    shape: Mapping[str, FieldTrack], counts: Mapping[str, int], items: int
) -> tuple[Shape, list[Change]]:
    """Every field's track after one poll, and the fields that went or came back."""
    after: Shape = dict(shape)
    changes = []
    for name in FIELDS.values():
        after[name], change = step(shape.get(name, FieldTrack()), counts.get(name, 0), items)
        if change is not None:
            changes.append(Change(name, change))
    return after, changes


def allowed(data: object, day: str) -> bool:
    """Whether a source whose shape document is `data` may tell another notice on `day`."""
    told = data.get(TOLD) if isinstance(data, Mapping) else None
    if not isinstance(told, Mapping) or told.get("day") != day:
        return True
    count = told.get("count")
    return not isinstance(count, int) or count < NOTICES_A_DAY


def told_on(data: object, day: str) -> dict[str, Any]:
    """The TOLD entry after one more notice on `day`."""
    told = data.get(TOLD) if isinstance(data, Mapping) else None
    before = told.get("count") if isinstance(told, Mapping) and told.get("day") == day else 0
    return {"day": day, "count": (before if isinstance(before, int) else 0) + 1}


def load(data: object) -> Shape:
    """A source's shape as the store keeps it (a JSON object); empty for anything else."""
    if not isinstance(data, Mapping):
        return {}
    return {
        name: FieldTrack.from_document(value)
        for name, value in data.items()
        if name in FIELDS.values() and isinstance(value, Mapping)
    }


def document(shape: Mapping[str, FieldTrack]) -> dict[str, Any]:
    return {name: track.document() for name, track in sorted(shape.items())}


def presence(data: object) -> dict[str, dict[str, Any]]:
    """Each field's share of listings that carried it, and whether it is gone, from the store's
    document: what `hunter status --json` shows."""
    shown, tracks = {}, load(data)
    for name in FIELDS.values():
        track = tracks.get(name)
        if track is not None and (track.items or track.gone):
            share = round(track.seen / track.items, 3) if track.items else 0.0
            shown[name] = {"present": share, "gone": track.gone}
    return shown


def describe(data: object) -> str:
    """The fields in words, for `hunter status`: "link 100%, pay GONE (was 97%)"; "" when none
    was ever counted."""
    words = []
    for name, seen in presence(data).items():
        share = f"{seen['present']:.0%}"
        words.append(f"{name} GONE (was {share})" if seen["gone"] else f"{name} {share}")
    return ", ".join(words)


def gone(data: object) -> list[str]:
    """The fields told as gone and not back."""
    return [name for name, seen in presence(data).items() if seen["gone"]]
