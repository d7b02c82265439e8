"""The gazetteer reads GeoNames' cities in a child process of its own, which sends back only
the compact arrays (its memory given back whole when it ends; bench/RESULTS.md measures it):
the index it builds that way is the one this process builds reading them itself, and when the
child cannot run, the gazetteer reads them here."""

from __future__ import annotations

import sys

import pytest

from hunter.rules import gazetteer


def arrays(found: gazetteer.Gazetteer) -> tuple[object, ...]:
    return (
        found._hashes.tobytes(),
        found._rows.tobytes(),
        found._label_at.tobytes(),
        found._where.tobytes(),
        found._division.tobytes(),
        found.labels,
        found._divisions,
    )


def test_a_child_reads_the_cities_as_this_process_would() -> None:
    here = gazetteer.Gazetteer(here=True)  # in this process
    child = gazetteer.Gazetteer()
    assert arrays(child) == arrays(here)
    assert len(child._label_at) > 60_000  # cities5000: 69,000 places
    assert [a.name for a in child.areas("München")] == ["Munich, DE"]
    assert child.areas("Oberkochen")[0].countries == frozenset(["DE"])


def test_without_a_child_the_cities_are_read_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")  # no process can start
    read = gazetteer.Gazetteer()
    assert [a.name for a in read.areas("Lisboa")] == ["Lisbon, PT"]
