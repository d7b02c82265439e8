"""A listing's text as one alert per job compares it (hunter/rules/likeness.py): folded to its
words, its language read from its commonest words, and a sketch of its character 5-grams.
Pure, no I/O. Character n-grams need no word splitter, so Thai (no spaces) is compared like
English."""

from __future__ import annotations

import re
import unicodedata
import zlib

SKETCH_SIZE = 64  # hashes kept per text: bottom-k, k = 64
SHINGLE = 5  # characters per n-gram
MIN_TEXT = 40  # characters of text below which a text says nothing

# What is not part of a word: not a letter or digit (\w, "_" aside), nor a Thai vowel or tone
# mark (combining marks, which \w leaves out: "ออกแบบโลโก้" stays one word).
_NOT_WORD = re.compile(r"[^\w\u0e00-\u0e7f]+|_+")


def plain(text: str) -> str:
    """Case-folded, NFKC, every run of what is not part of a word one space."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_WORD.sub(" ", text).strip()


# Latin letters that are no letter and a mark, which NFKD leaves whole: "Đà Nẵng" is Da Nang
_UNMARKED = str.maketrans(
    {"Đ": "D", "đ": "d", "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Ħ": "H", "ħ": "h", "ı": "i"}  # noqa: RUF001
)


def unmarked(latin: str) -> str:
    """Latin text without its letters' marks: "Việt Nam" -> "Viet Nam", "Łódź" -> "Lodz".
    For Latin text only: a Thai word's marks are its letters."""
    decomposed = unicodedata.normalize("NFKD", latin.translate(_UNMARKED))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# The commonest words of the languages the boards write in: a text's language is the one whose
# words it uses most (Smals posts one job in French and in Dutch; their texts share no words,
# so they say nothing about whether the job is one).
_STOPWORDS = {
    "en": frozenset(
        [
            "the",
            "and",
            "of",
            "to",
            "in",
            "for",
            "with",
            "you",
            "our",
            "we",
            "are",
            "is",
            "a",
            "on",
            "as",
            "be",
            "will",
        ]
    ),
    "de": frozenset(
        [
            "und",
            "der",
            "die",
            "das",
            "mit",
            "für",
            "wir",
            "sie",
            "ist",
            "ein",
            "eine",
            "zu",
            "von",
            "auf",
            "den",
            "im",
        ]
    ),
    "fr": frozenset(
        [
            "et",
            "de",
            "la",
            "le",
            "les",
            "des",
            "pour",
            "vous",
            "nous",
            "est",
            "une",
            "un",
            "dans",
            "en",
            "du",
            "avec",
        ]
    ),
    "nl": frozenset(
        [
            "en",
            "de",
            "het",
            "van",
            "een",
            "voor",
            "je",
            "jij",
            "wij",
            "we",
            "met",
            "in",
            "op",
            "is",
            "zijn",
            "bij",
        ]
    ),
    "it": frozenset(
        [
            "e",
            "di",
            "il",
            "la",
            "per",
            "con",
            "che",
            "un",
            "una",
            "del",
            "della",
            "sono",
            "nel",
            "si",
            "le",
        ]
    ),
    "es": frozenset(
        [
            "y",
            "de",
            "la",
            "el",
            "los",
            "las",
            "para",
            "con",
            "en",
            "un",
            "una",
            "por",
            "que",
            "es",
            "del",
        ]
    ),
    # Portuguese: its words that Spanish, Italian and Polish texts do not use often
    "pt": frozenset(
        [
            "com",
            "em",
            "não",
            "uma",
            "os",
            "ao",
            "aos",
            "da",
            "das",
            "dos",
            "você",
            "seu",
            "sua",
            "nosso",
            "nossa",
            "pelo",
            "pela",
            "são",
        ]
    ),
    "pl": frozenset(
        ["i", "w", "na", "z", "do", "się", "jest", "dla", "oraz", "od", "nie", "to", "jak", "we"]
    ),
}


def language_of(plain: str) -> str:
    """ "th" for Thai script, "zh" for Chinese, else the language whose common words the text
    uses most (at least 3 of them), "" when none stands out."""
    if any("\u0e00" <= char <= "\u0e7f" for char in plain):
        return "th"
    if any("\u4e00" <= char <= "\u9fff" for char in plain):
        return "zh"
    words = plain.split()
    counts = {lang: sum(1 for w in words if w in common) for lang, common in _STOPWORDS.items()}
    best = max(counts, key=lambda lang: counts[lang])
    ranked = sorted(counts.values(), reverse=True)
    return best if ranked[0] >= 3 and ranked[0] > ranked[1] else ""


def text_hashes(plain: str) -> tuple[int, tuple[int, ...]]:
    """(how many distinct 5-grams, the smallest SKETCH_SIZE of their CRC-32s) of a text as
    plain() leaves it."""
    if len(plain) < MIN_TEXT:
        return 0, ()
    # A CRC-32 of each distinct 5 characters' UTF-8: the same on every machine and process
    # (str's hash is salted per process). The 5-grams are made distinct first, with str's own
    # hash: a text repeats many of them, and each CRC costs an encoding.
    grams = {plain[i : i + SHINGLE] for i in range(len(plain) - SHINGLE + 1)}
    hashes = {zlib.crc32(gram.encode("utf-8")) for gram in grams}
    return len(hashes), tuple(sorted(hashes)[:SKETCH_SIZE])
