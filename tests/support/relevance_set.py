"""Issue 54's labelled set (tests/fixtures/relevance/people.json: 19 people, each of the 603
real listings of ../shared/fixtures/dupes judged by hand for each), issue 63's set judged by
another hand (../shared/fixtures/relevance-people/people.json: four more, with the words they
would type and three listings each would 👍 first), the project's sets held back from tuning
(tests/fixtures/relevance/held_back.json, unseen.json, fresh.json and blind.json: nine people
each of other trades and languages, judged by a hand that never read hunter's code), and how
hunter's layers score on each.
Used by tests/unit/rules/test_relevance.py and bench/relevance.py.

Scored as a person meets hunter: the listings arrive in the order they were posted; each is
judged with the person's rules as they stand; with taps on, the person taps every alert 👍 when
they wanted it and 👎 when not, and hunter keeps their newest taps (rules/taste.py)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.taste import TAP_TEXT, TAPS_KEPT, Tap
from tests.support.likeness_set import DUPES, listing, rows

PEOPLE = Path(__file__).resolve().parents[1] / "fixtures" / "relevance" / "people.json"
# Held back: never tuned on; a rule fitted to one of its listings would make it measure nothing
HELD_BACK = PEOPLE.with_name("held_back.json")
# Judged on the day of a stop's last rule and measured only at its end: a rough check
UNSEEN = PEOPLE.with_name("unseen.json")
# The same, judged at the start of the next stop, measured only at its end
FRESH = PEOPLE.with_name("fresh.json")
# The same, judged at the start of the stop after, measured at its start and its end only
BLIND = PEOPLE.with_name("blind.json")
# The same, judged at the start of the stop after that, measured at its start and its end only
BLIND2 = PEOPLE.with_name("blind2.json")
# The same, judged at the start of the stop after that, measured at its start and its end only
BLIND3 = PEOPLE.with_name("blind3.json")
# The same, judged beside it, measured at that stop's start and end only: kept blind
BLIND4 = PEOPLE.with_name("blind4.json")
# The same, judged at the start of the stop after that, measured at its start and end only
BLIND5 = PEOPLE.with_name("blind5.json")
# Judged by another hand than the project's: never tuned on (issue 63)
OTHERS = DUPES.parents[1] / "relevance-people" / "people.json"
SETS = (
    "own",
    "held back",
    "unseen",
    "fresh",
    "blind",
    "blind 2",
    "blind 3",
    "blind 4",
    "blind 5",
    "others",
)
LAYERS = ("keywords", "+ places", "+ languages", "+ taps")


@dataclass
class Person:
    name: str
    keywords: tuple[str, ...]
    places: tuple[str, ...]
    languages: tuple[str, ...]
    wanted: frozenset[str]
    excluded: tuple[str, ...] = ()
    liked: tuple[str, ...] = ()  # listings the person 👍'd before the first (not scored)

    def rules(self, layer: str) -> FilterConfig:
        rules = FilterConfig(include=self.keywords, exclude=self.excluded)
        if layer != "keywords":
            rules = replace(rules, places=self.places)
        if layer in ("+ languages", "+ taps"):
            rules = replace(rules, languages=self.languages)
        return rules


@dataclass
class Score:
    alerts: int = 0
    hits: int = 0  # alerts wanted
    wanted: int = 0
    drawn: int = 0  # alerts no keyword brought (like a 👍)
    held: int = 0  # keyword hits held back (like a 👎)
    seconds: float = 0.0
    judged: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.hits / self.alerts if self.alerts else 1.0

    @property
    def recall(self) -> float:
        return self.hits / self.wanted if self.wanted else 1.0

    def add(self, other: Score) -> None:
        for name in ("alerts", "hits", "wanted", "drawn", "held", "seconds", "judged"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.missed += other.missed


def people(which: str = "own") -> list[Person]:
    """The people of one set: "own" (the project's, tuned on), "held back" and "unseen" (the
    project's, never tuned on) or "others" (another hand's)."""
    if which == "others":
        return [
            Person(
                name,
                tuple(p["keywords_include"]),
                tuple(p["places"]),
                tuple(p["languages"]),
                frozenset(p["relevant"]),
                tuple(p["keywords_exclude"]),
                tuple(p["liked_examples"]),
            )
            for name, p in json.loads(OTHERS.read_text(encoding="utf-8")).items()
        ]
    sets = {
        "held back": HELD_BACK,
        "unseen": UNSEEN,
        "fresh": FRESH,
        "blind": BLIND,
        "blind 2": BLIND2,
        "blind 3": BLIND3,
        "blind 4": BLIND4,
        "blind 5": BLIND5,
    }
    path = sets.get(which, PEOPLE)
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        Person(
            p["name"],
            tuple(p["keywords"]),
            tuple(p["places"]),
            tuple(p["languages"]),
            frozenset(p["wanted"]),
        )
        for p in data["people"]
    ]


def listings() -> list[Listing]:
    """The 603 listings in the order they were posted (their key breaking ties)."""
    found = [(str(r.get("posted") or ""), str(r["key"]), listing(r)) for r in rows()]
    return [item for _posted, _key, item in sorted(found, key=lambda x: (x[0], x[1]))]


def score(person: Person, layer: str, items: list[Listing]) -> Score:
    """How one person's alerts go with `layer` on, over `items` in order."""
    rules = person.rules(layer)
    first = {item.job_id: item for item in items if item.job_id in person.liked}
    taps = [Tap(True, first[job].title, first[job].summary[:TAP_TEXT]) for job in person.liked]
    items = [item for item in items if item.job_id not in first]  # seen: tapped before
    out = Score(wanted=sum(1 for item in items if item.job_id in person.wanted))
    for item in items:
        if layer == "+ taps":
            rules = replace(rules, taps=tuple(taps[-TAPS_KEPT:]))
        started = time.perf_counter()
        verdict = judge(item, rules)
        out.seconds += time.perf_counter() - started
        out.judged += 1
        wanted = item.job_id in person.wanted
        if verdict.reason.startswith("held back"):
            out.held += 1
        if not verdict.matched:
            if wanted:
                out.missed.append(f"{person.name}: {item.job_id} {verdict.reason}")
            continue
        out.alerts += 1
        out.hits += wanted
        out.drawn += bool(verdict.like)
        if layer == "+ taps":
            taps.append(Tap(wanted, item.title, item.summary[:TAP_TEXT]))
    return out


def pooled(layer: str, which: str = "own") -> tuple[Score, dict[str, Score]]:
    items = listings()
    each = {person.name: score(person, layer, items) for person in people(which)}
    total = Score()
    for one in each.values():
        total.add(one)
    return total, each


__all__ = [
    "BLIND", "BLIND2", "DUPES", "FRESH", "HELD_BACK", "LAYERS", "OTHERS", "SETS", "UNSEEN",
    "Person", "Score", "people", "pooled",
]  # fmt: skip
