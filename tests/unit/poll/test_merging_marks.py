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
