"""One listing judged for many chats at once: pure, no I/O.

`judge` (filters.py) asks each chat's keywords of a listing in turn: with 10,000 subscribers
that is 10,000 rule sets a listing, about three minutes of CPU for a poll of 50. A `Fanout`
puts every chat's words, include and exclude, in one Aho-Corasick automaton (pyahocorasick):
a listing's text is read once, and yields the words that occur in it. Each of those is
checked once by today's rules (a Latin edge at a word boundary, Thai anywhere, not inside an
`ignore_within` trap), and only the chats holding a word that hit are judged further, by
sets: an exclude that hit, a floor missed, mutes. The answer is judge()'s, chat for chat
(tests/unit/rules/test_fanout.py holds it to that on generated listings and rules).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import ahocorasick

from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import (
    Judgement,
    _spans,
    elsewhere_for,
    judge,
    matching,
    not_its_own,
    said_otherwise,
    under_floor,
    unread,
)
from hunter.rules.held import layer_of
from hunter.rules.listing import Listing
from hunter.rules.roles import (
    PARTS,
    families_in,
    forms,
    in_other_words,
    title_joins,
    title_words,
)
from hunter.rules.taste import SHARED_LEAST, bag, taste
from hunter.rules.title_parts import TEXT_HEAD, for_learners, generic

Judge = tuple[str, FilterConfig, Mapping[str, datetime]]  # a chat, its rules, its mutes


def _latin(char: str) -> bool:
    """filters.py's _LATIN class (A-Z, a-z, 0-9, U+00C0-U+024F), without a regular expression:
    compiling one per word was 0.3 ms, a third of a second for 800 words."""
    return (char.isascii() and char.isalnum()) or "\u00c0" <= char <= "\u024f"


@dataclass(frozen=True)
class _Edges:
    """Where a word must meet a word boundary: at a Latin first or last letter (filters.py)."""

    left: bool
    right: bool

    def at_edges(self, text: str, start: int, end: int) -> bool:
        if self.left and start > 0 and _latin(text[start - 1]):
            return False
        return not (self.right and end < len(text) and _latin(text[end]))


@dataclass(slots=True)
class _Chat:
    name: str
    rules: FilterConfig
    include: tuple[tuple[str, str], ...]  # (as written, folded), in its order
    exclude: frozenset[str]  # folded
    muted: frozenset[str]
    traps: int  # which of the Fanout's ignore_within tables it reads
    floors: bool  # a budget floor set (a listing without pay is never under one)
    kin: int  # chats of the same keywords and traps share this number (and a verdict)
    group: int  # chats of the same keywords share this number (and their forms, roles.py)


class _OtherWords:
    """The chats' keywords in other words (roles.py): each distinct form of theirs, indexed by
    the words (or Thai phrase) a title must hold for it, with the sets of keywords (groups)
    that have it. A listing counts its title's words once per form, not once per chat."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, ...], int] = {}
        self._chats: list[list[int]] = []  # by group
        self._forms: dict[tuple[frozenset[str], str, bool], int] = {}  # form -> its number
        self._needed: list[int] = []  # by form: the words a title must hold
        self._holders: list[list[int]] = []  # by form: the groups that have it
        self._by_word: dict[str, list[int]] = {}  # a word or Thai phrase -> its forms
        self._by_join: dict[str, list[int]] = {}  # a word only its two halves may spell

    def add(self, include: tuple[str, ...], chat: int, words: dict[str, _Edges]) -> int:
        """Index chat number `chat` of keywords `include`; its group. A Thai phrase is found
        by the Fanout's automaton, so it joins `words`."""
        group = self._groups.setdefault(include, len(self._groups))
        if group == len(self._chats):
            self._chats.append([])
            for index in {form.index for form in forms(include)}:
                self._holders[self._form(index, words)].append(group)
        self._chats[group].append(chat)
        return group

    def _form(self, index: tuple[frozenset[str], str, bool], words: dict[str, _Edges]) -> int:
        number = self._forms.get(index)
        if number is None:
            number = self._forms[index] = len(self._needed)
            needed, phrase, joined = index
            parts = phrase.split(PARTS) if phrase else []  # a Thai phrase's parts, each found
            self._needed.append(len(parts) if phrase else len(needed))
            self._holders.append([])
            for word in parts or needed:
                (self._by_join if joined else self._by_word).setdefault(word, []).append(number)
            for part in parts:
                words.setdefault(part, _Edges(False, False))
        return number

    def candidates(self, title: str, spans: Mapping[str, Sequence[tuple[int, int]]]) -> set[int]:
        """The chats one of whose forms `title` may say (all of the form's words among the
        title's, or its Thai phrase in the title): a few, whom roles.found then asks."""
        said = Counter(n for word in title_words(title) for n in self._by_word.get(word, ()))
        said.update(n for word in title_joins(title) for n in self._by_join.get(word, ()))
        end = len(title.casefold())  # where the title ends in the folded text the spans are of
        for word, where in spans.items():
            if not word.isascii() and where[0][1] <= end:  # a Thai phrase, in the title
                said.update(self._by_word.get(word, ()))
        groups = {
            g for n, count in said.items() if count >= self._needed[n] for g in self._holders[n]
        }
        return {chat for group in groups for chat in self._chats[group]}


class Fanout:
    """The chats judging one source's listings, indexed by their words."""

    def __init__(self, judges: Iterable[Judge]) -> None:
        self._everything: list[Judge] = []  # chats with no include keyword: judge() each
        self._chats: list[_Chat] = []
        self._by_word: dict[str, list[int]] = {}  # folded include word -> its chats
        self._by_liked: dict[str, set[int]] = {}  # a word of a 👍'd title -> its chats
        self._by_liked_family: dict[str, set[int]] = {}  # a 👍'd title's family -> its chats
        self.held: defaultdict[str, Counter[str]] = defaultdict(Counter)  # chat -> layer -> n
        self._counting = True  # the listing judged is new: what is held back of it counts
        self._traps: list[dict[str, tuple[str, ...]]] = []
        words: dict[str, _Edges] = {}
        kins: dict[tuple[int, tuple[tuple[str, str], ...]], int] = {}
        self._otherwise = _OtherWords()  # their words in other words (roles.py)
        self._order: dict[str, int] = {}  # each chat's place in `judges`: the answer's order
        for name, rules, mutes in judges:
            self._order.setdefault(name, len(self._order))
            if not rules.include:
                self._everything.append((name, rules, mutes))
                continue
            traps = {k.casefold(): tuple(v) for k, v in rules.ignore_within.items()}
            if traps not in self._traps:
                self._traps.append(traps)
            folds = tuple(map(str.casefold, rules.include))
            include = tuple(zip(rules.include, folds, strict=True))
            exclude = frozenset(map(str.casefold, rules.exclude))
            for folded in (*folds, *exclude):
                if folded not in words:
                    words[folded] = _Edges(_latin(folded[0]), _latin(folded[-1]))
            table = self._traps.index(traps)
            floors = bool(rules.min_budget or rules.min_pay)
            kin = kins.setdefault((table, include), len(kins))
            number = len(self._chats)
            group = self._otherwise.add(rules.include, number, words)
            for folded in set(folds):
                self._by_word.setdefault(folded, []).append(number)
            for tap in rules.taps if rules.taps and taste(rules.taps).likes else ():
                for word in bag(tap.title, "") if tap.liked else ():
                    self._by_liked.setdefault(word, set()).add(number)
                for family in families_in(tap.title) if tap.liked else ():
                    self._by_liked_family.setdefault(family, set()).add(number)
            self._chats.append(
                _Chat(name, rules, include, exclude, frozenset(mutes), table, floors, kin, group)
            )
        self._words = words
        self._automaton = _automaton(tuple(sorted(words)))

    def count(self, name: str, verdict: Judgement | None) -> None:
        """Count a verdict of judge() for chat `name` in `held` when its places, languages
        or taps held the listing back."""
        if verdict is not None and not verdict.matched and (layer := layer_of(verdict.reason)):
            self._hold(name, layer)

    def _hold(self, name: str, layer: str) -> None:
        if self._counting:
            self.held[name][layer] += 1

    def __len__(self) -> int:
        return len(self._order)

    def take_held(self) -> dict[str, Counter[str]]:
        """What `held` counted since the last take (a read's), counting anew from here: one
        index serves every source of a poll that shares its chats (poll/poller.py)."""
        held, self.held = dict(self.held), defaultdict(Counter)
        return held

    def judge(self, listing: Listing, new: bool = True) -> list[tuple[str, Judgement]]:
        """Each chat that wants `listing`, with judge()'s verdict, in the order given. What a
        chat's places, languages or taps held back of its keyword hits is counted in `held`
        when the listing is `new`: a page read again every half hour is not held again."""
        self._counting = new
        wanted = []
        for name, rules, mutes in self._everything:
            verdict = judge(listing, rules, mutes)
            if verdict.matched:
                wanted.append((name, verdict))
            self.count(name, verdict)
        if not self._chats:
            return wanted
        wanted += self._keywords(listing)
        liked = self._liked(listing, {n for n, _v in wanted}) if self._by_liked else []
        wanted += liked
        if not self._everything and not liked:
            return wanted  # the candidates' order is the chats' order
        return sorted(wanted, key=lambda item: self._order[item[0]])

    def _liked(self, listing: Listing, wanting: set[str]) -> list[tuple[str, Judgement]]:
        """The chats the words missed that want `listing` all the same: it is very like what
        they 👍'd (rules/taste.py), and within their places, languages and floors. Only chats
        whose 👍'd titles share SHARED_LEAST of its title's words are asked (a drawn listing
        shares that many with one of them): a word as common as "developer" alone asks none."""
        shared = Counter(n for word in bag(listing.title, "") for n in self._by_liked.get(word, ()))
        near = {n for n, count in shared.items() if count >= SHARED_LEAST}
        for family in families_in(listing.title) if self._by_liked_family else ():
            near |= self._by_liked_family.get(family, set())  # a 👍 of one of its kind
        found = []
        for n in sorted(near):
            chat = self._chats[n]
            if chat.name not in wanting:
                verdict = judge(listing, chat.rules, chat.muted)
                if verdict.matched:
                    found.append((chat.name, verdict))
        return found

    def _keywords(self, listing: Listing) -> list[tuple[str, Judgement]]:
        """The chats whose words hit `listing` and that want it, in their order."""
        wanted: list[tuple[str, Judgement]] = []
        text = f"{listing.title}\n{listing.summary}".casefold()
        spans = self._occurrences(text)
        hits = [self._hits(spans, text, traps) for traps in self._traps]
        said = self._otherwise.candidates(listing.title, spans)
        if generic(listing.title):  # its text says what the job is: roles.found_in_text
            head = listing.summary[:TEXT_HEAD]
            start = len(listing.title.casefold()) + 1
            end = start + len(head.casefold())  # the spans are of the folded text ("ß": "ss")
            said |= self._otherwise.candidates(head, _within(spans, start, end))
        candidates = sorted(
            {n for folded in hits_any(hits) for n in self._by_word.get(folded, ())} | said
        )
        priced = listing.budget is not None or listing.budget_max is not None
        # 10,000 chats, 1,000 of them candidates for each listing, make this loop most of a
        # read's judging: the checks most chats need none of are skipped for them, and chats
        # of the same keywords (many: keywords are drawn from few common words) share one
        # verdict for this listing.
        verdicts: dict[int, Judgement | None] = {}  # by kin
        by_live: dict[tuple[str, ...], Judgement] = {}  # by the include words that hit
        for n in candidates:
            chat = self._chats[n]
            hit = hits[chat.traps]
            if chat.exclude and chat.exclude & hit:
                continue
            if priced and chat.floors and under_floor(listing, chat.rules):
                continue
            if chat.muted:
                kept = tuple((w, f) for w, f in chat.include if f not in chat.muted)
                found = _verdict(listing, chat.rules, kept, hit, by_live)
            elif chat.kin in verdicts:
                found = verdicts[chat.kin]
            else:
                found = _verdict(listing, chat.rules, chat.include, hit, by_live)
                verdicts[chat.kin] = found
            if found is None:
                continue
            # Its words want it; its places, languages and taps may hold it back.
            if chat.rules.languages and unread(listing, chat.rules.languages):
                self._hold(chat.name, "language")
            elif chat.rules.places and elsewhere_for(listing, chat.rules.places):
                self._hold(chat.name, "place")
            elif chat.rules.taps and self._held(chat, listing, bool(found.near)):
                self._hold(chat.name, "taps")
            else:
                wanted.append((chat.name, found))
        return wanted

    @staticmethod
    def _held(chat: _Chat, listing: Listing, near: bool = False) -> bool:
        liking = taste(chat.rules.taps, chat.rules.include)
        return bool(liking.held(listing.title, listing.summary, near))

    def _occurrences(self, text: str) -> dict[str, list[tuple[int, int]]]:
        """Where each word occurs in `text`, overlapping ones too, in order."""
        found: dict[str, list[tuple[int, int]]] = {}
        for end, folded in self._automaton.iter(text):
            found.setdefault(folded, []).append((end + 1 - len(folded), end + 1))
        for spans in found.values():
            spans.sort()
        return found

    def _hits(
        self,
        occurrences: Mapping[str, Sequence[tuple[int, int]]],
        text: str,
        traps: Mapping[str, tuple[str, ...]],
    ) -> frozenset[str]:
        """The words that hit by judge()'s rules: the matches its pattern finds (left to
        right, none overlapping the one before), one of them outside every trap."""
        hit = set()
        for folded, spans in occurrences.items():
            edges = self._words[folded]
            trapped = [s for trap in traps.get(folded, ()) for s in _spans(trap.casefold(), text)]
            last_end = 0
            for start, end in spans:
                if start < last_end or not edges.at_edges(text, start, end):
                    continue  # inside the match before, or at no word edge
                last_end = end
                if not any(a <= start and end <= b for a, b in trapped):
                    hit.add(folded)
                    break
        return frozenset(hit)


def _verdict(
    listing: Listing,
    rules: FilterConfig,
    include: tuple[tuple[str, str], ...],
    hit: frozenset[str],
    by_live: dict[tuple[str, ...], Judgement],
) -> Judgement | None:
    """judge()'s verdict for a chat's unmuted keywords `include` (each as written and folded)
    of which `hit` hit: theirs, unless the listing is no job of the chat's all the same
    (filters.not_its_own: None), shared by every chat the same words hit; when none hit, the
    first of their forms the title says (_otherwise)."""
    if for_learners(listing.title, rules.include):  # judge()'s: no learner's place asked for
        return None
    live = tuple(word for word, folded in include if folded in hit)
    if not live:
        return _otherwise(listing, tuple(word for word, _folded in include))
    if not_its_own(listing, rules, live):
        return None
    if live not in by_live:
        by_live[live] = matching(live)
    return by_live[live]


def _otherwise(listing: Listing, include: tuple[str, ...]) -> Judgement | None:
    """judge()'s verdict when none of `include` hit as written: the first of their forms the
    title says (roles.py), or a generic title's text; None when none does."""
    form = in_other_words(listing.title, listing.summary, include)
    return said_otherwise(form) if form is not None else None


def _within(
    spans: Mapping[str, Sequence[tuple[int, int]]], start: int, end: int
) -> dict[str, list[tuple[int, int]]]:
    """The spans of `spans` between `start` and `end`, moved to start at 0: a text's head's."""
    inside = {
        word: [(a - start, b - start) for a, b in where if start <= a and b <= end]
        for word, where in spans.items()
    }
    return {word: where for word, where in inside.items() if where}


def hits_any(hits: Sequence[frozenset[str]]) -> frozenset[str]:
    return hits[0] if len(hits) == 1 else frozenset().union(*hits)


@lru_cache(maxsize=16)
def _automaton(words: tuple[str, ...]) -> ahocorasick.Automaton:
    """One automaton of these folded words (a poll's sources share their chats' words)."""
    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, word)
    if words:
        automaton.make_automaton()
    return automaton
