"""Where a listing's job is and who may take it, and whether that suits a chat that says
where it can work (`places = ["Portugal", "remote"]`, /places).

A listing is read once for all chats (cached by its location, title and text):
- `at`: the places its location names, finest first ("เขตบางนา กรุงเทพมหานคร" is Bang Na,
  inside Bangkok; "Hillegom, Netherlands" a town in the Netherlands);
- `remote`: whether it says the work is remote (its location or title: "Remote", "Anywhere",
  "Work from home", "ทำงานที่บ้าน"; its text only in so many words: "fully remote");
- `open_to`: where a remote job takes people from ("Remote - US only", "EMEA", "CET +/- 3
  hours", "must be based in Europe"); () when it does not say.

A chat's places are areas (gazetteer.py) and the word "remote". A listing is kept when:
- it is on site somewhere that meets one of the chat's places (one holds the other: a job
  "in Portugal" may be in Lisbon), or
- it is remote and open to one of them (a region that holds it, or worldwide); a chat whose only
  place is "remote" takes every remote job and no job on site.
Unknown is never "no": a listing whose place cannot be read, or a remote one that does not say
whom it takes, is kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from hunter.rules.gazetteer import WORLD, Area, gazetteer, key, plain
from hunter.rules.gazetteer import spelled_like as _closest
from hunter.rules.job_keys import REMOTE_SAID, moved_to, split_title
from hunter.rules.thai_places import PREFIXES, RAIL

REMOTE = "remote"
_REMOTE_WORDS = re.compile(
    r"\b(remote|anywhere|worldwide|work from home|wfh|home[- ]?office|telecommute|distributed"
    # German, French, Spanish, Portuguese and Italian boards' words for it
    r"|fernarbeit|mobiles arbeiten|t[ée]l[ée]travail|teletrabajo|remoto|trabalho remoto"
    r"|lavoro da remoto"
    # ... Polish, Dutch, Czech, Swedish, Turkish, Russian, Ukrainian, Vietnamese, Indonesian
    r"|(?:praca )?zdaln(?:ie|a|y)|thuiswerk(?:en)?|op afstand|na dálku|práce z domova"
    r"|på distans|distansarbete|uzaktan|удал[её]нн?(?:о|ая)|віддалено"  # noqa: RUF001
    r"|(?:làm việc )?từ xa|jarak jauh|kerja dari rumah)\b"
    r"|ทำงานที่บ้าน|ทำงานจากที่บ้าน|ทำงานที่ไหนก็ได้|รีโมท"
    r"|远程|遠程|居家办公|在宅勤務|テレワーク|リモート|원격|재택",  # Chinese, Japanese, Korean
    re.IGNORECASE,
)
_REMOTE_TEXT = re.compile(
    r"\b(fully remote|100\s?% remote|remote[- ]first|work from anywhere|remote position|"
    r"this is a remote)\b|ทำงานจากที่ไหนก็ได้|ทำงานที่บ้านได้ 100",
    re.IGNORECASE,
)
_ON_SITE = re.compile(r"\b(hybrid|on[- ]?site|in[- ]office)\b|ไฮบริด", re.IGNORECASE)
# "US only", "only in Europe", "must be based in Germany", "residents of Canada".
_ONLY = re.compile(
    r"\b(?:([A-Z][\w.]+(?: [A-Z][\w.]+)?)[ -]+only|only (?:in |from )?(?:the )?([A-Z][\w.]+"
    r"(?: [A-Z][\w.]+)?)|(?:must|should) (?:be )?(?:based|located|residing|live) in (?:the )?"
    r"([A-Z][\w.]+(?: [A-Z][\w.]+)?)|residents? of (?:the )?([A-Z][\w.]+(?: [A-Z][\w.]+)?))"
)
# Time zones a remote job keeps, as the regions that keep them.
_ZONES = (
    (re.compile(r"\b(CET|CEST|EET|WET|GMT|BST)\b|\bUTC ?[+±]? ?[0-3]\b"), "EMEA"),
    (re.compile(r"\b(EST|EDT|PST|PDT|MST)\b|US time ?zones?"), "americas"),
    (re.compile(r"\b(ICT|SGT|AEST|JST|IST)\b|\bUTC ?\+ ?([5-9]|1[0-2])\b"), "APAC"),
)
_SPLIT = re.compile(r"[,;/|()\[\]·•]| - | \u2013 |\s-\s|\n")
_NOISE = re.compile(
    r"\b(remote|hybrid|on[- ]?site|only|fully|completely|entirely|full[- ]time|"  # "Fully": a town
    r"time ?zone|anywhere in|based|within|in|the|area|"
    r"region|metro|greater|district|province|city|state|of|and|or|\+/?-? ?\d+ ?hours?)\b"
    r"|ทำงานที่บ้าน|ทำงานจากที่บ้าน|全职|完全",
    re.IGNORECASE,
)
_TEXT_MOST = 3000  # characters of a listing's text read for cues
# A chat's city reaches this far: a commute, as job boards search a city by default (Indeed:
# within 25 miles, 40 km; most boards' radius choices start at 20-25 km). A bigger city's own
# radius is wider (Bangkok's 26 km).
COMMUTE_KM = 25.0
# A rail line's name: a Latin one a word of its own ("Charleroi" holds "arl"), a Thai one anywhere.
_RAIL = re.compile(
    "|".join(rf"\b{re.escape(w)}" if w.isascii() else re.escape(w) for w in sorted(RAIL)),
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Where:
    at: tuple[Area, ...] = ()
    remote: bool = False
    open_to: tuple[Area, ...] = ()

    def shown(self) -> str:
        """In words, for /why and `hunter check`: "Bang Na, Bangkok", "remote, open to US"."""
        if self.remote:
            to = ", ".join(a.name for a in self.open_to) or "whom it does not say"
            return f"remote, open to {to}"
        return ", ".join(a.name for a in self.at) or "unknown"


def where_of(location: str, title: str, summary: str) -> Where:
    """Where a listing is and whom it takes, as read from its location, title and text."""
    return _where(location, title, summary[:_TEXT_MOST])


@lru_cache(maxsize=1024)  # a read judges a listing for every chat at once: its last listings
def _where(location: str, title: str, summary: str) -> Where:
    on_site = bool(_ON_SITE.search(location) or _ON_SITE.search(title))
    remote = not on_site and bool(
        _REMOTE_WORDS.search(location)
        or _REMOTE_WORDS.search(title)
        or _REMOTE_TEXT.search(summary)
    )
    at = read_places(location)
    if (moved := _moved_to(title)) and not any(a.overlaps(b) for a in at for b in moved):
        at = moved
    zones = [gazetteer().areas(region)[0] for pattern, region in _ZONES if pattern.search(location)]
    if not at and zones:
        remote = True  # "Time zone: CET (+/- 3 hours)": a remote board's whom-it-takes
    # The last parts of a title that say only where ("Java Engineer - Latin America", "QA
    # Tester (Spain)", "Support Lead - Remote, APAC"): where, or whom a remote job takes,
    # when the location names no country or region of its own ("Anywhere in the World")
    regions = [a for a in at if a.point is None and a.countries is not None]  # not the world
    titled = [] if regions else _title_areas(title)
    if not remote:
        return Where(at=at or tuple(titled))
    open_to = [a for a in at if a.countries is not None] + titled if titled else list(at)
    for text in (location, title, summary):
        for match in _ONLY.finditer(text):
            said = next(group for group in match.groups() if group).rstrip(".")
            open_to += [a for a in gazetteer().areas(said)[:1] if a.point is None]
    open_to = open_to or zones
    if any(a.countries is None for a in open_to):
        open_to = [WORLD]
    return Where(at=(), remote=True, open_to=tuple(dict.fromkeys(open_to)))


def _moved_to(title: str) -> tuple[Area, ...]:
    """Where a title says the job is done ("- Work in Athens, Greece", "Relocate to Lisbon",
    "(Based in Malta)"), else (). An agency's ad on a board's site for another country is
    there, not in that country (Adzuna's Swiss site places it in Switzerland)."""
    said = moved_to(title)
    return tuple(finest(read_places(said))) if said else ()


def _title_areas(title: str) -> list[Area]:
    """The countries and regions a title's last parts name, as the gazetteer has them."""
    return [a for p in split_title(title)[1] for a in gazetteer().areas(p)[:1] if a.point is None]


def as_remote(location: str) -> str:
    """The location of a job on a board whose every job is remote (a source's `remote`), as
    hunter reads it: what it names is whom the job takes ("Europe, Netherlands" on Jobicy is
    "Remote: Europe, Netherlands", no office in the Netherlands); unchanged when it says remote
    already ("Anywhere in the World")."""
    if _REMOTE_WORDS.search(location):
        return location
    return f"{REMOTE_SAID}{location}" if location.strip() else "Remote"


def read_places(location: str) -> tuple[Area, ...]:
    """The places a location names, one per part it has ("Austin, TX" is Austin in the US;
    "Derendorf, Germany" only Germany: a part not known is passed over)."""
    found: list[Area] = []
    for part in _SPLIT.split(location):
        found += _part(part)
    if not found:
        return ()
    # A city of a name many share is the one in the country another part names.
    countries = {c for a in found if a.point is None and a.countries for c in a.countries}
    chosen = []
    for area in found:
        if area.point is not None and countries and not area.countries <= countries:  # type: ignore[operator]
            area = _in(area, countries)
            if not area.countries <= countries:  # type: ignore[operator]
                continue  # "Milbertshofen-Am Hart, Germany" is not Hart in Austria
        if area not in chosen:
            chosen.append(area)
    return tuple(chosen)


def finest(areas: tuple[Area, ...]) -> list[Area]:
    """The areas of one place that hold none of the others: "Verl, Germany" is Verl (Germany
    says nothing more, and a chat in Munich is not in Verl); "Oberkochen, Germany", whose town
    the gazetteer does not know, is all of Germany."""
    return [a for a in areas if not any(a.holds(b) and not b.holds(a) for b in areas)]


def _in(city: Area, countries: set[str]) -> Area:
    """The city of `city`'s name in one of `countries`, else `city`."""
    name = city.name.rsplit(",", 1)[0]
    for other in gazetteer().areas(name):
        if other.countries and other.countries <= countries:
            return other
    return city


def _part(part: str) -> list[Area]:
    """The areas one part of a location names: itself whole, else its longest runs of words.
    A part on a rail line ("MRT เพชรบุรี") is in greater Bangkok: its station, else all of it."""
    found = _named(part)
    if _RAIL.search(part):
        greater = gazetteer().areas("กรุงเทพฯ และปริมณฑล")[0]
        inside = [a for name in found for a in gazetteer().areas(name) if greater.holds(a)]
        return inside[:1] or [greater]
    return [gazetteer().areas(name)[0] for name in found]


def _named(part: str) -> list[str]:
    """The names in one part of a location that the gazetteer knows, longest runs first.
    A name of three letters or fewer in capitals names a country or region only ("US", "EU"),
    never a town ("Wa" in Ghana is "Seattle, WA"'s state; "Ulm" is a town)."""
    text = _NOISE.sub(" ", re.sub(r"[\d,.]+$|\d[\d,.]*", " ", part))
    words = [w for w in (_unprefixed(w) for w in text.split()) if w]
    return [name for name in _runs(words, _listed) if name is not None]


def _listed(name: str) -> str | None:
    """`name` when it names a place as a listing's location may ("WA" is no town)."""
    areas = gazetteer().areas(name) if name else ()
    if areas and (len(name) > 3 or not name.isupper() or areas[0].point is None):
        return name
    return None


_RUN_MOST = 4  # words of the longest place name read as one ("Phra Nakhon Si Ayutthaya")


def _runs(words: Sequence[str], name_of: Callable[[str], str | None]) -> list[str | None]:
    """Left to right, the name `name_of` gives each longest run of `words` it knows (at most
    _RUN_MOST words); None for a word in no run."""
    return [name for name, _run in _spans(words, name_of)]


def _spans(
    words: Sequence[str], name_of: Callable[[str], str | None]
) -> Iterator[tuple[str | None, str]]:
    """_runs' names, each with the words it read them from."""
    i = 0
    while i < len(words):
        for n in range(min(_RUN_MOST, len(words) - i), 0, -1):
            if (name := name_of(run := " ".join(words[i : i + n]))) is not None:
                yield name, run
                i += n
                break
        else:
            yield None, words[i]
            i += 1


def _unprefixed(word: str) -> str:
    for prefix in PREFIXES:
        if word.startswith(prefix) and len(word) > len(prefix):
            return word[len(prefix) :]
    return word.strip(".-'")


# Choosing places from the chat.
PLACES_MOST = 10  # places one chat names at most
PLACES_TEXT_MOST = 300  # characters of a chat's /places read at most
_EVERY = frozenset(["all", "any", "anywhere", "everywhere", "ทั้งหมด", "ทุกที่"])
_REMOTE_SAID = frozenset(["remote", "wfh", "รีโมท", "ทำงานที่บ้าน", "ทางไกล"])


def read_chat_places(said: str) -> tuple[str, ...] | None:
    """The places a chat typed ("Portugal, remote", "กรุงเทพ ปริมณฑล"), each as the gazetteer
    knows it; () for every place ("all"); None when a name is not a place hunter knows."""
    said = said.strip()
    if key(said) in _EVERY:
        return ()
    places: list[str] = []
    for _chunk, found in _read_chunks(said):
        if None in found:
            return None  # a word that is no place hunter knows
        places += [name for name in found if name is not None]
    chosen = tuple(dict.fromkeys(places))
    return chosen if 0 < len(chosen) <= PLACES_MOST else None


def unknown_said(said: str) -> str:
    """The words of the first name a chat typed for its places that are no place hunter knows
    ("" when each is one): what its refusal names ("กรงเทพ" of "กรงเทพ ปริมณฑล", not both)."""
    for chunk, found in _read_chunks(said):
        if None in found:
            unknown = [run for name, run in _spans(chunk.split(), _said) if name is None]
            return " ".join(unknown) if len(found) > 1 else chunk
    return ""


def _read_chunks(said: str) -> Iterator[tuple[str, list[str | None]]]:
    """Each name a chat typed apart by commas, with the places it reads as: the name whole, or
    its runs of words (None for a word that is no place). A name and the next read together
    when the next alone is no place ("Austin, TX")."""
    chunks = [c.strip() for c in re.split(r"[,;\n]", said) if c.strip()]
    i = 0
    while i < len(chunks):
        if i + 1 < len(chunks) and _read_whole(chunks[i + 1]) is None:
            pair = f"{chunks[i]}, {chunks[i + 1]}"
            if (whole := _read_whole(pair)) is not None:
                yield pair, [whole]
                i += 2
                continue
        whole = _read_whole(chunks[i])
        yield chunks[i], [whole] if whole is not None else _runs(chunks[i].split(), _said)
        i += 1


def _read_whole(name: str) -> str | None:
    """What a chat's `name` is kept as: a place hunter knows (_said), or the name itself when
    it reads as a listing's location does and says remote first ("Remote (US)", "remote
    LATAM": remote work open to it) or its words are no list of places ("Austin, TX");
    None otherwise ("Samut Prakan remote", "กรุงเทพ ปริมณฑล": each word a place)."""
    said = _said(name)
    if said is not None or _own_words(name) is None:
        return said
    if _REMOTE_WORDS.match(name.strip()) or None in _runs(name.split(), _said):
        return name
    return None


def _remote(name: str) -> bool:
    """Whether a chat's `name` says remote work: its own words ("wfh", "ทางไกล") or any a
    listing's place is read as remote by ("远程", "Homeoffice", "télétravail")."""
    return key(name) in _REMOTE_SAID or bool(_REMOTE_WORDS.fullmatch(name.strip()))


def _said(name: str) -> str | None:
    """The place a chat means by `name` ("remote", or a place without its "เขต"); None when
    hunter knows none."""
    if _remote(name):
        return REMOTE
    plain = _unprefixed(name)
    return plain if plain and chat_place(plain) else None


_QUALIFIED = re.compile(r"\s*(.+?)\s*(?:,\s*|\(\s*)([^,()]+?)\s*\)?\s*")


def chat_place(name: str) -> tuple[Area, ...]:
    """The areas a chat means by a place's `name`: as the gazetteer reads it, else a country's
    or a region's name in another language ("Suiza", "泰国", "Niemcy", "欧洲": Unicode CLDR's,
    country_names.json). "Valencia (ES)", "Valencia, Spain", "Georgia (US)": those of the name
    inside what follows it, as a place of several countries is told apart (ambiguous); last, a
    Latin name without its marks."""
    found = gazetteer().areas(name)
    if found:
        return found
    if (qualified := _QUALIFIED.fullmatch(name)) is not None:
        places, within = chat_place(qualified[1]), chat_place(qualified[2])
        inside = tuple(p for p in places if any(w.holds(p) for w in within))
        if inside:
            return inside
    said = _other_names().get(key(name))
    if said is None:  # last, a city GeoNames has only without its marks: "Hà Nội", "Đà Nẵng"
        bare = plain(name)  # (not before: "frança" is France, not Franca in Brazil)
        return gazetteer().areas(bare) if bare is not name else ()
    country = gazetteer().countries.get(said)
    return (country,) if country is not None else gazetteer().areas(said)


@lru_cache(maxsize=1)
def _other_names() -> dict[str, str]:
    text = resources.files("hunter.rules").joinpath("country_names.json").read_text("utf-8")
    names = json.loads(text)["names"]
    return {str(k): str(v) for k, v in names.items()}


def ambiguous(name: str) -> str:
    """A note for a chat's place whose name is as much another country's ("Valencia":
    Venezuela's and Spain's cities, each of about a million; "Georgia": the country and the US
    state): which one it is read as (the largest), and how to name the other; "" when there
    is no doubt (Paris, France's, beside a town of Texas: a radius a half of its, or less)."""
    found = chat_place(name) if not _remote(name) else ()
    if not found or found[0].countries is None:
        return ""
    first = found[0]
    rivals = [
        a for a in found[1:] if a.countries and a.countries != first.countries and _as_big(a, first)
    ]
    if not rivals:
        return ""
    return (
        f"“{name}” is read as {_shown(first)}, the largest so named; for {_shown(rivals[0])}, "
        f"write “{name} ({sorted(rivals[0].countries or ())[0]})”"
    )


def _as_big(other: Area, first: Area) -> bool:
    """Whether `other` is a place of the size of `first`: both countries or provinces, or
    both cities, the other's radius (its population's) at least half the first's."""
    if first.point is None or other.point is None:
        return first.point is None and other.point is None
    return other.point[2] >= first.point[2] / 2


def _shown(area: Area) -> str:
    """An area with its country, as a person tells it from another of its name."""
    if area.point is not None or not area.countries or len(area.countries) > 1:
        return area.name
    return f"{area.name} ({sorted(area.countries)[0]})"


def spelled_like(name: str) -> str:
    """A hint for a place hunter does not know: ' (did you mean "Chiang Mai"?)'; "" when no
    known place is spelled close to it."""
    close = _closest(gazetteer(), name)
    return f' (did you mean "{close}"?)' if close and key(close) != key(name) else ""


def unknown_places(places: tuple[str, ...]) -> list[str]:
    """The names of `places` hunter does not know as a place (for hunter.toml's check)."""
    return [p for p in places if not _remote(p) and not chat_place(p) and _own_words(p) is None]


def _own_words(name: str) -> tuple[bool, tuple[Area, ...]] | None:
    """A chat's place written as a listing's location is ("Remote (US)", "remote LATAM",
    "Remote Deutschland", "全职远程", "Austin, TX"): whether it says remote work, and the places
    it names; None when a word of it names no place (a typo is refused, where a listing's
    unknown word is passed over)."""
    remote = bool(_REMOTE_WORDS.search(name))
    rest = _REMOTE_WORDS.sub(" ", name)
    named: list[Area] = []
    for part in _SPLIT.split(rest):
        text = _NOISE.sub(" ", re.sub(r"\d[\d,.]*", " ", part))  # "100% remote"
        words = [w for w in (_unprefixed(w) for w in text.split()) if any(c.isalnum() for c in w)]
        state = gazetteer().us_states.get(" ".join(words))
        if state is not None and any("US" in (a.countries or ()) for a in named):
            continue  # "Austin, TX": a state's code after a US city
        found = _runs(words, _listed)
        if None in found:
            return None
        named += [gazetteer().areas(n)[0] for n in found if n is not None]
    if not named:
        return (True, ()) if remote else None
    return remote, tuple(finest(read_places(rest)) or named)


@dataclass(frozen=True, slots=True)
class _ChatPlaces:
    areas: tuple[Area, ...]  # where it works on site
    remote: bool  # "remote": every remote job open to one of `areas`, or to all
    remote_to: tuple[Area, ...]  # "Remote (US)": remote jobs open to one of these


@lru_cache(maxsize=1024)
def _chat_areas(places: tuple[str, ...]) -> _ChatPlaces:
    areas: list[Area] = []
    remote_to: list[Area] = []
    remote = False
    for place in places:
        if _remote(place):
            remote = True
        elif found := chat_place(place):
            areas.append(_commute(found[0]))
            areas += _its_city(found[0])
        elif (own := _own_words(place)) is not None:
            if not own[0]:
                areas += own[1]
            elif own[1] and all(a.countries is not None for a in own[1]):
                remote_to += own[1]
            else:
                remote = True  # "全职远程", "remote worldwide"
    return _ChatPlaces(tuple(areas), remote, tuple(remote_to))


@lru_cache(maxsize=512)  # a search of the gazetteer's labels: once per province asked
def _its_city(area: Area) -> tuple[Area, ...]:
    """A province named as its capital ("Chiang Mai", "ขอนแก่น"): the capital's commute too,
    which reaches past the province's line (Lamphun is 23 km from Chiang Mai)."""
    if area.point is not None or not area.provinces:
        return ()
    country = next(iter(area.countries or ()), "")
    city = gazetteer().city_labelled(f"{area.name}, {country}")
    if city is None or not city.provinces or not city.provinces <= area.provinces:
        return ()
    return (_commute(city),)


def _commute(area: Area) -> Area:
    """A chat's city as the reach of a commute from it: COMMUTE_KM around its centre, or the
    city's own radius where that is wider (a chat in Bielefeld takes a job in Verl, 20 km
    away; one in Munich is not sent Nuremberg's)."""
    if area.point is None or area.point[2] >= COMMUTE_KM:
        return area
    return replace(area, point=(area.point[0], area.point[1], COMMUTE_KM))


def _from_home_in(open_to: tuple[Area, ...], areas: tuple[Area, ...]) -> bool:
    """Whether a remote job is done from home within a chat's places: every place it names is
    a city, a district or a province (not a country nor a region), and one of the chat's
    places holds one ("ทำงานที่บ้าน, เขตสะพานสูง กรุงเทพฯ": a Bangkok employer's staff
    at home in Bangkok, a job in Bangkok)."""
    finer = [a for a in open_to if a.countries is not None and (a.point or a.provinces)]
    if not finer or len(finer) != len(open_to):
        return False
    return any(c.holds(a) for a in finer for c in areas)


def elsewhere(where: Where, places: tuple[str, ...]) -> str:
    """Why a listing `where` it is suits no place of a chat's `places`, in words; "" when it
    suits one, the chat names none, or the listing's place is unknown. A remote job suits only
    a chat whose places say "remote" (one that works in กรุงเทพฯ and ปริมณฑล asked
    for no "Worldwide" job; a hybrid one is read as on site: _where), unless it is done from
    home within one of the chat's places (a city's or a province's, not a country's)."""
    if not places:
        return ""
    chat = _chat_areas(places)
    areas = chat.areas
    wanted = ", ".join(p for p in places)
    if where.remote and not chat.remote and not chat.remote_to:
        if _from_home_in(where.open_to, areas):
            return ""
        return f"place read as {where.shown()} (this chat works in {wanted}, not remote)"
    if where.remote:
        if not where.open_to or any(a.countries is None for a in where.open_to):
            return ""
        if chat.remote and not areas:
            return ""
        reach = (areas if chat.remote else ()) + chat.remote_to
        if any(o.overlaps(c) for o in where.open_to for c in reach):
            return ""
        if _from_home_in(where.open_to, areas):
            return ""
        return f"place read as {where.shown()} (this chat works in {wanted})"
    if not where.at:
        return ""
    if any(a.overlaps(c) for a in finest(where.at) for c in areas):
        return ""
    if not areas and not chat.remote and not chat.remote_to:
        return ""
    return f"place read as {where.shown()} (this chat works in {wanted})"
