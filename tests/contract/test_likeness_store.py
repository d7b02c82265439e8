"""The likeness room, the same on SQLite, PostgreSQL and Supabase (issue 43): a note in one call
says which listings hunter never recorded and keeps them, and answers the earlier listings of
their titles (oldest first, within the window, never themselves) with the chats each went or
goes to; the prune forgets the old ones."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from hunter.rules.likeness import Likeness, same_job
from hunter.rules.listing import Listing
from hunter.store.base import Store
from hunter.store.likeness import Noted

T0 = datetime(2026, 12, 3, 9, tzinfo=UTC)
TEXT = "We build payment tools for small shops. You will run our Python services on AWS."


def job(job_id: str, title: str = "Senior Python Developer", company: str = "Acme") -> Listing:
    source = job_id.split(":")[0]
    return Listing(
        job_id, source, title, f"https://{source}.test/{job_id}", summary=TEXT, company=company
    )


def pairs(*listings: Listing) -> list[tuple[Listing, Likeness]]:
    return [(x, Likeness.of(x)) for x in listings]


def test_a_note_keeps_what_is_new_and_answers_the_earlier_of_its_titles(store: Store) -> None:
    first = store.likeness.note(pairs(job("remotive:1"), job("remotive:2", "Designer")), T0, T0)
    assert first.fresh == {"remotive:1", "remotive:2"} and first.earlier == ()
    store.outbox.record("remotive", [job("remotive:1"), job("remotive:2", "Designer")], set(), T0)
    later = T0 + timedelta(hours=2)
    again = store.likeness.note(pairs(job("himalayas:9"), job("remotive:1")), T0, later)
    assert again.fresh == {"himalayas:9"}  # remotive:1 is recorded: never a copy
    [earlier] = again.earlier  # shown again beside it, it is still the earlier one
    assert earlier.job_id == "remotive:1" and earlier.seen_at == T0
    assert (earlier.url, earlier.title) == ("https://remotive.test/remotive:1", job("x:1").title)
    assert earlier.likeness == Likeness.of(job("remotive:1"))
    assert earlier.chats == frozenset()  # recorded, but primed: no chat was sent it
    # A read of listings all recorded before (most reads) looks nothing up.
    assert store.likeness.note(pairs(job("remotive:1")), T0, later) == Noted(frozenset(), ())


def test_the_earlier_say_which_chats_were_sent_them(store: Store) -> None:
    store.outbox.record("remotive", [job("remotive:0", "Seed")], set(), T0)  # primes
    store.likeness.note(pairs(job("remotive:1")), T0, T0)
    listing = job("remotive:1")
    store.outbox.record(
        "remotive", [listing], {"remotive:1"}, T0, chats={"remotive:1": [("team", listing)]}
    )
    noted = store.likeness.note(pairs(job("himalayas:9")), T0, T0 + timedelta(hours=1))
    assert [e.chats for e in noted.earlier] == [frozenset({"", "team"})]


def test_the_window_and_the_prune(store: Store) -> None:
    store.likeness.note(pairs(job("remotive:1")), T0, T0)
    later = T0 + timedelta(days=50)
    assert (
        store.likeness.note(pairs(job("himalayas:9")), later - timedelta(days=45), later).earlier
        == ()
    )
    asked = store.likeness.note(pairs(job("jobicy:3")), T0, later, keep=False)
    assert [e.job_id for e in asked.earlier] == ["remotive:1", "himalayas:9"]  # oldest first
    assert store.likeness.prune(T0 + timedelta(days=1)) == 1  # remotive:1; himalayas:9 stays
    assert [e.job_id for e in store.likeness.note(pairs(job("jobicy:3")), T0, later).earlier] == [
        "himalayas:9"
    ]  # jobicy:3 was not kept when asked with keep=False


def test_a_bucket_answers_no_listing_of_another_stated_employer(store: Store) -> None:
    """A common title is thousands of earlier listings; those of another employer can never be
    the same job, so they are not answered (nor read, nor judged). One whose board states no
    employer still is, and a listing without one is answered every one of its title."""
    kept = [job("remotive:1"), job("jobicy:2", company="Globex Inc."), job("wwr:3", company="")]
    store.likeness.note(pairs(*kept), T0, T0)
    later = T0 + timedelta(hours=1)

    def asked(listing: Listing) -> list[str]:
        return [e.job_id for e in store.likeness.note(pairs(listing), T0, later, False).earlier]

    # Kept together: oldest first is by id then. "ACME, Inc." is Acme once its form is dropped.
    assert asked(job("himalayas:9", company="ACME, Inc.")) == ["remotive:1", "wwr:3"]
    assert asked(job("himalayas:9", company="Globex")) == ["jobicy:2", "wwr:3"]
    assert asked(job("himalayas:9", company="")) == ["jobicy:2", "remotive:1", "wwr:3"]
    assert asked(job("himalayas:9", company="Initech")) == ["wwr:3"]
    # Two fresh listings of one title at two employers: each one's candidates, no others.
    both = pairs(job("himalayas:9", company="Globex"), job("himalayas:8", company="Initech"))
    assert [e.job_id for e in store.likeness.note(both, T0, later, False).earlier] == [
        "jobicy:2",
        "wwr:3",
    ]


def test_a_board_of_one_title_costs_each_read_the_same(store: Store) -> None:
    """Issue 55, high 3: a board showing 1,000 new listings of one title a read (no employer)
    made each look-up slower by 0.9 s per 1,000 kept. A note answers at most 32 of the newest
    of each kind, so the eighth read costs what the first did."""
    seconds, answered = [], []
    for read in range(8):
        now = T0 + timedelta(minutes=10 * read)
        listings = [
            Listing(
                f"copycat:{read}-{n}",
                "copycat",
                "Data Entry",
                f"https://copycat.test/{read}-{n}",
                summary=f"{TEXT} Batch {read}, place {n}: {n * 7919 % 10007} rows a day.",
            )
            for n in range(1000)
        ]
        look = pairs(*listings)
        # SQLite works in this process: its CPU time, which a busy machine does not stretch
        timer = time.process_time if store.dialect == "sqlite" else time.perf_counter
        note = lambda: store.likeness.note(look, T0, now, False)  # noqa: B023, E731
        seconds.append(_quickest(note, timer))
        noted = store.likeness.note(look, T0, now)  # each likeness made once: 40% of this test
        answered.append(len(noted.earlier))
        store.outbox.record("copycat", listings, set(), now)
    assert answered == [0] + [32] * 7  # the newest 32 of its kind, whatever is kept
    # The last read's look-up costs what the second's did (the quickest of seven tries each,
    # `keep` off; 150 ms for a busy machine's pauses, which a full suite on two cores met
    # through the Supabase stand-in's HTTP, against 025's growth of 0.9 s per 1,000 kept: 6 s
    # by the eighth read).
    assert seconds[-1] <= 2 * seconds[1] + 0.15, seconds


def _quickest(call: Callable[[], object], timer: Callable[[], float], tries: int = 7) -> float:
    best = float("inf")
    for _ in range(tries):
        started = timer()
        call()
        best = min(best, timer() - started)
    return best


def test_a_title_with_no_text_and_no_employer_is_neither_kept_nor_looked_up(store: Store) -> None:
    from hunter.poll.merging import Copies
    from hunter.rules.destinations import Destinations
    from hunter.settings.config import parse_config

    source = {"name": "copycat", "url": "https://c.test/", "item": "li", "title": "a", "id": "@id"}
    config = parse_config({"sources": [source]})
    bare = [
        Listing(f"copycat:{n}", "copycat", "Data Entry", f"https://c.test/{n}") for n in range(50)
    ]
    copies = Copies.of(bare, config.sources[0], store, config, Destinations(None, ()), T0)
    assert copies.fresh == frozenset() and all(lk is None for _x, lk in copies.listings)
    # Nothing kept: the employer's own listing of that title later finds no copy to merge into.
    assert store.likeness.note(pairs(job("acme:1", "Data Entry")), T0, T0).earlier == ()


def test_one_employers_other_names_are_looked_up_too(store: Store) -> None:
    """The earlier listings of a title under one employer's other name: its division ("Acme
    Robotics" beside "Acme"), or spelled with a space ("Data Dog" beside "Datadog"); never
    another employer's ("Acmeworks" is not "Acme": same_job decides on the words)."""
    kept = [
        job("remotive:1", company="Acme Robotics"),
        job("remotive:2", company="Data Dog"),
        job("remotive:3", company="Zenith"),
    ]
    store.likeness.note(pairs(*kept), T0, T0)
    later = T0 + timedelta(hours=1)
    found = store.likeness.note(pairs(job("himalayas:9", company="Acme Ltd")), T0, later)
    assert [e.job_id for e in found.earlier] == ["remotive:1"]
    found = store.likeness.note(pairs(job("himalayas:8", company="Datadog")), T0, later)
    assert [e.job_id for e in found.earlier] == ["remotive:2"]
    found = store.likeness.note(pairs(job("himalayas:7", company="Ze")), T0, later)
    assert found.earlier == ()  # two letters name no employer's start


def test_a_name_in_two_scripts_is_looked_up_under_either(store: Store) -> None:
    """Issue 69's pairs: Indeed China writes "云帆机器人 Yunfan Robotics", LinkedIn "Yunfan
    Robotics", a Chinese board "深圳云帆机器人有限公司": one employer, whichever came first."""
    title = "嵌入式软件工程师 (Embedded Software Engineer)"
    store.likeness.note(pairs(job("indeed:1", title, "云帆机器人 Yunfan Robotics")), T0, T0)
    later = T0 + timedelta(hours=1)
    for n, other in enumerate(("Yunfan Robotics", "深圳云帆机器人有限公司"), start=2):
        found = store.likeness.note(pairs(job(f"linkedin:{n}", title, other)), T0, later)
        assert [e.job_id for e in found.earlier][:1] == ["indeed:1"], other
    store.likeness.note(pairs(job("boss:5", "数据工程师", "深圳微光科技有限公司")), T0, T0)
    found = store.likeness.note(
        pairs(job("indeed:6", "数据工程师", "Weilan Tech 微澜科技")), T0, later
    )
    assert found.earlier == ()  # another employer's two names


ITALIAN = (
    "Cerchiamo un Senior IT Security Architect. Responsabilità: definire gli standard di IT "
    "Security Architecture, garantire la conformità a PCI-DSS e NIST CSF, progettare sistemi "
    "sicuri con Defense in Depth."
)
ENGLISH = (
    "We are looking for a Senior IT Security Architect. Responsibilities: define IT Security "
    "Architecture standards, ensure compliance with PCI-DSS and NIST CSF, design secure systems "
    "with Defense in Depth."
)


def worded(job_id: str, title: str, text: str, company: str = "Experis") -> Listing:
    return Listing(
        job_id, "adzuna", title, f"https://adzuna.test/{job_id}", summary=text, company=company,
        location="Paradiso, Switzerland",
    )  # fmt: skip


def test_its_employers_listings_in_another_language_are_looked_up_too(store: Store) -> None:
    """One employer's ad in Italian, then in English under its English title: the note answers
    the Italian one (same_job decides). Not its listings in the same language under another
    title (those are other jobs), nor another employer's; at most 32 of them, of the employer's
    96 newest."""
    italian = worded("adzuna:1", "Architetto Senior di Sicurezza Informatica", ITALIAN)
    store.likeness.note(
        pairs(
            italian,
            worded("adzuna:2", "Senior Cloud Engineer", ENGLISH.replace("Architect", "Engineer")),
            worded("adzuna:3", "Architetto Cloud", ITALIAN, company="Zenith"),
        ),
        T0,
        T0,
    )
    later = T0 + timedelta(hours=1)
    english = worded("adzuna:9", "Senior Security Architect", ENGLISH)
    found = store.likeness.note(pairs(english), T0, later)
    assert [e.job_id for e in found.earlier] == ["adzuna:1"]
    assert found.earlier[0].likeness == Likeness.of(italian)  # its names kept and read back
    verdict = same_job(Likeness.of(english), found.earlier[0].likeness)
    assert verdict.same and "one job in en and it" in str(verdict), verdict
    # An employer of a hundred Italian listings: the look-up answers 32 at most
    many = [worded(f"adzuna:{n}", f"Ruolo {n}", ITALIAN) for n in range(100, 200)]
    store.likeness.note(pairs(*many), T0, later)
    answered = store.likeness.note(pairs(worded("adzuna:99", "Role", ENGLISH)), T0, later)
    assert 0 < len(answered.earlier) <= 32
