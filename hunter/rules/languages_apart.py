"""One job posted in two languages: an employer at one place advertises it in Italian and in
English, or in French and German, under a title in each. Nothing of the words is shared, so
likeness.py's title key and text sketch see two jobs; what a translation keeps is its names:
acronyms, figures and product names ("PCI-DSS", "NIST CSF", "ISO 27001", "SAP S/4HANA",
"ManpowerGroup"). Pure, no I/O.

A listing's names are the tokens of its title and text that a translator leaves as they are:
written with two capitals or more, or with a digit (the employer's own name aside: every
listing of its own says it). Two listings of one employer are one job in two languages when
their texts are in two languages, they name one place, and they share at least SHARED_LEAST
names, half of all the names either says. One employer's two jobs in two languages share its
boilerplate's few names ("IT", "SA") and little else: on 603 real listings, such pairs share one
name at most, the two jobs posted in two languages four each.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hunter.rules.roles import families_in, family_of_title
from hunter.rules.text_sketch import unmarked
from hunter.rules.title_parts import RANKS

NAMES_KEPT = 24  # names a likeness keeps (the first ones the text says)
SHARED_LEAST = 3  # names two listings share, at least
SHARED_PART = 0.5  # ... of all the names either says
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#./&-]*[A-Za-z0-9+#]|[A-Za-z0-9]{2}")
_COMPANY_WORD = re.compile(r"\w+")


def names_of(title: str, text: str, company: str) -> tuple[str, ...]:
    """The names a listing's title and text say, in the order first said (NAMES_KEPT at most)."""
    own = {w.casefold() for w in _COMPANY_WORD.findall(company)}
    found: dict[str, None] = {}
    plain = unicodedata.normalize("NFKC", f"{title}\n{text}")
    for token in _TOKEN.findall(plain):
        capitals = sum(c.isupper() for c in token)
        if capitals < 2 and not any(c.isdigit() for c in token):
            continue
        if token.casefold() in own or (token.isdigit() and len(token) < 3):
            continue  # the employer's name; a small number ("2 years") is no name
        found.setdefault(token, None)
        if len(found) == NAMES_KEPT:
            break
    return tuple(found)


def ranks(title: str) -> frozenset[str]:
    """The rank words of a title ("Senior", "Junior", "Lead"), folded, each in English
    ("Starszy Księgowy" is a senior's, "高级工程师" too)."""
    folded = unmarked(title.casefold())
    found = {_RANK_AS.get(w, w) for w in re.findall(r"\w+", folded)}
    found |= {rank for word, rank in _RANK_AS.items() if not word.isascii() and word in folded}
    return frozenset(w for w in found if w in RANKS)


# Ranks in the boards' other languages (Polish, Chinese, Thai), as English's
_RANK_AS = {
    "sr": "senior", "jr": "junior", "starszy": "senior", "starsza": "senior",
    "mlodszy": "junior", "mlodsza": "junior", "高级": "senior", "资深": "senior",
    "初级": "junior", "อาวุโส": "senior",
}  # fmt: skip


def translated(names: tuple[str, ...], others: tuple[str, ...]) -> bool:
    """Whether two listings' names say they are one text in two languages."""
    mine, theirs = set(names), set(others)
    shared = len(mine & theirs)
    return shared >= SHARED_LEAST and shared >= SHARED_PART * len(mine | theirs)


def one_role(title: str, other: str, names: tuple[str, ...], others: tuple[str, ...]) -> str:
    """The role two titles in two languages both are (roles.json's family), "" when they
    are not one: each title is one of the family's titles whole, its rank aside
    ("Comptable" and "Boekhouder"), or both name the family and their texts share
    SHARED_ROLE names ("Backend Software Engineer - Java/Kotlin" and "Softwareentwickler
    Backend - Java/Kotlin", both in HafenCity)."""
    whole = sorted(_whole_role(title) & _whole_role(other))
    if whole:
        return whole[0]
    named = sorted(families_in(title) & families_in(other))
    if named and len(set(names) & set(others)) >= SHARED_ROLE:
        return named[0]
    return ""


SHARED_ROLE = 2  # names two listings of one role in two languages share, at least


@lru_cache(maxsize=4096)
def _whole_role(title: str) -> frozenset[str]:
    """The families of which a title key, its rank words aside, is a title."""
    folded = " ".join(w for w in title.split() if not ranks(w))
    return frozenset(family_of_title(folded))
