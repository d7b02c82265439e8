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

from hunter.rules.roles import RANKS

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
    """The rank words of a title ("Senior", "Junior", "Lead"), folded."""
    return frozenset(w for w in re.findall(r"[a-z]+", title.casefold()) if w in RANKS)


def translated(names: tuple[str, ...], others: tuple[str, ...]) -> bool:
    """Whether two listings' names say they are one text in two languages."""
    mine, theirs = set(names), set(others)
    shared = len(mine & theirs)
    return shared >= SHARED_LEAST and shared >= SHARED_PART * len(mine | theirs)
