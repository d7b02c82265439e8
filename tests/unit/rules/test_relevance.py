"""Issue 54's must-show 1 and 2 on its labelled set (tests/fixtures/relevance/people.json: 19
people, each of the 603 real listings judged by hand for each), scored as a person meets hunter
(tests/support/relevance_set.py): with their keywords, places and languages, and tapping 👍/👎
on what they get, pooled precision >= 0.66 and recall >= 0.87 (issue 63's words in other
words; the nine who joined last were the first set held back, and hold most of the misses);
the places and languages lose no wanted listing; keywords alone never draw by taps.
The people held back from tuning (held_back.json) hold a floor.
And on the four people judged by another hand (../shared/fixtures/relevance-people), never
tuned to: precision and recall >= 0.80 with every layer."""

from __future__ import annotations

import pytest

from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from tests.support import relevance_set
from tests.support.likeness_set import DUPES

pytestmark = pytest.mark.skipif(
    not DUPES.exists(), reason="../shared/fixtures/dupes is not here (a user's clone); CI has it"
)


def test_every_layer_on_the_labelled_set() -> None:
    scores = {layer: relevance_set.pooled(layer)[0] for layer in relevance_set.LAYERS}
    words, places, languages, taps = (scores[layer] for layer in relevance_set.LAYERS)
    assert (words.wanted, len(relevance_set.people())) == (121, 19)
    # Keywords alone: most alerts are not wanted (a security engineer in Munich is sent every
    # cybersecurity job of Germany, Poland and Switzerland); their words in other words
    # (roles.py, issue 63) find 37 of the first four's 38, where the words as written found
    # 24; 109 of the nineteen's 121.
    assert words.precision < 0.2 and words.recall >= 0.9, words.missed
    # Places and languages leave out most unwanted alerts and not one wanted listing.
    assert places.hits == languages.hits == words.hits
    assert languages.alerts <= places.alerts < words.alerts / 3
    # Taps: what is like a 👎 is held back, what is like a 👍 comes without the words.
    assert taps.held > 0 and taps.drawn > 0
    assert taps.precision >= 0.66, (taps.hits, taps.alerts)
    assert taps.recall >= 0.87, taps.missed


def test_the_set_held_back_from_tuning_holds_its_measure() -> None:
    """The project's people held back from tuning (tests/fixtures/relevance/held_back.json):
    a floor under what is measured (0.40 precision and 0.79 recall with taps when they were
    judged; 0.54 and 0.74 once a 👍 taught only the role it was for and a stack was read; 0.52
    and 0.79 with roles.json's families of trades beyond IT's, some of them these people's: a
    figure no longer wholly unseen), so that a change that loses them fails; never a target."""
    taps = relevance_set.pooled("+ taps", "held back")[0]
    assert taps.wanted == 43
    assert taps.precision >= 0.48 and taps.recall >= 0.70, (taps.precision, taps.recall)


@pytest.mark.skipif(
    not relevance_set.OTHERS.exists(), reason="../shared/fixtures/relevance-people is not here"
)
def test_every_layer_on_people_judged_by_another_hand() -> None:
    """Issue 63: at least 0.80 precision and 0.80 recall with taps, for people hunter was never
    tuned to (they heard of 69% of the jobs they wanted with the words as written)."""
    words, _places, _languages, taps = (
        relevance_set.pooled(layer, "others")[0] for layer in relevance_set.LAYERS
    )
    assert words.wanted == 113
    assert words.recall >= 0.85, words.missed
    assert taps.precision >= 0.80, (taps.hits, taps.alerts)
    assert taps.recall >= 0.80, taps.missed


def test_keywords_alone_judge_as_before() -> None:
    """A chat with no places, no languages and no taps: judge() is the keyword judge it was."""
    for person in relevance_set.people():
        rules = FilterConfig(include=person.keywords)
        for item in relevance_set.listings():
            verdict = judge(item, rules)
            assert verdict.like == "" and not verdict.reason.startswith(
                ("held", "place", "written")
            )
