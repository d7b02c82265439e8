"""The programming stack a developer's job is in (rules/stacks.py): a job next to a chat's words
or like them, or like a 👍 of it, or hit by a word of the chat's that names no stack, whose title
names only stacks other than the ones the chat's words name is not brought. Made-up titles."""

from __future__ import annotations

import pytest

from hunter.rules.fanout import Fanout
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.stacks import chat_stacks, in_another_stack, stacks_of
from hunter.rules.taste import Tap


@pytest.mark.parametrize(
    ("title", "stacks"),
    [
        ("Senior Fullstack Developer (Python)", {"python", "web"}),
        ("Backend Systems Engineer (Rust)", {"rust"}),
        ("Software Engineer, L3 Support (.NET) (m/f/d)", {".net"}),
        ("Full Stack Engineer", {"web"}),
        ("Front-end Engineer (Vue.js)", {"web"}),
        ("C++ Developer", {"c++"}),
        ("Kotlin Developer", {"jvm", "mobile"}),
        ("iOS Developer (Swift)", {"mobile"}),
        ("高级 Go 后端开发工程师", {"go"}),
        ("นักพัฒนาเว็บ", {"web"}),
        # Words inside others, and words that are no stack, name none
        ("Trust & Safety Lead", set()),
        ("Go-to-Market Manager", set()),
        ("Google Ads Specialist", set()),
        ("JavaScript Developer", {"web"}),
        ("Web3 Community Manager", set()),
        ("Senior Software Engineer", set()),
    ],
)
def test_a_title_names_its_stacks(title: str, stacks: set[str]) -> None:
    assert stacks_of(title) == stacks


def test_a_chats_words_name_its_stacks_or_none() -> None:
    assert chat_stacks(("Java", "backend developer", "Spring")) == {"jvm"}
    assert chat_stacks(("web developer", "PHP", "Laravel")) == {"web", "php"}
    assert chat_stacks(("backend", "API")) == frozenset()
    assert not in_another_stack("Android Developer", chat_stacks(("Flutter",)))  # both mobile
    assert in_another_stack("Fullstack Developer (Python)", {"jvm"})
    assert not in_another_stack("Fullstack Developer (Java, React)", {"jvm"})
    assert not in_another_stack("Software Engineer", {"jvm"})  # names none
    assert not in_another_stack("Fullstack Developer (Python)", ())  # the chat names none


def job(n: int, title: str) -> Listing:
    return Listing(f"b:{n}", "b", title, f"https://b.test/{n}", summary="Build our platform.")


def test_a_java_developer_is_not_brought_jobs_next_to_theirs_in_another_stack() -> None:
    java = FilterConfig(include=("Java", "backend developer"))
    assert not judge(job(1, "Senior Fullstack Developer (Python)"), java).matched
    assert not judge(job(2, "Backend Engineer (Rust)"), java).matched
    assert judge(job(3, "Software Engineer"), java).near == "backend developer"
    assert judge(job(4, "Backend Engineer (Kotlin)"), java).kin == "backend developer"
    # Its word of no stack ("backend developer") does not bring a job of another stack: the
    # people judged said so (a Java developer's "Senior Backend Developer (Python)", a Python
    # developer's "Senior Java Backend Developer"); its words that name one still do.
    held = judge(job(5, "Backend Developer (Python)"), java)
    assert not held.matched and held.reason.startswith("another stack than this chat's words")
    # ... and the index that judges a listing for every chat of a poll says the same (it
    # sent this chat the Python job while `hunter check` said it would not)
    assert Fanout([("java", java, {})]).judge(job(5, "Backend Developer (Python)")) == []
    assert [n for n, _ in Fanout([("java", java, {})]).judge(job(6, "Java Backend Developer"))]
    assert judge(job(6, "Java Backend Developer"), java).matched
    assert judge(job(7, "Backend Developer"), java).matched  # no stack said: any
    # A chat of no stack ("backend") is brought them as before.
    backend = FilterConfig(include=("backend developer",))
    assert judge(job(1, "Senior Fullstack Developer (Python)"), backend).near
    # Nor does a 👍 draw a job in another stack.
    liked = Tap(True, "Senior Backend Engineer, Payments (Java)", "Build our payments platform.")
    tapped = FilterConfig(include=("Java",), taps=(liked,))
    similar = Listing("b:6", "b", "Senior Backend Engineer, Payments (Go)", "https://b.test/6")
    assert not judge(similar, tapped).matched
    assert judge(similar, FilterConfig(include=("payments api",), taps=(liked,))).like
