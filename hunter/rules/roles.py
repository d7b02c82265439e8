"""A chat's words in other words: the listings its keywords miss only because the
board wrote the job otherwise. Pure, no I/O.

Two kinds, each judged on a listing's title alone (a title says what the job is; a text says
what it touches, and "technical support" in a sales job's text is no support job):
- **its own words, otherwise written**: a keyword of several words meets a title that holds
  them all, in any order ("security engineer" meets "Principal Engineer, Product Security"),
  and a word meets its spellings with or without spaces and hyphens ("cybersecurity", "Cyber
  Security" and "cyber-security" are one; so are "IT-Security" and "IT Security");
- **a job like it**: a keyword that is one of a family's titles in roles.json (roles that are
  one job under other names, in English, Thai, German and Chinese) brings the family's other
  titles: "IT Support" brings "Technical Support Engineer", "NOC Engineer" and "เจ้าหน้าที่ไอที". Such
  a listing is marked as not the chat's words ("💡 a job like 'IT Support'"), and its 👎 teaches
  as any other. So is a keyword's field said with another word of its level ("patient care
  coordinator" brings "Patient Care Specialist": _PEERS).

A title's words are its runs of Latin letters and digits, folded; and each two neighbours
joined ("cyber" "security" -> "cybersecurity"), so that spellings meet without a dictionary.
Thai, written without spaces, is matched as a phrase anywhere in the title.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import pairwise

from hunter.rules.stacks import chat_stacks, in_another_stack
from hunter.rules.title_parts import (
    HAN,
    HAN_ROLE,
    LATIN_WORD,
    RANKS,
    ROLES,
    TEXT_HEAD,
    UNSPACED,
    generic,
    roles_of,
    words_of,
)


@dataclass(frozen=True)
class Form:
    """One way a listing's title says a chat's keyword: every word of `words` among the
    title's words, or, for Thai, `phrase` in it."""

    keyword: str  # the chat's keyword, as written
    family: str  # "" for the keyword's own words; else the family whose title this is
    words: frozenset[str] = frozenset()
    phrase: str = ""  # Thai: anywhere in the title
    # A family's title of several words: them in this order, side by side (its words in any
    # order say another job: "IT Security Officer" is no "IT Officer")
    run: tuple[str, ...] = ()
    # A keyword of one word: only its spelling in two ("help desk" for "helpdesk"); the word
    # itself is the keyword's own hit, minding its ignore_within traps
    joined: bool = False

    def said_by(self, title: str) -> bool:
        if self.phrase:  # each of its parts, in any order: "ขาย มือถือ", "机械设计 实习"
            folded = title.casefold()
            return all(part in folded for part in self.phrase.split(PARTS))
        if self.joined:
            return self.words <= title_joins(title)
        if not self.words <= title_words(title):
            return False
        if not self.run:  # its own words, in any order: within one of the title's roles
            return len(self.words) < 2 or any(self.words <= title_words(p) for p in roles_in(title))
        return _side_by_side(self.run, words_of(title))

    @property
    def index(self) -> tuple[frozenset[str], str, bool]:
        """What a Fanout indexes it by: the words (or Thai phrase) a title must hold, and
        whether among its joined words only."""
        return self.words, self.phrase, self.joined


@lru_cache(maxsize=4096)
def roles_in(title: str) -> tuple[str, ...]:
    """A title of two roles joined by "/" as each ("Senior Data Scientist/ML Engineer" names
    no data engineer); any other title as itself ("Java/Kotlin Backend Engineer")."""
    parts = [part for part in title.split("/") if part.strip()]
    if len(parts) > 1 and all(roles_of(part) for part in parts):
        return tuple(parts)
    return (title,)


def _side_by_side(run: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether `run` stands in `words` side by side (joined in one word, it is a form of its
    own: _own)."""
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


@lru_cache(maxsize=4096)
def title_words(title: str) -> frozenset[str]:
    """A title's words and each two neighbours joined (the spellings of one word meet), and
    the English words Thai spells in its own letters ("Admin แผนกไอที" says "admin" and
    "it": an "IT Admin" chat's words)."""
    words = frozenset(words_of(title)) | title_joins(title)
    if not _THAI_LETTER.search(title):
        return words
    return words | {english for thai, english in _SPELT_IN_THAI.items() if thai in title}


_THAI_LETTER = re.compile(r"[\u0e00-\u0e7f]")
# English words of the trades that Thai titles spell in Thai letters (a word of its own there,
# never a part of a Thai one)
_SPELT_IN_THAI = {
    "ไอที": "it", "แอดมิน": "admin", "ซัพพอร์ต": "support", "ซัพพอร์ท": "support",
    "โปรแกรมเมอร์": "programmer", "กราฟิก": "graphic", "ดีไซเนอร์": "designer",
    "ดีไซน์เนอร์": "designer", "คอนเทนต์": "content", "มาร์เก็ตติ้ง": "marketing",
    "เน็ตเวิร์ค": "network", "ดิจิทัล": "digital", "ออนไลน์": "online", "เซอร์วิส": "service",
}  # fmt: skip


@lru_cache(maxsize=4096)
def title_joins(title: str) -> frozenset[str]:
    """Each two neighbouring words of a title, joined ("help desk" -> "helpdesk")."""
    return frozenset(a + b for a, b in pairwise(words_of(title)))


@lru_cache(maxsize=8192)
def _own(keyword: str, family: str = "") -> tuple[Form, ...]:
    """The forms of a keyword's own words (or of a title of its `family`): all of them in any
    order, and all joined; a Thai one, as a phrase (a chat's own Thai keyword already meets a
    title anywhere, minding its ignore_within traps: it has no other form)."""
    folded = keyword.casefold()
    if UNSPACED.search(folded):
        if family:
            return (Form(keyword, family, phrase=folded),)
        parts = folded.split()  # a chat's own words apart by a space: each, in any order
        if len(parts) > 1 and all(UNSPACED.search(part) for part in parts):
            return (Form(keyword, family, phrase=PARTS.join(parts)),)
        return ()
    found = words_of(folded)
    if len(found) == 1:  # a chat's own word is sought only spelt in two (Form.joined)
        return (Form(keyword, family, frozenset(found), joined=not family),)
    if not found:
        return ()
    run = found if family else ()  # a chat's own words in any order; a title's side by side
    joined = Form(keyword, family, frozenset(["".join(found)]))
    return (Form(keyword, family, _said_words(found, family), run=run), joined)


def _said_words(found: tuple[str, ...], family: str) -> frozenset[str]:
    """The words of a chat's keyword a title must hold, in any order: all but the small words
    that join them ("director of engineering" is "Director, Engineering"; "specjalista ds.
    bezpieczeństwa" is "Specjalista Bezpieczeństwa IT"). A family's title, read side by side,
    keeps them all."""
    kept = [word for word in found if word not in _JOINING]
    return frozenset(kept if not family and len(kept) >= 2 else found)


# The words that join a title's others in the boards' languages: English, German, French,
# Spanish, Portuguese, Italian, Dutch and Polish ("ds." is "do spraw", in charge of)
_JOINING = frozenset(
    [
        "of", "for", "the", "and", "in", "at", "von", "der", "des", "für", "und", "de", "du",
        "la", "le", "les", "el", "los", "las", "del", "y", "di", "e", "da", "do", "dos", "van",
        "voor", "het", "en", "ds",
    ]
)  # fmt: skip


NEAR = "near:"  # a Form's family when it is a neighbour of the family that follows
PARTS = "\x00"  # between the parts of a Thai or Chinese keyword's phrase, found apart


@lru_cache(maxsize=1)
def _data() -> dict[str, dict[str, list[str]]]:
    data = json.loads(resources.files("hunter.rules").joinpath("roles.json").read_text("utf-8"))
    return {key: data[key] for key in ("families", "neighbours")}


@lru_cache(maxsize=1)
def families() -> dict[str, tuple[str, ...]]:
    """roles.json's families: each one's titles, folded."""
    return {name: tuple(t.casefold() for t in ts) for name, ts in _data()["families"].items()}


@lru_cache(maxsize=1)
def neighbours() -> dict[str, tuple[str, ...]]:
    """roles.json's neighbours: for each family, the titles of the roles next to it, folded."""
    return {name: tuple(t.casefold() for t in ts) for name, ts in _data()["neighbours"].items()}


def _key(title: str) -> str:
    """A title's words joined: two spellings of one title share it."""
    return title if UNSPACED.search(title) else "".join(words_of(title))


@lru_cache(maxsize=1)
def _family_of() -> dict[str, tuple[str, ...]]:
    """Each title's key -> the families it is a title of."""
    out: dict[str, list[str]] = {}
    for name, titles in families().items():
        for title in titles:
            out.setdefault(_key(title), []).append(name)
    return {key: tuple(dict.fromkeys(names)) for key, names in out.items()}


@lru_cache(maxsize=8192)
def family_of_title(title: str) -> tuple[str, ...]:
    """The families one of whose titles `title` is, whole ("księgowa": accounting), or, a
    title of Latin words and a Chinese role word, in English ("LLM 工程师": llm engineer)."""
    folded = title.casefold()
    found = _family_of().get(_key(folded), ())
    if found or not (HAN.search(folded) and LATIN_WORD.search(folded)):
        return found
    english = HAN_ROLE.sub(lambda m: f" {ROLES[m[0]]} ", folded)
    return _family_of().get(_key(_HAN_RUN.sub(" ", english)), ())


_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")  # what is left of it once its role is in English


@lru_cache(maxsize=16384)  # one per distinct set of keywords: a community has thousands
def forms(include: tuple[str, ...]) -> tuple[Form, ...]:
    """Every form of a chat's keywords: their own words first (in the keywords' order), then
    the titles of each keyword's families."""
    own = [form for keyword in include for form in _own(keyword)]
    related: list[Form] = []
    seen = {_key(keyword.casefold()) for keyword in include}  # a chat's own words: not again
    for kin in (_peers, _kin, _near):  # its level's other words, its family's, neighbours'
        for keyword in include:
            for title, said in kin(keyword):
                if title not in seen:
                    seen.add(title)
                    related += said
    return (*own, *related)


# The words boards use for one another at one level of work in one field: a "Patient Care
# Coordinator" is a "Patient Care Specialist", a "Customer Service Agent" a "Customer Service
# Representative" (a manager, an assistant or an engineer is another level or another job)
_PEERS = ("specialist", "coordinator", "officer", "associate", "representative", "agent")
PEER = "peer"  # a Form's family when it is a keyword's field with another of _PEERS


@lru_cache(maxsize=4096)
def _peers(keyword: str) -> tuple[tuple[str, tuple[Form, ...]], ...]:
    """A keyword's field with each other word of its level (_PEERS), side by side: "patient
    care coordinator" brings "Patient Care Specialist", marked as a job like it."""
    found = words_of(keyword.casefold())
    field = tuple(word for word in found[:-1] if word not in RANKS)
    if UNSPACED.search(keyword) or not field or not found or found[-1] not in _PEERS:
        return ()
    runs = [(*field, peer) for peer in _PEERS if peer != found[-1]]
    return tuple(("".join(run), (Form(keyword, PEER, frozenset(run), run=run),)) for run in runs)


@lru_cache(maxsize=4096)
def _near(keyword: str) -> tuple[tuple[str, tuple[Form, ...]], ...]:
    """The titles next to a keyword's families (roles.json's neighbours), each with its forms
    for `keyword`, their family marked NEAR."""
    return tuple(
        (_key(title), tuple(replace(f, keyword=keyword) for f in _own(title, NEAR + family)))
        for family in family_of_title(keyword)
        for title in neighbours().get(family, ())
    )


@lru_cache(maxsize=8192)
def near_titles(title: str) -> frozenset[str]:
    """The neighbour titles (roles.json) `title` says: "Full Stack Engineer (Node)" says
    "full stack engineer"."""
    return frozenset(
        t
        for ts in neighbours().values()
        for t in ts
        if any(f.said_by(title) for f in _own(t, NEAR))
    )


@lru_cache(maxsize=4096)
def _kin(keyword: str) -> tuple[tuple[str, tuple[Form, ...]], ...]:
    """The titles of a keyword's families (their keys), each with its forms for `keyword`:
    one keyword's, made once however many chats hold it."""
    return tuple(
        (_key(title), tuple(replace(form, keyword=keyword) for form in _own(title, family)))
        for family in family_of_title(keyword)
        for title in families()[family]
    )


def found(title: str, include: tuple[str, ...]) -> Form | None:
    """The first form of `include` that `title` says, or None."""
    if not include:
        return None
    return next((form for form in forms(include) if form.said_by(title)), None)


@lru_cache(maxsize=1)
def _family_forms() -> tuple[tuple[str, tuple[Form, ...]], ...]:
    """Each family with the forms of all its titles."""
    return tuple(
        (name, tuple(form for title in titles for form in _own(title, name)))
        for name, titles in families().items()
    )


@lru_cache(maxsize=1)
def _forms_by_word() -> tuple[
    dict[str, tuple[tuple[str, Form], ...]], tuple[tuple[str, Form], ...]
]:
    """Every family's forms by one word each must find among a title's words (all of them
    must), and its Thai and Chinese ones, which are phrases: a title asks only the forms of
    its own words, not all 26 families' 900."""
    by_word: dict[str, list[tuple[str, Form]]] = {}
    phrases = []
    for name, family in _family_forms():
        for form in family:
            if form.phrase:
                phrases.append((name, form))
            else:
                by_word.setdefault(min(form.words), []).append((name, form))
    return {word: tuple(forms) for word, forms in by_word.items()}, tuple(phrases)


@lru_cache(maxsize=4096)
def families_in(title: str) -> frozenset[str]:
    """The families one of whose titles `title` says ("IT Support Officer": it support)."""
    by_word, phrases = _forms_by_word()
    asked = [pair for word in title_words(title) for pair in by_word.get(word, ())]
    return frozenset(name for name, form in (*asked, *phrases) if form.said_by(title))


def in_other_words(title: str, text: str, include: tuple[str, ...]) -> Form | None:
    """The first form of `include` a listing says in other words: in its title (`found`), or,
    for a title that names no trade, at the start of its text (`found_in_text`). A job like
    them or next to them whose title names only stacks the chat's words do not (stacks.py:
    "Fullstack Developer (Python)" for a chat of "Java") is none."""
    for form in _said(title, text, include):  # the first that stands, whatever the order
        if not form.family:
            return form
        if in_another_stack(title, chat_stacks(include)):
            return None
        if not _of_another_role(form, title, include):
            return form
    return None


def _said(title: str, text: str, include: tuple[str, ...]) -> Iterator[Form]:
    """The forms of `include` a title says, one at a time (the first usually stands); for a
    title that says none, the one the start of its text says (found_in_text)."""
    said = False
    for form in forms(include) if include else ():
        if form.said_by(title):
            said = True
            yield form
    if not said and (in_text := found_in_text(title, text, include)) is not None:
        yield in_text


def _of_another_role(form: Form, title: str, include: tuple[str, ...]) -> bool:
    """Whether a job like a keyword that names a field, no role ("Informationssicherheit",
    "cybersecurity"), says a role where the chat's other words name others ("Information
    Security Officer", "IT-Security Manager"): the field's engineers are no job like theirs.
    A chat of field words alone, or a title of no role word, is judged by the field."""
    if form.family.startswith(NEAR) or roles_of(form.keyword):
        return False
    # A family title is kept once, for the chat's first keyword of the family: another of its
    # keywords that names a role ("security engineer" beside "cyberbezpieczeństwo") takes it
    if any(roles_of(k) and form.family in family_of_title(k) for k in include):
        return False
    own = frozenset(role for keyword in include for role in roles_of(keyword))
    said = roles_of(title)
    return bool(own and said) and not said & own


def found_in_text(title: str, text: str, include: tuple[str, ...]) -> Form | None:
    """For a generic title, the first form of `include` (its own words, or a title of one of
    their families; not a neighbour's) that the start of `text` says; None otherwise. "Senior
    Engineer", whose text begins "We are looking for a backend engineer", is a job like
    "Backend Developer"."""
    if not include or not text or not generic(title):
        return None
    head = text[:TEXT_HEAD]
    return next(
        (f for f in forms(include) if not f.family.startswith(NEAR) and f.said_by(head)), None
    )


@lru_cache(maxsize=16384)
def trades_of(include: tuple[str, ...]) -> frozenset[str]:
    """The families of roles.json a chat's keywords are titles of, or say ("IT Support",
    "Frontend", "cybersecurity"): the trades its words name. A keyword of two families one of
    which another keyword names alone is of that one: "IT-Security Vertrieb" beside "Account
    Executive" is a salesperson's, the other its field (a security firm's engineers are no
    job of theirs)."""
    each = [frozenset(_family_of().get(_key(k.casefold()), ())) | families_in(k) for k in include]
    alone = {f for said in each if len(said) == 1 for f in said}
    return frozenset(f for said in each for f in (said & alone if said & alone else said))
