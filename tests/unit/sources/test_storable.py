"""Whatever a page holds, a listing is something every store can keep: no NUL or other control
characters, no lone surrogates, and an id far below PostgreSQL's key size limit."""

from __future__ import annotations

import pytest

from hunter.sources.extract import NATIVE_ID_MAX_BYTES, make_listing


@pytest.mark.parametrize(
    ("native_id", "title", "job_id", "clean_title"),
    [
        ("42", "Python\x00 dev", "s:42", "Python dev"),
        ("4\x002", "Python dev", "s:42", "Python dev"),  # SQLite would have cut the id at NUL
        ("43", "tab\tand\nnewline", "s:43", "tab and newline"),
        ("44", "bell\x07 \x1b[31mred\x9b", "s:44", "bell [31mred"),
        ("45", "half \ud83d surrogate", "s:45", "half surrogate"),
        ("งาน-46", "ไทย\x00", "s:งาน-46", "ไทย"),
    ],
)
def test_text_and_ids_are_storable(
    native_id: str, title: str, job_id: str, clean_title: str
) -> None:
    listing = make_listing("s", native_id, title, "https://x.test/j", None, "a\x00b")
    assert listing is not None
    assert (listing.job_id, listing.title, listing.summary) == (job_id, clean_title, "ab")


def test_a_long_id_keeps_a_readable_prefix_and_stays_distinct() -> None:
    one = make_listing("s", "job-" + "a" * 5000, "t", "", None, "")
    two = make_listing("s", "job-" + "a" * 4999 + "b", "t", "", None, "")
    assert one is not None and two is not None
    assert one.job_id.startswith("s:job-aaaa") and one.job_id != two.job_id
    assert len(one.job_id.encode()) <= NATIVE_ID_MAX_BYTES
    again = make_listing("s", "job-" + "a" * 5000, "t", "", None, "")
    assert again is not None and again.job_id == one.job_id  # stable across polls


def test_a_long_link_as_the_id_is_bounded_too() -> None:
    link = "https://x.test/jobs?" + "&".join(f"k{n}=v{n}" for n in range(800))
    listing = make_listing("s", "", "t", link, None, "")
    assert listing is not None and len(listing.job_id.encode()) <= NATIVE_ID_MAX_BYTES + 2
    assert listing.url == link  # the link itself is kept whole for the alert's button


def test_an_id_of_nothing_but_control_characters_is_no_id() -> None:
    assert make_listing("s", "\x00\x01", "t", "", None, "") is None
