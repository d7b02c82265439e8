"""A job's likeness: whether a new listing is a job already seen, on another board or again on
the same one under a new id. Pure: the poller makes each listing's Likeness, the
store keeps it (its title key is the bucket an earlier copy is looked up by), and `same_job`
decides.

A wrong merge is a lost listing, so the rule is strict and every part must agree:
- the title is the same once normalised (case, punctuation, emoji, words such as "remote",
  "urgent" or a gender mark "(m/w/d)" dropped, and a last part that says only where or how the
  job is done, "(Remote - Europe)", "- Berlin, hybrid": its place is compared as a place;
  seniority kept, so "Senior" and "Junior" differ);
- the employer or client is the same where both boards state one (legal forms such as "GmbH",
  "Inc." or "บริษัท ... จำกัด" aside, and the trade after its name: "Solvia Tech"); where
  either does not, near-identical text must say it;
- the place agrees (or the text is word for word the same on one board's sites for two
  countries, adzuna.at and adzuna.ch: one ad, its place read by each site in its country):
  unstated or remote on either side, one inside the other ("Switzerland" and
  "Zürich, Switzerland"), or the same first part ("Wien, Austria" and "Wien, Wien"); else as
  the place model reads them (place.py): a district lies inside its city ("เขตบางนา" and
  "Bangkok"), and a part it does not know is no evidence ("Derendorf, Germany" is somewhere in
  Germany, so "Düsseldorf, Germany" agrees with it; "Munich, Germany" and "Düsseldorf,
  Germany" do not);
- the pay agrees: unstated on either side, or the same currency and period (or one board's
  unsaid) with ranges that meet; at one place (not two near each other), as a year's pay too;
- the text is near-identical where both boards give some: 55% or more of the shorter one's
  character 5-grams are in the longer one (a board that cuts descriptions at 500 characters still
  matches), estimated from a bottom-k sketch of 64 hashes (exact below 64 distinct 5-grams);
- where neither states an employer nor shows text, the same link is the evidence (two
  searches of one board that show titles only: one page);
- a merge needs evidence from both sides: the same text, or (where either has none) one
  board re-posting its own listing, or two boards neither of which shows its text naming the
  same employer; never a bare copy seen before a listing with its text (a copycat board's
  text-less copy hid the employer's own listing for 45 days). A bare copy seen after it
  joins it: the employer's listing was alerted, and the copy's link shows beside it.
Character n-grams need no word splitter, so Thai (no spaces) is compared like English.
What a listing's title and place are as keys: job_keys.py; its employer's: employer_key.py;
its text's sketch and language: text_sketch.py.
"""

from __future__ import annotations

import base64
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from hunter.rules.employer_key import ALSO, company_key
from hunter.rules.job_keys import moved_to, place_parts, split_title, title_key
from hunter.rules.languages_apart import names_of, one_role, ranks, translated
from hunter.rules.listing import Listing
from hunter.rules.sites import job_board, site_of, two_countries_sites
from hunter.rules.text_sketch import SKETCH_SIZE, language_of, plain, text_hashes

TEXT_SAME = 0.55  # of the shorter text's 5-grams found in the other: the same text
TEXT_ALONE = 0.85  # ... when the text must speak for a client a board does not state
# ... when one board posts the same title of the same employer at the same stated place again
# under a new id: its introduction rewritten, the rest of its text kept
TEXT_REPOSTED = 0.3
# ... when one board's sites for two countries show it at two places: word for word
TEXT_VERBATIM = 0.9


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
    link: str = ""  # its link, as the store keeps it beside: two searches of one board show one
    # The places its title names ("Account Executive - DACH"): a territory, where the
    # listing states its own place (Berlin), and two territories are two jobs
    titled: tuple[str, ...] = ()
    # A text too short for shingles ("Pitch decks."), as a CRC-32 of it: on one board, the
    # same title, short text, place and pay under a new id are one job re-posted
    brief: int = 0

    @classmethod
    def of(cls, listing: Listing) -> Likeness:
        pay = None
        if listing.budget is not None:
            most = listing.budget_max if listing.budget_max is not None else listing.budget
            pay = (listing.currency, listing.period, listing.budget, most)
        plain_text = plain(listing.summary)  # once, for the sketch and the language
        shingles, sketch = text_hashes(plain_text)
        language = language_of(plain_text) if shingles else ""
        titled = split_title(listing.title)[1]
        return cls(
            title=title_key(listing.title, listing.location),
            company=company_key(listing.company),
            # The listing's place, or where its title says it is done.
            # Where the title says the job is done (place.py reads it so), else the listing's
            # place, else where its title's last part says
            place=place_parts(moved_to(listing.title) or listing.location) or titled,
            pay=pay,
            shingles=shingles,
            sketch=sketch,
            language=language,
            site=site_of(listing.url),
            names=names_of(listing.title, listing.summary, listing.company),
            link=listing.url,
            titled=titled,
            brief=zlib.crc32(plain_text.encode("utf-8")) if plain_text and not shingles else 0,
        )

    @property
    def comparable(self) -> bool:
        """Whether it could ever be one job with another listing: a title, and a text or an
        employer (a title alone never merges: same_job). One that cannot is neither kept nor
        looked up: a board showing thousands of bare titles costs nothing. (A read of a board
        another source reads too keeps them: merging.Copies, by their link.)"""
        return bool(self.title) and bool(self.shingles or self.company or self.brief)

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
            "titled": list(self.titled),
            "brief": self.brief,
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
        titled = data.get("titled")  # absent from the rows of releases before it: none
        brief = data.get("brief")
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
            link=url if isinstance(url, str) else "",
            titled=tuple(str(p) for p in titled) if isinstance(titled, list) else (),
            brief=brief if isinstance(brief, int) and not isinstance(brief, bool) else 0,
        )


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
    if not a or not b or _one_place(a, b) or a[0] == b[0]:
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
    space ("data dog", "datadog"), or one the other's first words, spaces aside ("acme",
    "acme robotics": a division, or the name in full; "harbourview cx", "harbourviewcx
    philippines"), or but for a plural's "s" ("deccan lifeline hospital", "... hospitals"). A
    wrong merge loses nothing: the copy's link shows on the first alert."""
    if ALSO in a or ALSO in b:  # a name in two scripts: either of its names
        return any(_one_name(x, y) for x in a.split(ALSO) for y in b.split(ALSO))
    return _one_name(a, b)


def _one_name(a: str, b: str) -> bool:
    if a == b or a.replace(" ", "") == b.replace(" ", ""):
        return True
    short, long = sorted((a.split(), b.split()), key=lambda words: len("".join(words)))
    # The shorter, its spaces aside, ends where a word of the longer does: "harbourview cx"
    # and "harbourviewcx philippines" are one; "acme" and "acmeworks" two
    cut, whole = "".join(short), "".join(long)
    if whole == cut + "s" and len(short) > 1:  # "Deccan Lifeline Hospital(s)": its name again
        return True
    ends = set(accumulate(len(word) for word in long))
    return len(cut) >= 3 and whole.startswith(cut) and len(cut) in ends


# A year's hours, days, weeks and months: pay in two periods at one place is compared as a
# year's
_PER_YEAR = {"hour": 2080, "day": 260, "week": 52, "month": 12, "year": 1}


def _pays_agree(
    a: tuple[str, str, int, int] | None, b: tuple[str, str, int, int] | None, here: bool = False
) -> bool:
    """Unstated on either side, or the same currency and ranges that meet, in one period or
    where one board does not say it ("฿60,000 - ฿90,000 per month" and "60,000 - 90,000 บาท").
    `here`: both at the place one names (not only near it): as a year's pay too, in the
    currency either board says ("$2,200 - $2,500 a month" and "26400-30000" in Tampines;
    "USD 19 - 23" an hour and "$39k - $47k" in the US). Not for two places near each other:
    an agency's "3.600 € - 4.200 € pro Monat" in Fürth and "50.000 € - 60.000 € pro Jahr" in
    Nürnberg, its text a template, are two clients' jobs."""
    if a is None or b is None:
        return True
    periods = a[1] == b[1] or not (a[1] and b[1])
    currencies = a[0] == b[0] or not (a[0] and b[0])  # "28000-32000" and "28.000 € - 32.000 €"
    if currencies and periods and a[2] <= b[3] and b[2] <= a[3]:
        return True
    if not here or (a[0] and b[0] and a[0] != b[0]):
        return False
    low_a, high_a = (n * _PER_YEAR.get(a[1], 1) for n in a[2:])
    low_b, high_b = (n * _PER_YEAR.get(b[1], 1) for n in b[2:])
    return low_a <= high_b and low_b <= high_a


def _one_place(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two places are one by their words: the same, or one's parts all the other's."""
    return bool(a and b) and (set(a) <= set(b) or set(b) <= set(a))


def in_another_language(mine: Likeness, earlier: Likeness) -> bool:
    """Whether `earlier` (of `mine`'s employer) is under another title in another language:
    the only listing of another title that can be the same job (`_in_two_languages`), which
    the store's note answers beside the title's bucket (functions/likeness.sql)."""
    if not (mine.company and mine.language):
        return False
    return earlier.title != mine.title and earlier.language not in ("", mine.language)


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
    shared = len(set(a.names) & set(b.names))
    said = (f"one job in {a.language} and {b.language}", "same employer", "same place")
    if translated(a.names, b.names):
        return Sameness(True, (*said, f"{shared} names the same"))
    if role := one_role(a.title, b.title, a.names, b.names):
        return Sameness(True, (*said, f"both titled {role}"))
    # One employer's pay, stated alike on both sides, at one place and rank: one ad translated
    if a.pay and b.pay and a.pay[0] == b.pay[0] and a.pay[2:] == b.pay[2:]:
        return Sameness(True, (*said, "the same pay stated"))
    return None


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
    if a.titled and b.titled and not _places_agree(a.titled, b.titled):
        return Sameness(False, ("same title", "another territory"))  # "- DACH", "- Nordics"
    if not _pays_agree(a.pay, b.pay, _one_place(a.place, b.place)):
        return Sameness(False, ("same title", "other pay"))
    share = text_share(a, b)
    if far and (share is None or share < TEXT_VERBATIM):
        return Sameness(False, ("same title", "another place"), share)
    if far:
        reasons.append(f"one ad on {a.site} and {b.site}")
    # One board's re-post under a new id, or two boards that state one pay: the same title,
    # employer, place and pay, each board's text its own introduction of it
    paid = a.pay is not None and b.pay is not None and a.pay[2:] == b.pay[2:]
    reposted = (same_board or paid) and stated and bool(a.place and b.place)
    if share is not None and share < (TEXT_REPOSTED if reposted else TEXT_SAME):
        return Sameness(False, (*reasons, f"{share:.0%} the same text"), share)
    if same_board and a.brief and a.brief == b.brief and not (a.shingles or b.shingles):
        return Sameness(True, (*reasons, "the same short text on one board"), share)
    bare = not (a.shingles or b.shingles or a.company or b.company)
    if bare and a.link and a.link == b.link:  # one page: two searches of one board, titles only
        return Sameness(True, (*reasons, "same link"), share)
    # A title and an employer without text beside a listing with its text, on another
    # board: the absence of text is no evidence (a copycat board posts the titles of real
    # employers, and its bare copy would stand for their listing). But where neither shows
    # its text (Proxify on two boards), the same title, employer, place and pay
    # are one job, and a wrong merge hides no listing: the copy's link is shown on the first
    # alert ("also on", docs/promise.md).
    # A copy without text of a listing seen before with its text stands for nothing: the
    # employer's own listing was alerted first, and the copy's link joins it ("also on")
    # A job board's listing without text seen first is that job too: a board that carries
    # employers' ads (LinkedIn, Indeed, RemoteOK...) is no copycat, and its link, alerted
    # first, leads to the job; the employer's link joins it
    neither = not (a.shingles or b.shingles)
    later = stated and not a.shingles and bool(b.shingles)
    boards = stated and not b.shingles and bool(a.shingles) and job_board(b.site)
    partial = share is None and not (a.shingles and b.shingles) and not same_board
    if partial and not (neither and stated) and not later and not boards:
        return Sameness(False, (*reasons, "no text to compare"), share)
    if stated:
        said = " on one board" if share is None and same_board else ""
        said = ", neither shows its text" if share is None and not same_board else said
        said = ", a copy without text of it" if later and not same_board else said
        said = f", {b.site}'s listing without text" if boards and not same_board else said
        reasons.append("same employer" + said)
    elif share is None or share < TEXT_ALONE:
        # No employer on one side and no text to vouch for it: not enough to merge.
        return Sameness(False, (*reasons, "employer unknown"), share)
    if share is not None:
        reasons.append(f"{share:.0%} the same text")
    return Sameness(True, tuple(reasons), share)
