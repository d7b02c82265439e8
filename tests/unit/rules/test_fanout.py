"""The fan-out index judges as judge() does, chat for chat: the same chats want a listing, with
the same keywords, on generated listings and rules (Latin edges, Thai, traps, excludes, floors,
mutes, words inside words), and a poll of 50 listings for 10,000 chats is one pass a listing."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from hunter.rules.fanout import Fanout, Judge
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing

UNTIL = datetime(2027, 1, 1, tzinfo=UTC)
THAI_TRAP = {"ไลน์": ("ออนไลน์",)}

# Few letters, so that words occur inside words and next to each other: "aa" in "aaa", Thai
# around Latin, a trap word around its keyword.
LETTERS = st.sampled_from(list("abAB ไลน์ออ-9é"))
WORDS = st.text(LETTERS, min_size=1, max_size=4).map(str.strip).filter(bool)


@st.composite
def rules(draw: st.DrawFn) -> tuple[FilterConfig, dict[str, datetime]]:
    include = tuple(draw(st.lists(WORDS, max_size=3)))
    exclude = tuple(draw(st.lists(WORDS, max_size=2)))
    traps = draw(st.sampled_from([{}, THAI_TRAP, {"a": ("aa", "ba")}, {"A": ("ab",)}]))
    floor = draw(st.sampled_from([0, 0, 500, 5000]))
    muted = draw(st.lists(st.sampled_from([w.casefold() for w in include] or ["x"]), max_size=2))
    filter_ = FilterConfig(include, exclude, floor, traps)
    return filter_, dict.fromkeys(muted, UNTIL)


def _listing(title: str, summary: str, budget: int | None) -> Listing:
    return Listing("s:1", "s", title, "https://x.test/1", budget, summary)


def _one_by_one(judges: list[Judge], listing: Listing) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (name, verdict.keywords)
        for name, filter_, mutes in judges
        if (verdict := judge(listing, filter_, mutes)).matched
    ]


@settings(max_examples=400, deadline=None)
@given(
    chats=st.lists(rules(), min_size=1, max_size=6),
    title=st.text(LETTERS, max_size=14),
    summary=st.text(LETTERS, max_size=8),
    budget=st.sampled_from([None, 100, 1000, 9000]),
)
def test_the_index_judges_as_judge_does(
    chats: list[tuple[FilterConfig, dict[str, datetime]]],
    title: str,
    summary: str,
    budget: int | None,
) -> None:
    judges: list[Judge] = [(f"c{n}", f, m) for n, (f, m) in enumerate(chats)]
    listing = _listing(title, summary, budget)
    indexed = [(name, v.keywords) for name, v in Fanout(judges).judge(listing)]
    assert indexed == _one_by_one(judges, listing)


def test_todays_rules_hold_through_the_index() -> None:
    judges: list[Judge] = [
        ("ai", FilterConfig(include=("ai",)), {}),
        ("line", FilterConfig(include=("ไลน์",), ignore_within=THAI_TRAP), {}),
        ("py-not-wp", FilterConfig(include=("python",), exclude=("wordpress",)), {}),
        ("muted", FilterConfig(include=("python", "django")), {"python": UNTIL}),
        ("rich", FilterConfig(include=("python",), min_budget=5000), {}),
        ("all", FilterConfig(), {}),  # no include: everything
    ]
    fanout = Fanout(judges)

    def wanted(title: str, budget: int | None = None) -> list[str]:
        return [name for name, _v in fanout.judge(_listing(title, "", budget))]

    assert wanted("Blockchain in Python", 1000) == ["py-not-wp", "all"]  # "ai" in "chain": no
    assert wanted("Build an AI bot") == ["ai", "all"]
    assert wanted("ขายของออนไลน์") == ["all"]  # ไลน์ only inside ออนไลน์
    assert wanted("ทำบอทไลน์ร้านกาแฟ") == ["line", "all"]
    assert wanted("WordPress and Python", 9000) == ["rich", "all"]
    assert wanted("Django and Python", 9000) == ["py-not-wp", "muted", "rich", "all"]
    judged = fanout.judge(_listing("Django, python", "", 1))
    [(_name, verdict)] = [x for x in judged if x[0] == "muted"]
    assert verdict.keywords == ("django",)  # the muted word is not what it matched on


def test_ten_thousand_chats_cost_one_pass_a_listing() -> None:
    """Ratios in one run, not a time limit: 10,000 chats judged through the index against
    judge() chat by chat (bench/community.py measures the poll). The chats share 200 sets of
    words, so that judge()'s cache of compiled sets holds them all: its best case."""
    vocabulary = [f"skill{n}" for n in range(800)] + ["python", "react", "โลโก้", "แอดมิน"]
    sets = [tuple(vocabulary[(n * 7 + k * 13) % 804] for k in range(5)) for n in range(200)]
    judges: list[Judge] = [
        (f"telegram:{n}", FilterConfig(include=sets[n % 200]), {}) for n in range(10_000)
    ]
    listings = [
        _listing(f"Need python and skill{n} for a shop โลโก้", "remote", None) for n in range(10)
    ]
    fanout = Fanout(judges)
    started = time.process_time()
    through_index = [fanout.judge(x) for x in listings]
    index_cpu = time.process_time() - started
    started = time.process_time()
    one_by_one = [_one_by_one(judges, x) for x in listings]
    plain_cpu = time.process_time() - started
    assert [[(n, v.keywords) for n, v in w] for w in through_index] == one_by_one
    assert sum(len(w) for w in one_by_one) > 100  # many chats want each one
    assert index_cpu * 20 < plain_cpu, (index_cpu, plain_cpu)


# Words of real keywords and titles, so that their other words (roles.py: spellings, words in
# any order, a family's titles, Thai titles) meet: "help desk" and "helpdesk", "Groß" folding
# to two letters before a Thai title.
KEYWORDS = st.sampled_from(
    ["IT Support", "helpdesk", "security engineer", "cybersecurity", "ไอทีซัพพอร์ต", "python"]
)
TITLE_WORDS = st.sampled_from(
    ["it", "support", "help", "desk", "technical", "engineer", "security", "cyber", "noc",
     "Groß", "ช่างไอที", "python", "-", "customer", "officer"]
)  # fmt: skip


# Chats of those keywords, some muting one
CHATS = st.lists(
    st.tuples(
        st.lists(KEYWORDS, min_size=1, max_size=3, unique=True),
        st.lists(st.sampled_from(["it support", "helpdesk", "python"]), max_size=1),
    ),
    min_size=1,
    max_size=5,
)


def _as_judge_does(chats: list[tuple[list[str], list[str]]], listing: Listing) -> None:
    judges: list[Judge] = [
        (f"c{n}", FilterConfig(include=tuple(words)), dict.fromkeys(muted, UNTIL))
        for n, (words, muted) in enumerate(chats)
    ]
    indexed = [(name, v) for name, v in Fanout(judges).judge(listing)]
    one_by_one = [
        (name, verdict)
        for name, filter_, mutes in judges
        if (verdict := judge(listing, filter_, mutes)).matched
    ]
    assert indexed == one_by_one


@settings(max_examples=300, deadline=None)
@given(chats=CHATS, title=st.lists(TITLE_WORDS, min_size=1, max_size=5).map(" ".join))
def test_the_index_finds_their_words_in_other_words_as_judge_does(
    chats: list[tuple[list[str], list[str]]], title: str
) -> None:
    _as_judge_does(chats, _listing(title, "", None))


@settings(max_examples=300, deadline=None)
@given(
    chats=CHATS,
    title=st.sampled_from(
        ["Engineer", "Senior Engineer", "Developer II", "Specialist (m/w/d)", "วิศวกร", "NOC"]
    ),
    text=st.lists(TITLE_WORDS, min_size=0, max_size=60).map(" ".join),
)
def test_a_generic_titles_text_is_read_by_the_index_as_judge_reads_it(
    chats: list[tuple[list[str], list[str]]], title: str, text: str
) -> None:
    """A title that names no trade is judged by the start of its text (roles.found_in_text):
    the index asks the chats whose forms that start says, and no other."""
    _as_judge_does(chats, _listing(title, text, None))
