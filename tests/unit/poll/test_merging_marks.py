"""The marks of the last page recorded (poll/merging.py): what a source's schedule document
keeps, and what is read back from one an older hunter wrote, or a hand edit broke."""

from __future__ import annotations

import pytest

from hunter.poll.merging import PAGE, known_marks, page_marks
from hunter.rules.listing import Listing


def test_a_pages_marks_are_short_sorted_and_once_each() -> None:
    page = [Listing(f"b:{n}", "b", "t", "https://x.test") for n in (3, 1, 3)]
    marks = page_marks(page)
    assert len(marks) == 2 and marks == sorted(marks) and all(len(m) == 8 for m in marks)
    assert known_marks({PAGE: marks, "counts": [0] * 24}) == frozenset(marks)


@pytest.mark.parametrize(
    "document",
    [None, {}, {"counts": [1.0] * 24}, {PAGE: "b:1"}, {PAGE: {"a": 1}}, {PAGE: [1, None]}],
)
def test_a_document_without_readable_marks_knows_no_listing(document: object) -> None:
    assert known_marks(document) == frozenset()  # type: ignore[arg-type]


def test_a_page_shown_again_as_recorded_is_known_for_a_while_and_only_then() -> None:
    """Issue 56: the same page (the same ids, in any order) recorded less than a day ago, and
    less than a quarter of the prune's window, is not recorded again; one listing more or
    fewer, or a page recorded long ago, is."""
    from datetime import UTC, datetime, timedelta

    from hunter.poll.merging import same_page, with_page
    from hunter.store.records import SourceState

    now = datetime(2026, 12, 4, 9, tzinfo=UTC)
    page = [Listing(f"a:{n}", "a", f"job {n}", f"https://a.test/{n}") for n in range(30)]
    schedule = with_page({"cadence": {}}, page, None, now)
    state = SourceState(name="a", cadence=schedule["cadence"])
    later = now + timedelta(hours=5)
    assert same_page(list(reversed(page)), state, later, 45)
    assert not same_page(page[1:], state, later, 45)  # one gone: recorded
    assert not same_page([*page, Listing("a:x", "a", "x", "u")], state, later, 45)
    assert not same_page(page, state, now + timedelta(hours=25), 45)  # a day: again
    seven = now + timedelta(hours=7)
    assert same_page(page, state, seven, 45) and not same_page(page, state, seven, 1)  # 6 h
    assert not same_page(page, None, later, 45) and not same_page([], state, later, 45)
    kept = with_page({"cadence": {}}, None, state, later)  # not recorded: the page stays
    assert kept["cadence"] == state.cadence
