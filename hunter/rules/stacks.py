"""The programming stack a developer's job is in, and whether a listing's is another than the
one a chat's words name. Pure, no I/O.

A chat of "Java", "Spring" or "PHP, Laravel" names its stack; a job next to its words
(roles.json's neighbours: "Full Stack Developer"), or like them ("Backend Engineer"), or like a
👍 of it, whose title names only other stacks ("Senior Fullstack Developer (Python)", "Backend
Systems Engineer (Rust)") is a job in a stack it does not work in, and is not brought for it.
A title that names no stack, or names one of the chat's, is brought as before. A chat's word
that names no stack ("backend developer" beside "Java") brings no title of another stack
either ("Backend Developer (Python)"); its words that name one bring their hits.

The stacks are languages with their frameworks, as job titles name them. A web, frontend or
full-stack developer works in the web's stack (JavaScript and its frameworks) whatever else
they name: "web developer" and "PHP" is a chat of two stacks.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

# Each stack with the words titles name it by (a word may be of two: Kotlin is the JVM's and
# Android's).
STACKS = {
    "python": "python django flask fastapi",
    "jvm": "java spring kotlin scala",
    ".net": ".net c# asp.net dotnet",
    "php": "php laravel wordpress symfony drupal magento",
    "web": (
        "javascript typescript node node.js nodejs react react.js reactjs vue vue.js vuejs "
        "angular next.js nextjs nuxt svelte frontend web fullstack 前端 全栈 เว็บ"
    ),
    "ruby": "ruby rails",
    "go": "go golang",
    "rust": "rust",
    "c++": "c++",
    # A mobile developer's: one stack, since Flutter and React Native make iOS and Android apps
    "mobile": "ios swift android kotlin flutter dart",
}
_OF: dict[str, set[str]] = {}
for _stack, _words in STACKS.items():
    for _word in _words.split():
        _OF.setdefault(_word, set()).add(_stack)
# A word of its own: not inside another ("rust" in "trust", "go" in "google", "java" in
# "javascript"), "full stack" and "front-end" as "fullstack" and "frontend"; Thai and Chinese
# anywhere.
_SPELT = {"fullstack": r"full[ -]?stack", "frontend": r"front[ -]?end"}
_NAMED = re.compile(
    "|".join(
        re.escape(w)
        if not w.isascii()
        else rf"(?<![\w.+#])(?:{_SPELT.get(w, re.escape(w))})(?![\w+#-]|\.\w)"
        for w in sorted(_OF, key=len, reverse=True)
    ),
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def stacks_of(text: str) -> frozenset[str]:
    """The stacks `text` names ("Senior Fullstack Developer (React.js / Node.js)": web)."""
    found = (re.sub(r"[ -]", "", m.group(0).casefold()) for m in _NAMED.finditer(text))
    return frozenset(s for word in found for s in _OF.get(word, ()))


@lru_cache(maxsize=4096)
def chat_stacks(include: tuple[str, ...]) -> frozenset[str]:
    """The stacks a chat's keywords name; none when they name none (a chat of "backend"
    works in any)."""
    return frozenset(s for keyword in include for s in stacks_of(keyword))


def in_another_stack(title: str, stacks: Collection[str]) -> bool:
    """Whether `title` names a stack, and none of `stacks` (the chat's), which name one."""
    if not stacks:
        return False  # a chat of no stack works in any: its titles are not read
    its = stacks_of(title)
    return bool(its) and its.isdisjoint(stacks)
