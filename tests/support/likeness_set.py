"""The labelled set of issue 43: 603 real listings of 22 boards (../shared/fixtures/dupes) and
which of them are the same job (tests/fixtures/likeness/labels.json, judged by hand), and how
hunter's likeness scores on it. Used by tests/unit/rules/test_likeness.py and bench/dupes.py.

Scored as a chat sees it: listings arrive in the order they were posted, each new one is
compared with the earlier ones of its title (the store's bucket) and merged with the first
that is the same job, so merges chain; the pairs merged are the pairs within each chain."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hunter.rules.likeness import Likeness, in_another_language, same_job
from hunter.rules.listing import Listing
from hunter.rules.pay import currency_in, parse_budget_range, period_in
from hunter.rules.place import as_remote
from hunter.sources.extract import clean_text, fix_mojibake
from hunter.sources.presets import PRESETS

DUPES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "dupes" / "listings.jsonl"
LABELS = Path(__file__).resolve().parents[1] / "fixtures" / "likeness" / "labels.json"
# Made-up listings in groups of one job and pairs of two, each file with its labels, written by
# helpers who read no code (issue 69's pairs never seen): two tuned on, one measured only
MADE_UP = LABELS.with_name("made_up.json")
MADE_UP_2 = LABELS.with_name("made_up_2.json")
MADE_UP_BLIND = LABELS.with_name("made_up_blind.json")
MADE_UP_3 = LABELS.with_name("made_up_3.json")
MADE_UP_BLIND_2 = LABELS.with_name("made_up_blind_2.json")
MADE_UP_4 = LABELS.with_name("made_up_4.json")
MADE_UP_BLIND_3 = LABELS.with_name("made_up_blind_3.json")
Pair = frozenset[str]


def rows() -> list[dict[str, object]]:
    with DUPES.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def listing(row: dict[str, object]) -> Listing:
    """A captured listing as a source of hunter's would read it: its text as make_listing
    leaves it (RemoteOK's answers are UTF-8 read as Latin-1 upstream: "Ø¯Ø¨Ù" is "دبي"), its
    salary read by hunter's own pay rules (currency and period where the text says them), its
    place as whom it takes where its board's preset says every job is remote (Jobicy's
    "Europe" is "Remote: Europe")."""
    salary = str(row.get("salary") or "")
    least, most = parse_budget_range(salary)

    def text(key: str) -> str:
        return clean_text(fix_mojibake(str(row.get(key) or "")))

    return Listing(
        job_id=str(row["key"]),
        source=str(row["board"]),
        title=text("title"),
        url=str(row.get("url") or ""),
        summary=text("description"),
        budget=least,
        budget_max=most,
        currency=currency_in(salary) or "",
        period=period_in(salary) or "",
        company=text("company")[:80],
        location=_location(str(row["board"]), text("location"))[:80],
    )


def _location(board: str, location: str) -> str:
    return as_remote(location) if PRESETS.get(board, {}).get("remote") else location


def _pairs(groups: list[list[str]]) -> Iterator[Pair]:
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            yield frozenset((a, b))


@dataclass
class Score:
    merged: set[Pair] = field(default_factory=set)  # pairs within each chain of merges
    same: set[Pair] = field(default_factory=set)  # pairs labelled the same job
    unsure: set[Pair] = field(default_factory=set)
    apart: dict[Pair, str] = field(default_factory=dict)  # hard pairs, and why apart
    listings: int = 0
    boards: int = 0
    copies: int = 0  # listings with an earlier copy of their job (labelled): alerts to save
    copies_merged: int = 0  # ... merged into a chain holding one of those earlier copies

    @property
    def copies_recall(self) -> float:
        """Of the repeated alerts a chat would get, the share saved."""
        return self.copies_merged / self.copies if self.copies else 1.0

    @property
    def judged(self) -> set[Pair]:
        return self.merged - self.unsure

    @property
    def precision(self) -> float:
        return len(self.judged & self.same) / len(self.judged) if self.judged else 1.0

    @property
    def recall(self) -> float:
        return len(self.judged & self.same) / len(self.same)

    @property
    def wrong(self) -> set[Pair]:
        return self.judged - self.same

    @property
    def missed(self) -> set[Pair]:
        return self.same - self.merged


def score(made_up: Path | None = None) -> Score:
    """The labelled set's score; or, `made_up`, a set of made-up listings that holds its own
    labels (MADE_UP, MADE_UP_2, MADE_UP_BLIND)."""
    if made_up is None:
        found, labels = rows(), json.loads(LABELS.read_text(encoding="utf-8"))
    else:
        labels = json.loads(made_up.read_text(encoding="utf-8"))
        found = labels["listings"]
    likeness = {str(r["key"]): Likeness.of(listing(r)) for r in found}
    boards = {str(r["key"]): str(r["board"]) for r in found}
    order = sorted(found, key=lambda r: (str(r.get("posted") or "9999"), str(r["key"])))
    chain: dict[str, str] = {}  # a listing -> the first of its chain

    def first(key: str) -> str:
        while chain.get(key, key) != key:
            key = chain[key]
        return key

    earlier: dict[str, list[str]] = {}  # title key -> listings seen, oldest first
    employers: dict[str, list[str]] = {}  # employer -> listings seen, oldest first
    for row in order:
        key = str(row["key"])
        mine = likeness[key]
        bucket = earlier.setdefault(mine.title, []) if mine.title else []
        # As the store answers (sql/postgres/functions/likeness.sql): the earlier listings
        # of its title, and its employer's in another language
        employer = employers.get(mine.company, [])
        other_language = [k for k in employer if in_another_language(mine, likeness[k])]
        for other in bucket + other_language:
            if same_job(mine, likeness[other], boards[key] == boards[other]).same:
                chain[key] = first(other)
                break
        bucket.append(key)
        if mine.company:
            employers.setdefault(mine.company, []).append(key)
    chains: dict[str, list[str]] = {}
    for key in likeness:
        chains.setdefault(first(key), []).append(key)
    arrived = [str(r["key"]) for r in order]
    copies = merged = 0
    for group in labels["same"]:
        members = sorted(group, key=arrived.index)
        for n, key in enumerate(members[1:], 1):
            copies += 1
            merged += key in chain and first(key) in {first(k) for k in members[:n]}
    return Score(
        copies=copies,
        copies_merged=merged,
        merged=set(_pairs(list(chains.values()))),
        same=set(_pairs(labels["same"])),
        unsure=set(_pairs(labels["unsure"])),
        apart={frozenset(p[:2]): p[2] for p in labels["apart"]},
        listings=len(found),
        boards=len({r["board"] for r in found}),
    )
