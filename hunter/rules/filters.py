"""Which listings the user wants: pure functions, no I/O.

Rules learnt from people running such bots:
- a keyword's Latin edge matches at a word boundary only ("ai" never fires on "chain" or
  "naive", "ads" never on "leads"), while Thai, written without spaces, matches anywhere;
- `ignore_within` lists the known traps: "ไลน์" (LINE) inside "ออนไลน์" (online) is no hit.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from hunter.rules.filter_config import FilterConfig
from hunter.rules.listing import Listing
from hunter.rules.pay import describe_terms, floor_for
from hunter.rules.roles import NEAR, Form, families_in, family_of_title, in_other_words, trades_of
from hunter.rules.stacks import chat_stacks, in_another_stack, stacks_of
from hunter.rules.taste import Taste, taste
from hunter.rules.title_parts import for_learners

_LATIN = "A-Za-z0-9\u00c0-\u024f"


@dataclass(frozen=True)
class _Keyword:
    word: str  # as written
    folded: str
    pattern: re.Pattern[str]


def _compile(word: str) -> _Keyword:
    folded = word.casefold()
    left = f"(?<![{_LATIN}])" if re.match(f"[{_LATIN}]", folded) else ""
    right = f"(?![{_LATIN}])" if re.search(f"[{_LATIN}]$", folded) else ""
    return _Keyword(word, folded, re.compile(left + re.escape(folded) + right))


@lru_cache(maxsize=256)
def keywords(words: tuple[str, ...]) -> tuple[_Keyword, ...]:
    """One rule set's keywords, compiled once: a poll judges every listing with the same few
    sets. (A cache of single words missed on every word past its size: 10,000 keywords took
    8.4 s a listing.)"""
    return tuple(_compile(word) for word in words)


def _spans(word: str, text: str) -> list[tuple[int, int]]:
    spans, start = [], text.find(word)
    while start != -1:
        spans.append((start, start + len(word)))
        start = text.find(word, start + 1)
    return spans


def _hits(keyword: _Keyword, text: str, ignore_within: Mapping[str, Iterable[str]]) -> bool:
    """True when `keyword` occurs in `text` (already case-folded) outside every trap word."""
    if keyword.folded not in text:  # the common case, and cheap: no pattern is run
        return False
    traps = [
        span
        for trap in ignore_within.get(keyword.folded, ())
        for span in _spans(trap.casefold(), text)
    ]
    for match in keyword.pattern.finditer(text):
        if not any(a <= match.start() and match.end() <= b for a, b in traps):
            return True
    return False


@dataclass(frozen=True)
class Judgement:
    matched: bool
    reason: str  # why, in words: shown by `hunter check`
    keywords: tuple[str, ...] = ()  # the include keywords that hit and are not muted
    like: str = ""  # no keyword hit: the title of the 👍'd listing it is like (rules/taste.py)
    kin: str = ""  # no keyword hit: the chat's keyword whose kind of job it is (rules/roles.py)
    near: str = ""  # no keyword hit: the chat's keyword whose neighbouring role it is

    def marked(self, listing: Listing) -> Listing:
        """`listing` as this verdict sends it: the keywords it hit, or what it is like."""
        return replace(
            listing, keywords=self.keywords, like=self.like, kin=self.kin, near=self.near
        )


def matching(live: tuple[str, ...]) -> Judgement:
    """The verdict of a listing that include keywords `live` (none muted, one at least) hit."""
    return Judgement(True, f"matches {live[0]!r}", live)


def said_otherwise(form: Form) -> Judgement:
    """The verdict of a listing whose title says a chat's keyword in other words (roles.py):
    its own words otherwise written, or a title of the keyword's family, a job like it."""
    if not form.family:
        said = f"matches {form.keyword!r} (its words in the title)"
        return Judgement(True, said, (form.keyword,))
    if form.family.startswith(NEAR):
        said = f"near your words: a job next to {form.keyword!r}"
        return Judgement(True, said, (form.keyword,), near=form.keyword)
    return Judgement(
        True, f"not your words: a job like {form.keyword!r}", (form.keyword,), kin=form.keyword
    )


def judge(listing: Listing, rules: FilterConfig, muted: Collection[str] = frozenset()) -> Judgement:
    """Whether the user wants `listing`. `muted`: case-folded include keywords the user muted
    from their chat; a listing that only they match is not wanted (for now)."""
    text = f"{listing.title}\n{listing.summary}".casefold()
    ignore = {k.casefold(): v for k, v in rules.ignore_within.items()}
    for keyword in keywords(tuple(rules.exclude)):
        if _hits(keyword, text, ignore):
            return Judgement(False, f"excluded by {keyword.word!r}")
    under = under_floor(listing, rules)
    if under:
        return Judgement(False, under)
    if rules.include and for_learners(listing.title, tuple(rules.include)):
        return Judgement(False, LEARNERS)
    # The layers (places, languages, taps) judge only what the words bring (or would bring,
    # for a 👍): a listing none of the chat's words hits says so, not where it is.
    liking = taste(rules.taps, rules.include) if rules.taps else None
    if not rules.include:
        return _layered(listing, rules, liking) or Judgement(
            True, "no include keywords: everything matches"
        )
    found = [k.word for k in keywords(tuple(rules.include)) if _hits(k, text, ignore)]
    live = tuple(word for word in found if word.casefold() not in muted)
    if live and (other := not_its_own(listing, rules, live)):
        return Judgement(False, other)
    if live:
        return _layered(listing, rules, liking) or matching(live)
    unmuted = tuple(word for word in rules.include if word.casefold() not in muted)
    if form := in_other_words(listing.title, listing.summary, unmuted):
        said = said_otherwise(form)
        return _layered(listing, rules, liking, bool(said.near)) or said
    like = liking.drawn(listing.title, listing.summary) if liking else ""
    if like and not _layered(listing, rules, None):
        return drawn(like)  # not its words, but very like what it 👍'd, and where it works
    if found:
        return Judgement(False, f"matches only muted keywords: {', '.join(found)}")
    return Judgement(False, "no include keyword")


LEARNERS = "an internship or apprenticeship: none of your words asks for one"


def not_its_own(listing: Listing, rules: FilterConfig, live: tuple[str, ...]) -> str:
    """Why a listing that the chat's words `live` hit is no job of theirs all the same, in
    words: a title of another stack, or of another trade where only its text says their
    word; "" when it is theirs. judge() and the Fanout both ask it."""
    include = tuple(rules.include)
    return _other_stack(listing.title, include, live) or _other_trade(listing, rules, live)


def _other_trade(listing: Listing, rules: FilterConfig, live: tuple[str, ...]) -> str:
    """Why a title of another trade than the chat's words name is not theirs, though its text
    says one of their words: a title says what the job is, a text what it touches ("Pflege"
    in a "Cybersecurity Manager"'s text is no nurse's job). "" when a word of theirs is in
    the title, or the title or the chat names no trade of roles.json."""
    title = listing.title.casefold()
    ignore = {k.casefold(): v for k, v in rules.ignore_within.items()}
    if any(_hits(k, title, ignore) for k in keywords(live)):
        return ""
    trades = trades_of(tuple(rules.include))
    said = families_in(listing.title) | frozenset(family_of_title(listing.title))
    if not trades or not said or said & trades:
        return ""
    return f"{live[0]!r} is only in its text, and its title is of {sorted(said)[0]}, not yours"


def _other_stack(title: str, include: tuple[str, ...], hits: tuple[str, ...]) -> str:
    """Why a title of another stack is not this chat's, though a word of no stack hit it: a
    chat of "python developer" and "backend developer" is no Java shop's ("Senior Java
    Backend Developer"); "" when a hit names its stack, or the chat names none."""
    stacks = chat_stacks(include)
    if any(stacks_of(hit) for hit in hits) or not in_another_stack(title, stacks):
        return ""
    return f"another stack than this chat's words: {title[:80]!r} names none of theirs"


def _layered(
    listing: Listing, rules: FilterConfig, liking: Taste | None, near: bool = False
) -> Judgement | None:
    """The verdict of the chat's languages, places and 👎s on a listing its words want: left
    out, and why; None when none of them holds it back."""
    if rules.languages and (other := unread(listing, rules.languages)):
        return Judgement(False, other)
    if rules.places and (far := elsewhere_for(listing, rules.places)):
        return Judgement(False, far)
    if liking and (held := liking.held(listing.title, listing.summary, near)):
        return Judgement(False, held)
    return None


def drawn(like: str) -> Judgement:
    """The verdict of a listing no keyword hit that is like the 👍'd listing titled `like`."""
    return Judgement(True, f"not your words: like “{like[:80]}”", (), like)


def unread(listing: Listing, languages: tuple[str, ...]) -> str:
    """Why `listing` is in none of `languages`, or its title asks for a language none of
    them is, in words; "" when it is in one, or its language is unknown (never "no" for want
    of knowledge: rules/language.py)."""
    from hunter.rules.language import language_of, left_out, not_asked_of

    written = left_out(language_of(listing.title, listing.summary), languages)
    return written or not_asked_of(listing.title, languages)


def elsewhere_for(listing: Listing, places: tuple[str, ...]) -> str:
    """Why `listing` is in none of a chat's `places`, nor remote and open to one, in words;
    "" when it suits one, or its place is unknown (rules/place.py)."""
    from hunter.rules.place import elsewhere, where_of

    return elsewhere(where_of(listing.location, listing.title, listing.summary), places)


def floor_missed(listing: Listing, rules: FilterConfig) -> tuple[int, int] | None:
    """(the most `listing` offers, the floor) when that is under the floor `rules` set for its
    own currency and period; None otherwise. Pay not stated, or in terms no floor is set for,
    is never under one."""
    floor = floor_for(rules, listing.currency, listing.period)
    most = listing.budget_max or listing.budget
    if not floor or most is None or most >= floor:
        return None
    return most, floor


def under_floor(listing: Listing, rules: FilterConfig) -> str:
    """Why `listing` pays less than `rules` want, in words; "" when it does not."""
    missed = floor_missed(listing, rules)
    if missed is None:
        return ""
    terms = describe_terms(listing.currency, listing.period)
    return f"budget {missed[0]:,} is under {missed[1]:,} ({terms})"


def matches(listing: Listing, rules: FilterConfig) -> bool:
    return judge(listing, rules).matched
