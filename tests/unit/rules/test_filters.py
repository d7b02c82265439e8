"""Matching as people who run such bots learnt it, one table."""

from __future__ import annotations

import pytest

from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing

THAI_TRAP = {"ไลน์": ("ออนไลน์",)}


def listing(title: str, summary: str = "", budget: int | None = None) -> Listing:
    return Listing("s:1", "s", title, "https://x.test/1", budget, summary)


@pytest.mark.parametrize(
    ("title", "rules", "matched"),
    [
        ("Build an AI assistant", FilterConfig(include=("ai",)), True),
        ("Blockchain developer", FilterConfig(include=("ai",)), False),  # "ai" inside "chain"
        ("Naive Bayes tutoring", FilterConfig(include=("ai",)), False),
        ("Run Facebook ads", FilterConfig(include=("ads",)), True),
        ("Generate sales leads", FilterConfig(include=("ads",)), False),  # "ads" inside "leads"
        ("PYTHON scraper", FilterConfig(include=("python",)), True),  # case-insensitive
        ("Pythonista wanted", FilterConfig(include=("python",)), False),
        ("งานAIด่วน", FilterConfig(include=("ai",)), True),  # Thai next to Latin is a boundary
        ("ทำบอทตอบแชท", FilterConfig(include=("บอท",)), True),  # Thai matches as a substring
        ("ทำบอทไลน์ร้านกาแฟ", FilterConfig(include=("ไลน์",), ignore_within=THAI_TRAP), True),
        ("ขายของออนไลน์", FilterConfig(include=("ไลน์",), ignore_within=THAI_TRAP), False),
        (
            "ขายของออนไลน์ และทำไลน์ OA",
            FilterConfig(include=("ไลน์",), ignore_within=THAI_TRAP),
            True,
        ),  # one hit outside the trap is enough
        (
            "WordPress plugin in Python",
            FilterConfig(include=("python",), exclude=("wordpress",)),
            False,
        ),
        ("ออกแบบโลโก้ด้วย AI", FilterConfig(include=("ai",), exclude=("โลโก้",)), False),
        ("Anything at all", FilterConfig(), True),  # no include: everything
        ("C++ engine work", FilterConfig(include=("c++",)), True),
    ],
)
def test_keywords(title: str, rules: FilterConfig, matched: bool) -> None:
    assert judge(listing(title), rules).matched is matched


def test_summary_counts_too() -> None:
    assert judge(listing("Help wanted", "needs python"), FilterConfig(include=("python",))).matched


@pytest.mark.parametrize(
    ("budget", "matched"),
    [(5000, True), (4999, False), (None, True)],
)
def test_min_budget_hides_only_known_small_budgets(budget: int | None, matched: bool) -> None:
    rules = FilterConfig(include=("python",), min_budget=5000)
    assert judge(listing("python job", budget=budget), rules).matched is matched


@pytest.mark.parametrize(
    ("title", "include", "matched"),
    [
        # A title says what the job is, a text what it touches (issue 69): a nurse's word in
        # a security manager's text ("Pflege der Systeme") is no nurse's job
        ("Cybersecurity Manager (m/w/d)", ("DGKP", "Pflege", "Krankenpflege"), False),
        ("Senior Account Manager Public & Healthcare", ("cybersecurity", "SOC analyst"), False),
        ("Diplomierte Pflegekraft (m/w/d)", ("DGKP", "Pflege", "Krankenpflege"), True),
        ("Stationsleitung", ("DGKP", "Pflege", "Krankenpflege"), True),  # a title of no trade
        ("Data Engineer", ("python", "django"), True),  # words of no trade: its text is enough
    ],
)
def test_a_word_only_in_the_text_of_another_trades_title_is_no_hit(
    title: str, include: tuple[str, ...], matched: bool
) -> None:
    from hunter.rules.fanout import Fanout

    text = "Pflege der Systeme, python, django, cybersecurity, SOC analyst."
    rules = FilterConfig(include=include)
    verdict = judge(listing(title, text), rules)
    assert verdict.matched is matched, verdict
    assert bool(Fanout([("chat", rules, {})]).judge(listing(title, text))) is matched
    if not matched:
        assert "is only in its text, and its title is of" in verdict.reason


@pytest.mark.parametrize(
    ("title", "include", "matched"),
    [
        # A learner's place is for whoever asks for one (issue 69: a cook was sent "Lehre zum
        # Koch", a data scientist "ฝึกงาน ตำแหน่ง Data Engineer", a nurse an Ausbildungsplatz)
        ("Lehre zum Koch (m/w/d)", ("Koch", "Sous Chef"), False),
        ("ฝึกงาน ตำแหน่ง Data Engineer", ("data engineer",), False),
        ("Software Engineer Intern", ("software engineer",), False),
        ("Lehre zum Koch (m/w/d)", ("Koch", "Lehrstelle", "Lehre"), True),
        ("ฝึกงาน ตำแหน่ง Data Engineer", ("data engineer", "ฝึกงาน"), True),
        ("机械设计实习生", ("机械设计 实习",), True),
        ("Software Engineer Intern", ("software engineer", "student job"), True),
        ("International Sales Manager", ("sales manager",), True),  # no intern in it
    ],
)
def test_an_internship_or_apprenticeship_is_for_a_chat_that_asks_for_one(
    title: str, include: tuple[str, ...], matched: bool
) -> None:
    from hunter.rules.fanout import Fanout

    rules = FilterConfig(include=include)
    verdict = judge(listing(title), rules)
    assert verdict.matched is matched, verdict
    assert bool(Fanout([("chat", rules, {})]).judge(listing(title))) is matched
    if not matched:
        assert verdict.reason == "an internship or apprenticeship: none of your words asks for one"
