"""The alerts a person wants (issue 54): precision and recall of each layer on the labelled set,
and what each layer costs per listing.

    uv run python bench/relevance.py              # prints the tables
    uv run python bench/relevance.py --write      # and puts them in bench/RESULTS.md

1. The labelled sets: the project's, tuned on (tests/fixtures/relevance/people.json, 19 people),
   held back (held_back.json, nine), unseen (unseen.json, nine), fresh (fresh.json, nine),
   blind (blind.json, nine), blind 2 to 5 (blind2.json ... blind5.json, nine each), and
   another hand's
   (../shared/fixtures/relevance-people, four);
   each of the 603 real listings of ../shared/fixtures/dupes judged by hand for each person.
   Scored as a person meets hunter (tests/support/relevance_set.py): listings in the order they
   were posted, judged by the person's keywords alone, then with their places, their languages,
   and their taps (they tap every alert 👍 when they wanted it, 👎 when not). Pooled precision (of
   the alerts, the share wanted) and recall (of the wanted, the share alerted), and each
   person's.
2. How each board's places are read (issue 63: 北京市 was unknown, and kept for a chat in
   Bangkok): of the listings that give a place, the share read as remote, as somewhere, and
   unknown (kept for every chat, as a place it cannot judge), with the unknown ones named.
3. The cost of reading one listing once for all chats, cold (its caches cleared, the gazetteer
   and the language model loaded before): its place, its language and its bag of words, the
   median of the 603; and the one-time loads a process pays at its first listing.
A benchmark: it reports and never fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sections import replace_section  # noqa: E402
from tests.support.relevance_set import (  # noqa: E402
    DUPES,
    LAYERS,
    OTHERS,
    SETS,
    listings,
    people,
    pooled,
)

SECTION = "## The alerts a person wants (bench/relevance.py)"


def quality() -> list[str]:
    lines: list[str] = []
    for which in SETS:
        if which == "others" and not OTHERS.exists():
            lines += ["", f"(the set judged by another hand needs {OTHERS})"]
            continue
        lines += table(which)
    return lines


def table(which: str) -> list[str]:
    folks = people(which)
    said = {
        "own": "The project's labelled set (tests/fixtures/relevance/people.json), tuned on",
        "held back": (
            "The project's set held back from tuning (tests/fixtures/relevance/held_back.json): "
            "people of other trades and languages, judged by a hand that never read hunter's code"
        ),
        "unseen": (
            "The project's set judged at the end of the stop that wrote the rules "
            "(tests/fixtures/relevance/unseen.json), never tuned on; few listings suit its "
            "people, a rough check"
        ),
        "fresh": (
            "The project's set judged at the start of the next stop (tests/fixtures/relevance/"
            "fresh.json), measured only at its end, never tuned on; few listings suit its people, "
            "a rough check"
        ),
        "blind": (
            "The project's set judged at the start of the stop after fresh.json's "
            "(tests/fixtures/relevance/blind.json), measured at that stop's start and end only, "
            "never tuned on; few listings suit its people, a rough check. Since read: a rule of "
            "the next stop (systems administrators apart from IT support) came from its SRE's "
            "alerts"
        ),
        "blind 2": (
            "The project's set judged at the start of the stop after blind.json's "
            "(tests/fixtures/relevance/blind2.json), measured at that stop's start (0.71 / "
            "0.69) and after each rule; its people's places were read (words for remote work "
            "in Polish, Vietnamese's city names) when the set was assembled, none of its "
            "listings"
        ),
        "blind 3": (
            "The project's set judged at the start of the stop after blind2.json's "
            "(tests/fixtures/relevance/blind3.json), measured at that stop's start (0.36 / "
            "0.30); then its missed listings were read for their kinds (a commute around a "
            "city, a title that says where the job is, Latin words with a Chinese role word, "
            "English words in Thai letters): tuned on since"
        ),
        "blind 4": (
            "The project's set judged beside blind3.json (tests/fixtures/relevance/blind4.json), "
            "measured at that stop's start (0.71 / 0.61) and end (0.69 / 0.61) in aggregate; "
            "read for its kinds of miss at the start of the next stop (a keyword's joining "
            "words, its field at its level, a language set apart in a title): tuned on since"
        ),
        "blind 5": (
            "The project's set judged at the start of the stop after blind4.json's "
            "(tests/fixtures/relevance/blind5.json), measured at that stop's start (0.55 / "
            "0.68) and end (0.58 / 0.70) only, in aggregate; never read listing by listing, "
            "never tuned on; few listings suit its people, a rough check"
        ),
        "others": (
            "The set judged by another hand (../shared/fixtures/relevance-people), never tuned "
            "on; with taps, each starts from the 3 listings they would 👍 first (not scored)"
        ),
    }[which]
    lines = [
        "",
        f"{said}: {len(listings())} real listings, {len(folks)} people, every listing judged "
        "by hand for each.",
        "",
        "| layers | precision | recall | alerts | wanted alerted | drawn by a 👍 | held by a 👎 "
        "| " + " | ".join(p.name for p in folks) + " |",
        "|---|---|---|---|---|---|---|" + "---|" * len(folks),
    ]
    for layer in LAYERS:
        total, each = pooled(layer, which)
        per = " | ".join(f"{s.hits}/{s.alerts} of {s.wanted}" for s in each.values())
        lines.append(
            f"| {layer} | {total.precision:.2f} | {total.recall:.2f} | {total.alerts} "
            f"| {total.hits} of {total.wanted} | {total.drawn} | {total.held} | {per} |"
        )
    lines += ["", "(each person: wanted alerted / alerts of wanted)"]
    return lines


def places() -> list[str]:
    from hunter.rules.place import where_of

    counts: dict[str, Counter[str]] = {}
    unknown: Counter[str] = Counter()
    for item in listings():
        board = counts.setdefault(item.source, Counter())
        if not item.location.strip():
            board["no place given"] += 1
            continue
        where = where_of(item.location, item.title, item.summary)
        kind = "remote" if where.remote else "somewhere" if where.at else "unknown"
        board[kind] += 1
        if kind == "unknown":
            unknown[item.location.strip()] += 1
    kinds = ("somewhere", "remote", "unknown", "no place given")
    lines = [
        "",
        "How each board's places are read (the 603 listings): a place read as somewhere, as "
        "remote, or unknown (kept for every chat); and listings that give none.",
        "",
        "| board | " + " | ".join(kinds) + " |",
        "|---|" + "---|" * len(kinds),
    ]
    total: Counter[str] = Counter()
    for board, found in sorted(counts.items()):
        total.update(found)
        lines.append(f"| {board} | " + " | ".join(str(found[k]) for k in kinds) + " |")
    lines.append("| all | " + " | ".join(f"**{total[k]}**" for k in kinds) + " |")
    given = sum(total[k] for k in kinds[:3])
    named = ", ".join(
        f"{place!r} x{n}" if n > 1 else repr(place) for place, n in unknown.most_common()
    )
    lines += [
        "",
        f"Unknown: {total['unknown']} of the {given} that give a place "
        f"({total['unknown'] / max(given, 1):.1%}): {named or 'none'}.",
    ]
    return lines


def cost() -> list[str]:
    from hunter.rules import job_keys, language, place, roles, stacks, taste
    from hunter.rules.gazetteer import gazetteer

    started = time.perf_counter()
    gazetteer()
    loads = {"gazetteer": time.perf_counter() - started}
    started = time.perf_counter()
    language._model()
    loads["language model"] = time.perf_counter() - started
    started = time.perf_counter()
    job_keys._countries()  # a title's places (place._where), read once a process
    loads["countries"] = time.perf_counter() - started
    items = listings()
    took: dict[str, list[float]] = {"place": [], "language": [], "words": [], "roles": []}
    readers = (
        ("place", lambda x: place.where_of(x.location, x.title, x.summary), (place._where,)),
        # the language it is written in, and those its title asks for
        (
            "language",
            lambda x: (language.language_of(x.title, x.summary), language.asked_in(x.title)),
            (language._language, language.asked_in),
        ),
        ("words", lambda x: taste.bag(x.title, x.summary), (taste._bag,)),
        # its title's words and joins, its families (issue 63's words in other words) and the
        # programming stacks it names
        (
            "roles",
            lambda x: (roles.families_in(x.title), stacks.stacks_of(x.title)),
            (roles.title_words, roles.title_joins, roles.families_in, stacks.stacks_of),
        ),
    )
    roles.families_in("")  # roles.json read once, as a process does at its first listing
    for item in items:
        for name, read, caches in readers:
            for cached in caches:
                cached.cache_clear()
            started = time.perf_counter()
            read(item)
            took[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(v) * 1e3 for name, v in took.items()}
    worst = max(sum(t) for t in zip(*took.values(), strict=True)) * 1e3
    together = [sum(t) * 1e3 for t in zip(*took.values(), strict=True)]
    return [
        "",
        "Reading one listing for all chats, cold, in ms (the median of "
        f"{len(items)}): place {medians['place']:.3f}, language {medians['language']:.3f}, "
        f"words for the taps {medians['words']:.3f}, its title's words, families of roles and "
        f"stacks {medians['roles']:.3f}; the four together "
        f"{statistics.median(together):.3f} (p90 {sorted(together)[len(together) * 9 // 10]:.3f}, "
        f"at most {worst:.2f}). Each chat's judging after it is a few dictionary look-ups and at "
        "most 12 cosines.",
        "",
        "Once per process, at the first listing a chat with places or languages judges: "
        + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in loads.items())
        + ".",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if not DUPES.exists():
        sys.exit(f"bench/relevance.py needs {DUPES} (../shared beside the checkout)")
    measured = cost()  # first: its one-time loads are this process's first
    lines = quality() + places() + measured
    print("\n".join(lines))
    if args.write:
        replace_section(SECTION, lines)


if __name__ == "__main__":
    main()
