"""What a chat's taps say it wants: 👍 and 👎 under each card, "สมัครแล้ว" counting
as a 👍 and "ไม่สนใจ" as a 👎. Pure: the store gives each chat's newest taps with its rules
(store/chat.py's `rules`), and the judge asks its `Taste`.

A listing is a bag of words: its title's (each twice, since a title says what a job is) and the
first words of its text; Thai, which writes no spaces, as runs of three characters. Two
listings are alike by the cosine of their bags, the chat's own keywords left out of both (every
hit shares them: after a 👎 of "Python WordPress developer", "Python Django developer" is not
alike by its "python"). After a few taps:
- a keyword hit that is as like a 👎'd listing as HOLD, and more like it than any 👍'd one, is
  held back: recorded as seen, counted, and explained by /why ("like a 👎 of <title>");
- a listing the keywords missed that is as like a 👍'd listing as DRAW, and more like it than any
  👎'd one, is alerted, marked "not your words: like <title>".
Each listing's bag is made once for all chats (cached), each tap's once per process; a chat's
taps are at most TAPS_KEPT (its newest), so judging costs at most that many cosines.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise

from hunter.rules.language import THAI
from hunter.rules.roles import NEAR, families_in, near_titles, trades_of
from hunter.rules.stacks import chat_stacks, in_another_stack
from hunter.rules.title_parts import RANKS, ROLE_SET, ROLES, roles_of

LIKED = ("liked", "applied")  # the marks that are a 👍; "dismissed" is a 👎
TAPS_KEPT = 12  # a chat's newest taps the judge reads
TAP_TEXT = 240  # characters of a tapped listing's text kept for its likeness
HOLD = 0.45  # as like a 👎 as this: held back
# ... when its title says one of the chat's keywords: the job it named, held back only by a 👎
# of nearly the same listing (a 👎 of "AWS Platform Security Engineer" says nothing of a
# "Security Engineer, Incident Response" for a chat of "incident response")
HOLD_TITLED = 0.7
DRAW = 0.6  # as like a 👍 as this, the words missing: alerted all the same
_TEXT_WORDS = 40  # words of a listing's text in its bag
_WORD = re.compile(r"[^\W\d_]{2,}|[\u0e00-\u0e7f]+")
# Words that say nothing of what a job is: English's commonest, and the ranks (title_parts.RANKS),
# terms and gender marks every board puts in titles ("Senior", "(m/w/d)", "Remote",
# "Urgently Required").
_STOP_WORDS = (
    "the and for with you your our are will who this that from have has job jobs work team "
    "role position looking we to of in on at an or as is be by it us all new can "
    "internship entry level "
    "remote hybrid onsite full part time contract freelance permanent temporary urgent "
    "urgently required hiring wanted grads welcome wfh office mid ii iii iv"
)
_STOP = frozenset(_STOP_WORDS.split()) | RANKS
# ... and Thai boards' ("fresh graduates welcome", "urgently hiring", "many positions"), taken
# out before Thai is cut in threes: "Technical Consultant (ยินดีรับนักศึกษาจบใหม่)" is no more
# like "Network Engineer (ยินดีรับนักศึกษาจบใหม่)" than like any consultant
_THAI_STOP = (
    "ยินดีรับนักศึกษาจบใหม่", "ยินดีรับนักศึกษาจบ", "ยินดีรับผู้ไม่มีประสบการณ์", "ไม่มีประสบการณ์ก็ได้",
    "รับสมัครด่วน", "ด่วนมาก", "ด่วน", "รับสมัคร", "หลายอัตรา", "หลายตำแหน่ง", "จำนวนมาก",
)  # fmt: skip
SHARED_LEAST = 2  # words a listing shares with a 👍'd one, at least, to be drawn by it
ROLE_DISLIKES = 2  # 👎s of one role, none 👍'd, that teach "not this role"
ROLE_LIKES = 2  # 👍s of a role (roles.json's) that teach "this role" (when one does: liked_roles)


@dataclass(frozen=True)
class Tap:
    """One listing a chat tapped: 👍 (`liked`) or 👎, its title and the start of its text."""

    liked: bool
    title: str
    text: str = ""


def bag(title: str, text: str) -> dict[str, float]:
    """A listing's words, weighted (title words twice), normalised to length 1."""
    return dict(_bag(title, text[: TAP_TEXT * 4]))


@lru_cache(maxsize=8192)
def _bag(title: str, text: str) -> tuple[tuple[str, float], ...]:
    counts: dict[str, float] = {}
    for word in _words(title):
        counts[word] = counts.get(word, 0.0) + 2.0
    for word in list(_words(text))[:_TEXT_WORDS]:
        counts[word] = counts.get(word, 0.0) + 1.0
    norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
    return tuple((w, v / norm) for w, v in counts.items())


def _words(text: str) -> Iterable[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    for phrase in _THAI_STOP if THAI.search(text) else ():
        text = text.replace(phrase, " ")
    for word in _WORD.findall(text):
        if THAI.match(word):
            yield from (word[i : i + 3] for i in range(max(1, len(word) - 2)))
        elif word not in _STOP:
            yield word


def cosine(a: dict[str, float], b: dict[str, float], ignore: frozenset[str] = frozenset()) -> float:
    """The cosine of two bags, the words of `ignore` left out of both."""
    if ignore:
        a = {w: v for w, v in a.items() if w not in ignore}
        b = {w: v for w, v in b.items() if w not in ignore}
    if len(a) > len(b):
        a, b = b, a
    dot = sum(v * b.get(w, 0.0) for w, v in a.items())
    if not dot or not ignore:
        return dot
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def _role_free(title: str) -> str:
    """A neighbour title without its role word, joined: "full stack developer" and
    "fullstack engineer" are one neighbour ("fullstack")."""
    words = [w for w in title.split() if w not in ("engineer", "developer")]
    return "".join(words) or title


def _near_roles(title: str) -> frozenset[str]:
    """The neighbour roles a title says, each as one key ("fullstack")."""
    return frozenset(_role_free(t) for t in near_titles(title))


@lru_cache(maxsize=4096)
def _roles_said(title: str) -> frozenset[str]:
    """The roles a tapped title says: its families, and its neighbours (NEAR + key) when it
    is of no family (a "Full Stack Engineer" is a role of its own, not a backend one)."""
    kinds = families_in(title)
    return kinds or frozenset(NEAR + t for t in _near_roles(title))


def keyword_words(include: Iterable[str]) -> frozenset[str]:
    """The words of a chat's keywords, as bags hold them."""
    return frozenset(w for keyword in include for w in _words(keyword))


@dataclass(frozen=True)
class Taste:
    """One chat's taps, as the judge asks them; `ignore`: the words of its keywords."""

    taps: tuple[Tap, ...]
    ignore: frozenset[str] = frozenset()
    own_roles: frozenset[str] = frozenset()  # the roles the chat's own words name
    keywords: tuple[frozenset[str], ...] = ()  # each keyword's words, as bags hold them
    trades: frozenset[str] = frozenset()  # the families of roles.json its keywords are of
    stacks: frozenset[str] = frozenset()  # the programming stacks its keywords name

    @cached_property  # a Taste is one chat's, cached (taste()): each listing asks it again
    def unwanted_roles(self) -> dict[str, list[str]]:
        """The roles its 👎s teach it does not want: each 👎'd ROLE_DISLIKES times, never
        👍'd, and no word of its own; with the titles that taught it."""
        liked = {r for t in self.taps if t.liked for r in roles_of(t.title)}
        taught: dict[str, list[str]] = {}
        for tap in self.taps:
            for role in roles_of(tap.title) if not tap.liked else ():
                taught.setdefault(role, []).append(tap.title)
        return {
            role: titles
            for role, titles in taught.items()
            if len(titles) >= ROLE_DISLIKES and role not in liked and role not in self.own_roles
        }

    @property
    def likes(self) -> bool:
        return any(t.liked for t in self.taps)

    def _near_disliked(self, title: str) -> tuple[str, ...]:
        """The 👎'd titles that say a role next to the chat's words (roles.json's neighbours)
        that `title` says too, when ROLE_DISLIKES of them do and no 👍 says it: a few 👎s of a
        neighbour leave that neighbour out (one is often of its stack or its place: a "Software
        Engineer (Java)" 👎'd by a Python developer is no "not software engineers")."""
        said = _near_roles(title)
        if not said or not self.taps:
            return ()

        def says(tap: Tap) -> bool:
            return bool(said & _near_roles(tap.title))

        if any(tap.liked and says(tap) for tap in self.taps):
            return ()
        tapped = tuple(t.title for t in self.taps if not t.liked and says(t))
        return tapped if len(tapped) >= ROLE_DISLIKES else ()

    def _titled(self, title: str) -> bool:
        """Whether `title` says one of the chat's keywords (all its words)."""
        said = set(_words(title))
        return any(words and words <= said for words in self.keywords)

    def _named(self, title: str) -> frozenset[str]:
        """The roles of `title` the chat's own words name, as a word before the role ("Sales
        Engineer" for a chat of "sales"): a role it wants, whatever its 👎s of others."""
        words = re.findall(r"[^\W\d_]+", unicodedata.normalize("NFKC", title).casefold())
        return frozenset(
            ROLES[after]
            for before, after in pairwise(words)
            if after in ROLES and before in self.ignore
        )

    def nearest(self, title: str, text: str) -> tuple[float, Tap | None, float, Tap | None]:
        """(how like the nearest 👍 it is, that tap, the same for 👎)."""
        mine = bag(title, text)
        best = {True: (0.0, None), False: (0.0, None)}  # type: dict[bool, tuple[float, Tap | None]]
        for tap in self.taps:
            share = cosine(mine, bag(tap.title, tap.text), self.ignore)
            if share > best[tap.liked][0]:
                best[tap.liked] = (share, tap)
        return (*best[True], *best[False])

    def held(self, title: str, text: str, near: bool = False) -> str:
        """Why a keyword hit is held back, in words; "" when it is not. `near`: it came as a
        role next to the chat's words (roles.json's neighbours), which two 👎 leave out."""
        like, _liked, unlike, disliked = self.nearest(title, text)
        # As like a 👎 as HOLD, or HOLD_TITLED when its title says the chat's words
        alike = unlike >= HOLD and (unlike >= HOLD_TITLED or not self._titled(title))
        if disliked is not None and alike and unlike > like:
            return f"held back: like a 👎 of “{disliked.title[:80]}” ({unlike:.0%} alike)"
        if near and (tapped := self._near_disliked(title)):
            said = ", ".join(f"“{t[:40]}”" for t in tapped[-2:])
            return f"held back: next to your words, and 👎 of {len(tapped)} such ({said})"
        roles = roles_of(title) - self._named(title)
        unwanted = self.unwanted_roles if roles and disliked is not None else {}
        if roles and roles <= set(unwanted):
            role = sorted(roles)[0]
            taught = ", ".join(f"“{t[:40]}”" for t in unwanted[role][-2:])
            article = "an" if role[0] in "aeio" else "a"
            return (
                f"held back: {article} {role}'s job, and 👎 of {len(unwanted[role])} such "
                f"({taught})"
            )
        return ""

    def drawn(self, title: str, text: str) -> str:
        """The title of the 👍'd listing a listing the words missed is like; "" when none.
        Its title must share SHARED_LEAST words with that one's, the chat's keywords aside (a
        bag of one word left, "developer", is alike to every developer) and be of the role that
        👍 was for (_of_its_role), or be of a role its 👍s taught; and it be no nearer a 👎."""
        if in_another_stack(title, self.stacks):
            return ""  # a developer's job in a stack the chat's words do not name (stacks.py)
        like, liked, unlike, disliked = self.nearest(title, text)
        if liked is None:
            return ""  # no word in common with any 👍
        if like >= DRAW and like > unlike and self._of_its_role(title, liked.title):
            shared = set(_words(title)) & set(_words(liked.title)) - self.ignore - ROLE_SET
            if len(shared) >= SHARED_LEAST:
                return liked.title
        if disliked is not None and unlike >= HOLD and unlike > like:
            return ""  # nearer a 👎 than any 👍
        # A job of the kind of one it 👍'd, in other words (a 👍 of "IT Support"
        # brings "Technical Support Engineer"): the newest 👍 of a role its 👍s taught
        kinds = families_in(title) | {NEAR + t for t in _near_roles(title)}
        taught = self.liked_roles
        for tap in reversed(self.taps) if kinds & set(taught) else ():
            if tap.liked and self._liked_for(tap.title) & kinds & set(taught):
                return tap.title
        return ""

    def _of_its_role(self, title: str, liked: str) -> bool:
        """Whether `title` may be of the role a 👍 of `liked` was for: the 👍'd title's
        families of roles.json, those the chat's words name when it names some ("Cybersecurity
        Sales Specialist" 👍'd by an account manager is a 👍 of sales, not of security), meet
        the title's; true when either title is of no family. Two texts of one field are alike
        in words whatever the role: a 👍 of a security firm's sales job drew its engineers."""
        mine = families_in(title)
        theirs = self._liked_for(liked)
        return not mine or not theirs or bool(mine & theirs)

    def _liked_for(self, title: str) -> frozenset[str]:
        """The roles a 👍 of `title` is for: those of its roles the chat's words name when it
        names some (a 👍 of "Cybersecurity Sales Specialist" from a chat of "Account Manager"
        is one of sales), else all it says."""
        said = _roles_said(title)
        return (said & self.trades) or said

    @cached_property
    def liked_roles(self) -> dict[str, int]:
        """The roles (roles.json's families, and neighbours marked NEAR) its 👍s teach it
        wants, with the 👍s of each. A 👍 of a title of one role teaches it, when the chat's
        words name no trade or name that one (a "python" chat's 👍 of "IT Support"); else, and
        for a title of two roles ("Admin Sales-IT / IT Support"), a second 👍 of it must (a
        network engineer's 👍 of "System Administrator", a job next to theirs, is no wish for
        every IT-support job). A 👍 teaches only the roles it was for (_liked_for)."""
        weight: dict[str, int] = {}
        for tap in self.taps:
            said = self._liked_for(tap.title) if tap.liked else frozenset()
            for role in said:
                whole = len(said) == 1 and (not self.trades or role in self.trades)
                weight[role] = weight.get(role, 0) + (ROLE_LIKES if whole else 1)
        return {role: n for role, n in weight.items() if n >= ROLE_LIKES}


@lru_cache(maxsize=4096)
def taste(taps: tuple[Tap, ...], include: tuple[str, ...] = ()) -> Taste:
    """The taste of a chat of these taps and these keywords (one per chat, cached)."""
    own = frozenset(role for keyword in include for role in roles_of(keyword))
    each = tuple(frozenset(_words(keyword)) for keyword in include)
    return Taste(taps, keyword_words(include), own, each, trades_of(include), chat_stacks(include))
