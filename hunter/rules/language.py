"""The language a listing is written in, for the chats that say which ones they read
(`languages = ["en", "th"]`): a listing in none of them is left out.

The detector is py3langid (a maintained fork of langid.py, BSD-3-Clause; its model, about
140 languages, ships inside the package: nothing is fetched at run time). It is loaded at the first
listing a chat with `languages` judges, never otherwise: its model costs about 0.6 s and 75 MB
resident with numpy (measured on this kind of machine), which a setup without `languages`
never pays. A listing is judged once for all chats (the answer is cached by its text).

Unknown is never "no": a text too short to say (a bare title), or one the model is not sure
of, reads as unknown, and a listing of unknown language is kept. Thai script is Thai without
asking the model (it is, and the model's 0.8 ms is most of its cost).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

# ISO 639-1 codes, as a chat writes them: the two-letter ones of py3langid's model.
_CODES = (
    "af am an ar as az ba be bg bn br bs ca cs cy da de dz el en eo es et eu fa fi fo fr fy "
    "ga gd gl gu ha he hi hr ht hu hy id ig is it ja jv ka kk km kn ko ku ky la lb lg ln lo "
    "lt lv mg mk ml mn mr ms mt my ne nl nn no oc om or pa pl ps pt qu ro ru rw sa se si sk "
    "sl sn so sq sr st sv sw ta te tg th tk tl tr tt ug uk ur uz vi vo wa xh yo zh zu"
)
KNOWN = frozenset(_CODES.split())
LEAST_TEXT = 40  # characters of text below which the language is unknown
SURE = 0.9  # the model's probability at and above which its answer is believed
THAI = re.compile(r"[\u0e00-\u0e7f]")  # Thai script (taste.py and gazetteer.py use it too)
# Scripts that say their language without the model: kana is Japanese, Hangul Korean, and Han
# with neither Chinese ("找一个python佬 ..." on eleduck: too short for the model).
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_SCRIPT_LEAST = 4  # characters of such a script that say the language
_TEXT_MOST = 2000  # characters the model reads of a listing: enough to say, and quick

_lock = threading.Lock()
_identifier: Any = None


def language_of(title: str, summary: str) -> str:
    """The ISO 639-1 code of the language a listing is written in; "" when unknown."""
    return _language(f"{title}\n{summary}"[:_TEXT_MOST])


@lru_cache(maxsize=4096)
def _language(text: str) -> str:
    if THAI.search(text):
        return "th"
    if len(_KANA.findall(text)) >= _SCRIPT_LEAST:
        return "ja"
    if len(_HANGUL.findall(text)) >= _SCRIPT_LEAST:
        return "ko"
    if len(_HAN.findall(text)) >= _SCRIPT_LEAST:
        return "zh"
    if len(text.strip()) < LEAST_TEXT:
        return ""
    code, probability = _model().classify(text)
    return str(code) if probability >= SURE else ""


def _model() -> Any:
    """py3langid's identifier with normalised probabilities, loaded once per process."""
    global _identifier
    with _lock:
        if _identifier is None:
            from py3langid.langid import (  # type: ignore[import-untyped]
                MODEL_FILE,
                LanguageIdentifier,
            )

            _identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        return _identifier


def left_out(listing_language: str, languages: tuple[str, ...]) -> str:
    """Why a listing in `listing_language` is left out for a chat that reads `languages`, in
    words; "" when it is kept (the chat reads it, reads any, or the language is unknown)."""
    if not languages or not listing_language or listing_language in languages:
        return ""
    return f"written in {listing_language} (this chat reads {', '.join(languages)})"


# What a person types for a language, in Thai and English, beside its code ("ภาษา ไทย อังกฤษ").
NAMES = {
    "ไทย": "th", "อังกฤษ": "en", "จีน": "zh", "ญี่ปุ่น": "ja", "เกาหลี": "ko", "เวียดนาม": "vi",
    "เยอรมัน": "de", "ฝรั่งเศส": "fr", "สเปน": "es", "โปรตุเกส": "pt", "รัสเซีย": "ru",
    "อินโดนีเซีย": "id", "มาเลย์": "ms", "ลาว": "lo", "พม่า": "my", "เขมร": "km",
    "thai": "th", "english": "en", "chinese": "zh", "japanese": "ja", "korean": "ko",
    "vietnamese": "vi", "german": "de", "french": "fr", "spanish": "es", "portuguese": "pt",
    "russian": "ru", "indonesian": "id", "malay": "ms", "polish": "pl", "dutch": "nl",
    "italian": "it",
}  # fmt: skip
EVERY = frozenset(["all", "any", "every", "ทั้งหมด", "ทุกภาษา"])

# A title that asks for a language asks it of whoever takes the job, whatever language the ad
# is written in: "(fluent German & English) Customer Support", "Dutch Speaking Agent",
# "ประสานงาน (ภาษาจีน)". A chat that reads none of what one ask allows is not for that job.
# Names as boards write them: English's, and each language's own.
_ASKABLE = {
    **{name: code for name, code in NAMES.items() if name.isascii()},
    "mandarin": "zh", "cantonese": "zh", "swedish": "sv", "danish": "da", "norwegian": "no",
    "finnish": "fi", "turkish": "tr", "arabic": "ar", "hebrew": "he", "greek": "el",
    "czech": "cs", "hungarian": "hu", "romanian": "ro", "hindi": "hi", "deutsch": "de",
    "français": "fr", "francais": "fr", "español": "es", "nederlands": "nl", "português": "pt",
    "italiano": "it", "polski": "pl",
}  # fmt: skip
_NAME = "|".join(sorted(_ASKABLE, key=len, reverse=True))
_NAMES_SAID = rf"(?:{_NAME})(?:\s*(?:,|&|/|\+|\band\b|\bor\b)\s*(?:{_NAME}))*"
# ... or names set apart at a title's end, after a dash or in brackets: "Customer Service
# Representative - Romanian and English", "Quality Rater (German)", "Agent (Spanish Bilingual)"
_APART = r"(?:\s[-\u2013\u2014|]\s*|\(\s*)"
_ASKED = re.compile(
    rf"\b({_NAMES_SAID})[\s-]*(?:speaking|speakers?|native|bilingual)\b"
    rf"|\b(?:fluent|native|bilingual)\s+(?:in\s+)?({_NAMES_SAID})\b"
    rf"|{_APART}({_NAMES_SAID})\s*(?=\)|$|\s[-\u2013\u2014|(]|\s*\()",
    re.IGNORECASE,
)
_THAI_ASKED = re.compile("ภาษา(" + "|".join(n for n in NAMES if not n.isascii()) + ")")


# A kitchen's titles, where a language's name set apart is its cuisine's
_KITCHEN = re.compile(
    r"\b(?:chef|cook|koch|köchin|cuisinier|cuisinière|cocinero|cocinera|cuoco|kok|kucharz"
    r"|cuisine|kitchen|küche|restaurant|baker|pastry|sushi)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def asked_in(title: str) -> tuple[frozenset[str], ...]:
    """The languages `title` asks for, each ask as the codes any one of which will do
    ("German or English speaking": one ask of two; "fluent German & English": two asks;
    "Bilingual Customer Support (Chinese/English)": two asks, a bilingual's)."""
    asks: list[frozenset[str]] = []
    bilingual = re.search(r"\bbilingual\b", title, re.IGNORECASE)  # "(Chinese/English)": both
    for match in _ASKED.finditer(title):
        if match.group(3) and _KITCHEN.search(title):
            continue  # "Chef de Partie (Italian)": a cuisine, no language asked
        said = match.group(1) or match.group(2) or match.group(3)
        names = re.findall(_NAME, said, re.IGNORECASE)
        codes = [_ASKABLE[n.casefold()] for n in names]
        either = re.search(r"/|\bor\b", said, re.IGNORECASE) and not bilingual
        asks += [frozenset(codes)] if either else [frozenset([c]) for c in codes]
    asks += [frozenset([NAMES[name]]) for name in _THAI_ASKED.findall(title)]
    return tuple(dict.fromkeys(asks))


def without_asks(title: str) -> tuple[str, tuple[str, ...]]:
    """`title` without the languages it asks for, and their codes, sorted: "French Speaking
    Customer Service Representative" and "Customer Service Representative (French Speaker)"
    are one title asking for fr (likeness.py: one job; in German, another)."""
    codes = sorted({code for ask in asked_in(title) for code in ask})
    return _ASKED.sub(" ", title), tuple(codes)


def not_asked_of(title: str, languages: tuple[str, ...]) -> str:
    """Why a chat that reads `languages` is not who `title` asks for, in words; "" when it
    is, or the title asks for no language, or the chat reads any."""
    if not languages:
        return ""
    for ask in asked_in(title):
        if not ask & set(languages):
            said = " or ".join(sorted(ask))
            return f"its title asks for {said} (this chat reads {', '.join(languages)})"
    return ""


LANGUAGES_MOST = 10  # languages one chat reads at most: each one a word it typed


def read_languages(said: str) -> tuple[str, ...] | None:
    """The languages a chat typed ("en th", "ไทย อังกฤษ", "all" for every one: ()); None when
    a word is neither a code hunter can tell nor a name it knows."""
    words = said.replace(",", " ").casefold().split()
    if len(words) == 1 and words[0] in EVERY:
        return ()
    codes = [NAMES.get(word, word) for word in words[:LANGUAGES_MOST]]
    if not codes or any(code not in KNOWN for code in codes):
        return None
    return tuple(dict.fromkeys(codes))
