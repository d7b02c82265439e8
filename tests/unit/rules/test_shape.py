"""The presence rule of hunter/rules/shape.py, as a table: boards as they really state a field
(always, never, in 30% of listings, with one or two listings a poll, flipping every poll,
flapping), then the poll at which it stops: when, if ever, the owner is told it is gone, that
it is back, or that it comes and goes; and a flapping board's notices, counted."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hunter.rules import shape
from hunter.rules.shape import FieldTrack

# A poll: (listings with the field, listings in all).
Poll = tuple[int, int]


def told(polls: Sequence[Poll]) -> list[tuple[int, str]]:
    """(poll number from 1, "gone", "back" or "unreliable") for each change the polls tell."""
    track, said = FieldTrack(), []
    for number, (seen, items) in enumerate(polls, start=1):
        track, change = shape.step(track, seen, items)
        if change is not None:
            said.append((number, change))
    return said


def thirty_percent(polls: int) -> list[Poll]:
    """10 listings a poll, 3 of them with the field (2, 3 or 4: it varies)."""
    return [(2 + n % 3, 10) for n in range(polls)]


@pytest.mark.parametrize(
    ("board", "polls", "expected"),
    [
        ("always there", [(20, 20)] * 12, []),
        ("never stated", [(0, 20)] * 12, []),
        ("in 30% of listings", thirty_percent(12), []),
        # Renamed after 3 polls: told at the second poll without it, once however long.
        ("renamed", [(20, 20)] * 3 + [(0, 20)] * 6, [(5, "gone")]),
        # Back only once it has stayed back 3 polls (issue 37)
        ("renamed, then back", [(20, 20)] * 3 + [(0, 20)] * 3 + [(20, 20)] * 3, [
            (5, "gone"), (9, "back"),
        ]),
        # Missing 2 polls, back 1, again and again: told gone once, never back, never again
        ("flapping", [(20, 20)] * 3 + [(0, 20), (0, 20), (20, 20)] * 6, [(5, "gone")]),
        # Gone, back for good, gone again: it comes and goes, told once so, then quiet
        ("gone twice", ([(20, 20)] * 3 + [(0, 20)] * 2) * 2 + [(20, 20)] * 3 + [(0, 20)] * 4, [
            (5, "gone"), (8, "back"), (10, "unreliable"),
        ]),
        # Two polls of 10 without a field seen in 30%: 0.7 ** 20 is well under 1%.
        ("in 30%, then renamed", thirty_percent(4) + [(0, 10)] * 3, [(6, "gone")]),
        # Not established yet: 2 polls are no history.
        ("renamed early", [(20, 20)] * 2 + [(0, 20)] * 6, []),
        # One or two listings a poll: three listings without it are chance (0.25 ** 3 at a
        # smoothed rate of 6 / 8), four are not.
        ("few listings", [(1, 1), (2, 2), (1, 1), (2, 2)] + [(0, 1)] * 3, []),
        ("few listings, renamed", [(1, 1), (2, 2), (1, 1), (2, 2)] + [(0, 1), (0, 2)] * 3, [
            (7, "gone"),
        ]),
        # All of them one poll, none the next: never two polls in a row without it.
        ("flips every poll", [(20, 20), (0, 20)] * 8, []),
        # Polls without listings say nothing about a field.
        ("empty polls", [(20, 20)] * 3 + [(0, 0)] * 5 + [(20, 20)], []),
    ],
)  # fmt: skip
def test_the_presence_rule(board: str, polls: list[Poll], expected: list[tuple[int, str]]) -> None:
    assert told(polls) == expected, board


def test_a_rate_moves_with_the_board_and_is_kept_as_a_document() -> None:
    """The rate forgets old listings (a board that states pay less now is judged by now), and
    a track survives the store's JSON both ways; a damaged document starts afresh."""
    track = FieldTrack()
    for _ in range(50):
        track, _change = shape.step(track, 20, 20)
    for _ in range(50):
        track, _change = shape.step(track, 2, 20)
    assert 0.1 < track.rate < 0.3  # from 100% to 10%, after 1,000 listings at 10%
    kept = shape.document({"pay": track})
    assert shape.load(kept) == {"pay": FieldTrack.from_document(kept["pay"])}
    assert shape.load({"pay": {"polls": "x", "items": -3}, "nonsense": {}}) == {"pay": FieldTrack()}
    assert shape.load(None) == {} and shape.load([1]) == {}


def test_a_flapping_board_queues_few_notices() -> None:
    """Issue 37, medium 2: 3 sources with 7 fields, each field missing 2 polls and back for 1,
    over 20 polls, queued 231 notices (11 LINE pushes). One notice per source and poll, at most
    NOTICES_A_DAY a day; here at most 6 in all."""
    fields = list(shape.FIELDS.values())
    notices = 0
    for _source in range(3):
        document: dict[str, object] = {}
        for number in range(20):
            present = number < 3 or number % 3 == 2
            counts = dict.fromkeys(fields, 20 if present else 0)
            after, changes = shape.advance(shape.load(document), counts, 20)
            kept = document
            document = dict(shape.document(after))
            if changes and shape.allowed(kept, "2026-12-02"):
                notices += 1
                document[shape.TOLD] = shape.told_on(kept, "2026-12-02")
            elif shape.TOLD in kept:
                document[shape.TOLD] = kept[shape.TOLD]
    assert notices <= 6


def test_a_source_tells_at_most_two_notices_a_day() -> None:
    document: dict[str, object] = {}
    for _ in range(shape.NOTICES_A_DAY):
        assert shape.allowed(document, "2026-12-02")
        document[shape.TOLD] = shape.told_on(document, "2026-12-02")
    assert not shape.allowed(document, "2026-12-02")
    assert shape.allowed(document, "2026-12-03")  # a new day
