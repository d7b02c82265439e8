"""The sources tier's own fixture: a raw site (tests/support/raw_site.py) a test scripts."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support.raw_site import RawSite, Script


@pytest.fixture
def site() -> Iterator[Callable[[Script], RawSite]]:
    """Makes a RawSite answering with a script; each is closed after the test."""
    made: list[RawSite] = []

    def make(script: Script) -> RawSite:
        made.append(RawSite(script))
        return made[-1]

    yield make
    for each in made:
        each.close()
