"""Where a listing is and who may take it (issue 54, its place layer), read from locations as
the boards write them (the recorded answers of ../shared/fixtures: JobThai's "เขตบางนา
กรุงเทพมหานคร" and "BTS ช่องนนทรี, ศาลาแดง", Adzuna's "Hillegom, Netherlands", We Work
Remotely's "Time zone: CET (+/- 3 hours)", RemoteOK's "New York, NY / Seattle, WA / Remote");
and whether that suits a chat's places. Unknown is never "no"."""

from __future__ import annotations

import pytest

from hunter.errors import ConfigError
from hunter.rules.fanout import Fanout
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.gazetteer import gazetteer
from hunter.rules.language import language_of
from hunter.rules.listing import Listing
from hunter.rules.place import (
    ambiguous,
    chat_place,
    elsewhere,
    read_chat_places,
    unknown_places,
    unknown_said,
    where_of,
)
from hunter.settings.config import parse_config


def area(name: str):  # type: ignore[no-untyped-def]
    return gazetteer().areas(name)[0]


@pytest.mark.parametrize(
    ("location", "inside"),
    [
        ("เขตบางนา กรุงเทพมหานคร", "กรุงเทพฯ"),  # JobThai: a district, then the province
        ("แขวงบางนา เขตบางนา กรุงเทพฯ", "Bangkok"),
        ("Bang Na, Bangkok", "กรุงเทพมหานคร"),
        ("BTS อโศก", "Bangkok"),  # a station
        ("BTS ช่องนนทรี, ศาลาแดง", "กรุงเทพฯ"),
        ("MRT เพชรบุรี", "Bangkok"),  # the station, not the province of Phetchaburi
        ("รถไฟฟ้าสายสีม่วง", "กรุงเทพฯ และปริมณฑล"),  # on a line, station unknown
        ("Nonthaburi", "ปริมณฑล"),
        ("อ.ปากเกร็ด จ.นนทบุรี", "ปริมณฑล"),
        ("อ.เมืองสมุทรปราการ จ.สมุทรปราการ18,000", "ปริมณฑล"),  # a salary glued on
        ("Hillegom, Netherlands", "Netherlands"),
        ("Düsseldorf, Germany", "Germany"),
        ("Düsseldorf, Germany", "EU"),
        ("München", "Munich"),  # a city's own name
        ("Lisboa, Portugal", "Lisbon"),
        ("Austin, TX", "Texas"),
        ("Wrocław, Polska", "Europe"),
    ],
)
def test_a_place_is_read_inside_what_holds_it(location: str, inside: str) -> None:
    where = where_of(location, "Engineer", "")
    assert not where.remote and where.at, where
    assert any(area(inside).holds(a) for a in where.at), (where.shown(), inside)


@pytest.mark.parametrize(
    ("location", "not_inside"),
    [
        ("เขตบางนา กรุงเทพมหานคร", "ปริมณฑล"),
        ("Nonthaburi", "Bangkok"),
        ("Chiang Mai", "ปริมณฑล"),
        ("Düsseldorf, Germany", "Munich"),
        ("Hillegom, Netherlands", "Amsterdam"),  # 30 km off: not a district of it
        ("Austin, TX", "Portugal"),
        ("Charleroi, België", "กรุงเทพฯ และปริมณฑล"),  # "arl" inside a word is no rail line
    ],
)
def test_a_place_is_not_read_inside_what_does_not_hold_it(location: str, not_inside: str) -> None:
    where = where_of(location, "Engineer", "")
    assert where.at and not any(area(not_inside).holds(a) for a in where.at), where.shown()


@pytest.mark.parametrize(
    ("location", "title", "summary", "open_to"),
    [
        ("Remote", "Backend Engineer", "", ""),  # remote, whom it takes unsaid
        ("Anywhere in the World", "Backend Engineer", "", "worldwide"),
        ("Remote - US only", "Backend Engineer", "", "United States"),
        ("Remote", "Backend Engineer (US only)", "", "United States"),
        ("Remote", "Backend Engineer", "You must be based in Europe.", "Europe"),
        ("Time zone: CET (+/- 3 hours)", "Senior Backend Developer (Python)", "", "EMEA"),
        ("Remote, EMEA", "Account Executive", "", "EMEA"),
        ("", "Backend Engineer", "This is a fully remote role.", ""),
        # Issue 69: the title's last part says whom it takes where the location does not
        ("Anywhere in the World", "Java Engineer - Latin America", "", "LATAM"),
        ("Remote", "Support Lead \u2013 Remote, APAC", "", "APAC"),
        ("Remote", "Account Executive (DACH)", "", "DACH"),
        ("Remote, EMEA", "Account Executive (Spain)", "", "EMEA"),  # the location's own first
    ],
)
def test_a_remote_job_and_whom_it_takes(
    location: str, title: str, summary: str, open_to: str
) -> None:
    where = where_of(location, title, summary)
    assert where.remote and not where.at
    assert ", ".join(a.name for a in where.open_to) == open_to


def test_hybrid_and_on_site_are_not_remote() -> None:
    assert not where_of("Berlin (Hybrid)", "Engineer", "").remote
    assert not where_of("Berlin", "Engineer - on-site", "remote days are possible").remote


LISBON_REMOTE = ("Portugal", "remote")
DUSSELDORF = ("Düsseldorf", "Remote Deutschland")
AUSTIN = ("Austin, TX", "Remote (US)")
BANGKOK = ("กรุงเทพฯ", "ปริมณฑล")


@pytest.mark.parametrize(
    ("places", "location", "title", "kept"),
    [
        (LISBON_REMOTE, "Lisbon, Portugal", "Python Developer", True),  # on site, inside
        (LISBON_REMOTE, "Porto", "Python Developer", True),
        (LISBON_REMOTE, "Berlin, Germany", "Python Developer", False),
        (LISBON_REMOTE, "Remote - US only", "Python Developer", False),
        (LISBON_REMOTE, "Remote, EMEA", "Python Developer", True),  # a region that holds it
        (LISBON_REMOTE, "Anywhere in the World", "Python Developer", True),
        (LISBON_REMOTE, "Remote", "Python Developer", True),  # whom it takes unsaid: kept
        (LISBON_REMOTE, "", "Python Developer", True),  # no place: kept
        (LISBON_REMOTE, "Landry Office", "Python Developer", True),  # a place not read: kept
        (LISBON_REMOTE, "全职远程(电鸭·中文社区)", "Python Developer", True),  # remote, in Chinese
        # Issue 63: Indeed China's places are read, not kept for a chat in Bangkok
        (BANGKOK, "北京市", "IT Support", False),
        (BANGKOK, "上海市", "IT Support", False),
        (BANGKOK, "中国", "IT Support", False),
        (BANGKOK, "دبي, دبي الإمارات العربية المتحدة", "IT Support", False),
        (BANGKOK, "Shamli, Uttar Pradesh", "IT Support", False),  # GeoNames' Shāmli, India
        (BANGKOK, "เขตบางนา กรุงเทพมหานคร", "ไอทีซัพพอร์ต", True),
        (BANGKOK, "อ.ปากเกร็ด จ.นนทบุรี", "ไอทีซัพพอร์ต", True),
        (BANGKOK, "จ.ชลบุรี", "ไอทีซัพพอร์ต", False),
        (BANGKOK, "Thailand", "IT Support", True),  # somewhere in Thailand: may be Bangkok
        (BANGKOK, "Remote - US only", "IT Support", False),
        # Issue 63: a chat whose places do not say "remote" works on site
        (BANGKOK, "Anywhere in the World", "IT Support", False),
        (BANGKOK, "Remote", "IT Support", False),  # whom it takes unsaid: not asked for
        (BANGKOK, "Remote, Thailand", "IT Support", False),
        # Done from home in a city or province the chat names: a job there
        (BANGKOK, "Work From Home เขตสะพานสูง กรุงเทพมหานคร", "IT Support", True),
        (BANGKOK, "ทำงานที่บ้าน, อ.ปากเกร็ด จ.นนทบุรี", "IT Support", True),
        (BANGKOK, "Work From Home, Chiang Mai", "IT Support", False),
        (("Lisbon",), "Remote, Porto, Portugal", "Python Developer", False),
        (("Lisbon",), "Remote, Portugal", "Python Developer", False),
        (("กรุงเทพฯ", "remote"), "Remote, Thailand", "IT Support", True),
        (("remote",), "Berlin, Germany", "Python Developer", False),  # remote alone: not on site
        (("remote",), "Remote - US only", "Python Developer", True),
        (("Munich", "remote"), "Remote, Germany", "Security Engineer", True),
        (("Munich",), "Garching bei München", "Security Engineer", True),  # 13 km: a suburb
        # A chat's city reaches as far as a commute (25 km), a bigger city's its own radius
        (("Bielefeld",), "Verl, Germany", "Security Engineer", True),  # 20 km
        (("Bielefeld",), "Hamm, Germany", "Security Engineer", False),  # 60 km
        (("Lisbon",), "Sintra, Portugal", "Python Developer", True),  # 23 km
        (("Lisbon",), "Setúbal, Portugal", "Python Developer", False),  # 32 km
        (BANGKOK, "จ.พระนครศรีอยุธยา", "IT Support", False),  # 75 km
        # A province named as its capital is its capital's commute too (a new user's find):
        # Lamphun is 23 km from Chiang Mai, over the provinces' line; Lampang is 75 km
        (("Chiang Mai",), "Lamphun", "Logo Designer", True),
        (("เชียงใหม่",), "อ.เมืองลำพูน จ.ลำพูน", "Logo Designer", True),
        (("Chiang Mai",), "Lampang", "Logo Designer", False),
        (("Chiang Mai",), "อ.ฝาง จ.เชียงใหม่", "Logo Designer", True),  # the province, whole
        # A title that says where the job is done, over a board's site for another country
        (("Griekenland",), "Switzerland", "Dutch Speaking Support - Work In Athens, Greece", True),
        (("Zürich",), "Switzerland", "Dutch Speaking Support - Work In Athens, Greece", False),
        (("Lisboa",), "Austria", "German Speaking Agent - Relocate to Lisbon", True),
        (("Berlin",), "Berlin, Germany", "Engineer - relocation to Germany", True),
        # Issue 69: a title's last part says where when the location does not
        (("Kraków", "remote"), "Anywhere in the World", "Java Engineer - Latin America", False),
        (("Buenos Aires", "remote"), "Anywhere in the World", "Java Engineer - LATAM", True),
        (LISBON_REMOTE, "", "QA Tester (Spain)", False),  # an office in Spain
        (LISBON_REMOTE, "", "QA Tester (PT)", True),
        (LISBON_REMOTE, "Remote", "Security Engineer (GRC)", True),  # governance, not Greece
        (LISBON_REMOTE, "Fully remote", "Python Developer", True),  # not Fully, a Swiss town
        # Issue 69: a chat's place written as a listing's location: remote work open to it
        (DUSSELDORF, "Remote: Germany", "Account Manager", True),
        (DUSSELDORF, "Remote, Europe", "Account Manager", True),  # a region that holds it
        (DUSSELDORF, "Remote", "Account Manager", True),  # whom it takes unsaid: kept
        (DUSSELDORF, "Remote - US only", "Account Manager", False),
        (DUSSELDORF, "Berlin, Germany", "Account Manager", False),  # on site: Düsseldorf only
        (DUSSELDORF, "Düsseldorf, Germany", "Account Manager", True),
        (AUSTIN, "Austin, Texas", "Customer Success Manager", True),
        (AUSTIN, "Dallas, TX", "Customer Success Manager", False),
        (AUSTIN, "Remote - US only", "Customer Success Manager", True),
        (AUSTIN, "Remote, Germany", "Customer Success Manager", False),
        (("remote LATAM",), "Anywhere in the World", "Java Engineer - Latin America", True),
        (("remote LATAM",), "Remote - US only", "Java Engineer", False),
        (("remote LATAM",), "São Paulo, Brazil", "Java Engineer", False),  # on site
    ],
)
def test_a_listing_suits_a_chats_places_or_says_why_not(
    places: tuple[str, ...], location: str, title: str, kept: bool
) -> None:
    why = elsewhere(where_of(location, title, ""), places)
    assert (why == "") is kept, why
    if not kept:
        assert why.startswith("place read as ") and "this chat works in" in why


def test_the_filter_and_the_index_leave_out_a_listing_elsewhere_for_that_chat_only() -> None:
    berlin = Listing("a:1", "a", "Python Developer", "https://a.test/1", location="Berlin, Germany")
    lisbon = Listing("a:2", "a", "Python Developer", "https://a.test/2", location="Lisboa")
    nowhere = Listing("a:3", "a", "Python Developer", "https://a.test/3")
    verdict = judge(berlin, FilterConfig(include=("python",), places=LISBON_REMOTE))
    assert not verdict.matched
    assert (
        verdict.reason == "place read as Berlin, DE, Germany (this chat works in Portugal, remote)"
    )
    fanout = Fanout(
        [
            ("lisbon", FilterConfig(include=("python",), places=LISBON_REMOTE), {}),
            ("anywhere", FilterConfig(include=("python",)), {}),
            ("everything-berlin", FilterConfig(places=("Berlin",)), {}),
        ]
    )
    assert [name for name, _v in fanout.judge(berlin)] == ["anywhere", "everything-berlin"]
    assert [name for name, _v in fanout.judge(lisbon)] == ["lisbon", "anywhere"]
    assert [n for n, _v in fanout.judge(nowhere)] == ["lisbon", "anywhere", "everything-berlin"]


@pytest.mark.parametrize(
    ("said", "places"),
    [
        ("กรุงเทพ ปริมณฑล", ("กรุงเทพ", "ปริมณฑล")),
        ("เขตบางนา", ("บางนา",)),
        ("Portugal, remote", ("Portugal", "remote")),
        ("Samut Prakan remote", ("Samut Prakan", "remote")),
        ("EMEA", ("EMEA",)),
        ("远程", ("remote",)),
        ("北京, 远程", ("北京", "remote")),
        ("リモート", ("remote",)),
        ("재택", ("remote",)),
        ("Homeoffice, Deutschland", ("remote", "Deutschland")),
        ("télétravail", ("remote",)),
        ("ทั้งหมด", ()),
        ("all", ()),
        ("Qwertyville", None),
        # Issue 69: written as a listing's location is, read as it is
        ("Austin, TX, Remote (US)", ("Austin, TX", "Remote (US)")),
        ("remote LATAM; 全职远程", ("remote LATAM", "全职远程")),
        ("Remote Qwertyville", None),
        ("Bangkok, Qwertyville", None),
        (", ".join(["Bangkok"] * 11), ("Bangkok",)),
        (", ".join(f"{c}" for c in ["Portugal", "Spain", "France", "Italy", "Poland", "Germany",
                                      "Austria", "Belgium", "Greece", "Sweden", "Norway"]), None),
    ],
)  # fmt: skip
def test_a_chat_says_its_places_in_thai_or_english(
    said: str, places: tuple[str, ...] | None
) -> None:
    assert read_chat_places(said) == places


def test_places_in_the_filter_and_a_chats_are_checked_at_load() -> None:
    source = {"name": "a", "url": "https://a.test/", "item": "li", "title": "a", "id": "@id"}
    config = parse_config(
        {
            "sources": [source],
            "filter": {"include": ["python"], "places": ["Portugal", "remote"]},
            "chats": [{"name": "team", "to": "telegram:5", "places": ["กรุงเทพฯ", "ปริมณฑล"]}],
        }
    )
    assert config.filter.places == ("Portugal", "remote")
    assert config.chats[0].filter_for(config.filter).places == ("กรุงเทพฯ", "ปริมณฑล")
    with pytest.raises(ConfigError, match="'Qwertyville', a place hunter does not know"):
        parse_config({"sources": [source], "filter": {"places": ["Qwertyville"]}})
    # Issue 69: written as a listing's location is; a word no place is refused, not passed over
    own = ["Remote (US)", "Austin, TX", "100% remote", "remote within Austria", "全职远程"]
    config = parse_config({"sources": [source], "filter": {"places": own}})
    assert config.filter.places == tuple(own)
    # A near miss of a known place names it (a new user's find: "Chaing Mai" was refused bare)
    with pytest.raises(ConfigError, match='does not know \\(did you mean "Chiang Mai"\\?\\)'):
        parse_config({"sources": [source], "filter": {"places": ["Chaing Mai"]}})
    # ... in Thai too, and Thai's abbreviation mark typed apart is the name (a new user's find)
    with pytest.raises(ConfigError, match='does not know \\(did you mean "ปริมณฑล"\\?\\)'):
        parse_config({"sources": [source], "filter": {"places": ["ปริมนฑล"]}})
    assert unknown_places(("กรุงเทพ ฯ",)) == []
    # A chat's refusal names the word it does not know, not the whole message
    assert unknown_said("กรงเทพ ปริมณฑล") == "กรงเทพ"
    assert unknown_said("Chiang Mai xyz") == "xyz"
    with pytest.raises(ConfigError, match="'Remote Qwertyville', a place hunter does not know"):
        parse_config({"sources": [source], "filter": {"places": ["Remote Qwertyville"]}})
    with pytest.raises(ConfigError, match="must be a list of place names"):
        parse_config({"sources": [source], "filter": {"places": "Portugal"}})


def test_a_thai_listing_is_thai_and_in_bangkok() -> None:
    """Must-show 3 of issue 54, as a JobThai card reads."""
    title, summary = "เจ้าหน้าที่ไอทีซัพพอร์ต", "ดูแลคอมพิวเตอร์และระบบเครือข่ายของบริษัท"
    assert language_of(title, summary) == "th"
    assert area("กรุงเทพฯ").holds(where_of("เขตบางนา กรุงเทพมหานคร", title, summary).at[0])
    assert area("กรุงเทพฯ").holds(where_of("BTS อโศก", title, summary).at[0])
    assert area("ปริมณฑล").holds(where_of("Nonthaburi", title, summary).at[0])


@pytest.mark.parametrize(
    "word",
    [
        "远程",
        "リモート",
        "원격",
        "Homeoffice",
        "télétravail",
        "remoto",
        "zdalnie",
        "praca zdalna",
        "thuiswerken",
        "удаленно",
        "làm việc từ xa",
        "uzaktan",
    ],
)
def test_a_chats_word_for_remote_is_a_listings_word_for_it(word: str) -> None:
    """A chat whose places say remote in its own language gets a listing that says so in
    that language, and not one on site."""
    source = {"name": "a", "url": "https://a.test/", "item": "li", "title": "a", "id": "@id"}
    config = parse_config(
        {"sources": [source], "filter": {"include": ["python"], "places": [word]}}
    )
    assert config.filter.places == (word,)
    assert elsewhere(where_of(word, "Python developer", ""), (word,)) == ""
    assert elsewhere(where_of("Berlin", "Python developer", ""), (word,)) != ""


@pytest.mark.parametrize(
    ("place", "location", "kept"),
    [
        ("Suiza", "Zürich, Switzerland", True),  # Spanish
        ("Suiza", "Berlin, Germany", False),
        ("泰国", "Bangkok, Thailand", True),  # Chinese
        ("Niemcy", "München", True),  # Polish
        ("Allemagne", "Lisbon, Portugal", False),  # French
        ("Tajlandia", "เขตบางนา กรุงเทพมหานคร", True),
        ("DACH", "Wien, Austria", True),
        ("DACH", "Paris, France", False),
    ],
)
def test_a_chats_place_in_its_own_language_is_the_place(
    place: str, location: str, kept: bool
) -> None:
    """A country's or region's name as a chat writes it in its language (Unicode CLDR's names,
    hunter/rules/country_names.json) is read in its places as the country is."""
    assert unknown_places((place,)) == []
    assert read_chat_places(place) == (place,)
    why = elsewhere(where_of(location, "Python Developer", ""), (place,))
    assert (why == "") is kept, why


@pytest.mark.parametrize(
    ("place", "location"),
    [
        ("Đà Nẵng", "Da Nang, Vietnam"),  # GeoNames has it only as Latin letters
        ("Hà Nội", "Hanoi"),
        ("Thành phố Hồ Chí Minh", "Ho Chi Minh City, Vietnam"),
    ],
)
def test_a_city_written_with_its_letters_marks_is_the_city(place: str, location: str) -> None:
    """Vietnamese writes its cities with marks NFKD keeps whole ("Đ"): a chat of "Đà Nẵng"
    was refused as an unknown place."""
    assert unknown_places((place,)) == []
    assert elsewhere(where_of(location, "Video Editor", ""), (place,)) == ""
    assert elsewhere(where_of("Berlin", "Video Editor", ""), (place,)) != ""


def test_a_countrys_name_in_another_language_is_not_a_city_without_its_marks() -> None:
    # Portuguese "França" is France; "Franca", its letters without the mark, a city of Brazil
    assert elsewhere(where_of("Paris, France", "Video Editor", ""), ("França",)) == ""


def test_a_region_in_its_own_language_takes_remote_work_open_to_it() -> None:
    assert elsewhere(where_of("Remote, Europe", "Python Developer", ""), ("欧洲", "远程")) == ""
    far = elsewhere(where_of("Remote - US only", "Python Developer", ""), ("欧洲", "远程"))
    assert far != ""


def test_the_names_file_is_what_cldr_says() -> None:
    """hunter/rules/country_names.json is tests/support/country_names.py's, from Babel's CLDR
    (a development dependency): after Babel is upgraded, that script --write."""
    from tests.support import country_names

    assert country_names.FILE.read_text(encoding="utf-8") == country_names.document()


def test_a_remote_boards_place_is_whom_it_takes() -> None:
    """Jobicy's jobs are all remote; its "Europe, Netherlands" is whom a job takes (no office
    there). Read through the preset, it suits a chat in Warsaw that works remote, and its
    "Thailand" does not suit a chat that works on site in Bangkok (before, "Europe,
    Netherlands" was an office in the Netherlands, and "Thailand" one in Bangkok's country)."""
    import json

    from hunter.sources.reader import parse
    from tests.unit.sources.test_posted import NOW

    source = parse_config({"sources": [{"preset": "jobicy"}]}).sources[0]
    jobs = [
        {"id": n, "url": f"https://jobicy.com/j/{n}", "jobTitle": "DevOps Engineer", "jobGeo": geo}
        for n, geo in ((1, "Europe,  Netherlands"), (2, "Thailand"))
    ]
    europe, thailand = parse(source, json.dumps({"jobs": jobs}), source.url, NOW).listings
    warsaw = FilterConfig(include=("devops",), places=("Warszawa", "Polska", "remote"))
    bangkok = FilterConfig(include=("devops",), places=("กรุงเทพฯ",))
    assert judge(europe, warsaw).matched
    assert not judge(thailand, warsaw).matched
    assert not judge(thailand, bangkok).matched
    assert "not remote" in judge(thailand, bangkok).reason
    with pytest.raises(ConfigError, match="remote must be true or false, got 'yes'"):
        parse_config({"sources": [{"preset": "jobicy", "remote": "yes"}]})


def test_a_state_or_province_is_a_place_that_holds_its_cities() -> None:
    """A chat in Linz that would work anywhere in Bavaria types "Oberösterreich, Bayern" (before,
    both were unknown and refused); a listing in Nürnberg or München suits it, one in
    Tuttlingen (Baden-Württemberg) does not. Adzuna's "Kraków, małopolskie" is in Małopolska."""
    places = read_chat_places("Oberösterreich, Bayern")
    assert places == ("Oberösterreich", "Bayern")
    for town in ("München, Germany", "Nürnberg, Germany", "Wels, Austria"):
        assert elsewhere(where_of(town, "Techniker", ""), places) == "", town
    assert elsewhere(where_of("Tuttlingen, Germany", "Techniker", ""), places)
    assert elsewhere(where_of("Kraków, małopolskie", "Dev", ""), ("Małopolska",)) == ""
    assert elsewhere(where_of("Gdańsk, pomorskie", "Dev", ""), ("Małopolska",))


def test_every_division_is_found_by_its_seat() -> None:
    """divisions.py names each state by the city that is its seat; each seat is a city of its
    country in GeoNames, and the division holds another city known to lie in it."""
    from hunter.rules.divisions import DIVISIONS

    for country, divisions in DIVISIONS.items():
        for _seat, names in divisions:
            for name in names.split("/"):
                [division] = gazetteer().areas(name)[:1]
                assert division.point is None and division.countries == {country}, name
    within = {"Bayern": "Augsburg", "Steiermark": "Leoben", "Noord-Holland": "Amsterdam",
              "Catalunya": "Girona", "Lombardia": "Bergamo", "Scotland": "Glasgow",
              "Maharashtra": "Pune", "Ontario": "Ottawa", "Metro Manila": "Quezon City",
              "广东": "Shenzhen", "śląskie": "Gliwice"}  # fmt: skip
    for division, city in within.items():
        assert area(division).holds(area(city)), (division, city)


def test_a_region_of_provinces_in_a_persons_words_holds_them_all() -> None:
    """A new user's find: "อีสาน" (Thailand's Northeast) and "อุดร" (Udon Thani, as people
    say it) were refused. Each region's every province is found; a listing there suits a chat
    of the region, one elsewhere in Thailand does not."""
    from hunter.rules.divisions import REGIONS
    from hunter.rules.gazetteer import province_of

    for country, regions in REGIONS.items():
        for names, provinces in regions:
            assert all(province_of(p, country, gazetteer().areas) for p in provinces), names
            [region] = gazetteer().areas(names.split("/")[0])[:1]
            assert len(region.provinces) == len(provinces), names
    assert not unknown_places(("อีสาน", "ภาคอีสาน", "อุดร", "ภาคเหนือ", "ภาคใต้", "Isan"))
    isan = ("อีสาน",)
    for there in ("อ.เมืองขอนแก่น จ.ขอนแก่น", "Udon Thani", "Buri Ram, Thailand"):
        assert elsewhere(where_of(there, "IT Support", ""), isan) == "", there
    for not_there in ("Chiang Mai", "เขตบางนา กรุงเทพมหานคร", "อ.ศรีราชา จ.ชลบุรี"):
        assert elsewhere(where_of(not_there, "IT Support", ""), isan), not_there
    assert elsewhere(where_of("Udon Thani", "IT Support", ""), ("อุดร",)) == ""


def test_a_division_whose_seat_is_not_found_is_left_out_not_guessed() -> None:
    """A seat GeoNames does not name (a data set that changed) leaves its division unknown, as
    it was before divisions.py: named at load as a place hunter does not know, never another
    country's area."""
    from hunter.rules.gazetteer import named_divisions

    assert list(named_divisions(lambda name: ())) == []
    elsewhere_city = (area("Munich"),)  # a city, but not in the seat's country
    found = dict(named_divisions(lambda name: elsewhere_city if name == "Linz" else ()))
    assert "Oberösterreich" not in found


@pytest.mark.parametrize(
    ("name", "read_as"),
    [
        ("Valencia (ES)", ["Valencia, ES"]),
        ("Valencia, Spain", ["Valencia, ES"]),
        ("Georgia (US)", ["Georgia"]),
        ("Córdoba (Argentina)", ["Córdoba, AR"]),
        ("Valencia (Thailand)", []),  # no Valencia there: unknown, and said so at load
    ],
)
def test_a_place_of_several_countries_is_told_apart_by_its_country(
    name: str, read_as: list[str]
) -> None:
    assert [a.name for a in chat_place(name)] == read_as


def test_a_place_as_much_another_countrys_says_which_one_it_is_read_as() -> None:
    """A new user's find: "Valencia" was Venezuela's, silently, for a chat in Spain."""
    assert ambiguous("Valencia") == (
        "“Valencia” is read as Valencia, VE, the largest so named; for Valencia, ES, write "
        "“Valencia (ES)”"
    )
    assert ambiguous("Georgia").endswith("for Georgia (US), write “Georgia (US)”")
    for sure in ("Paris", "Lisbon", "Bangkok", "Portugal", "remote", "Valencia (ES)", "กรุงเทพ"):
        assert ambiguous(sure) == "", sure  # a town of Texas is no rival of Paris
    spain = elsewhere(where_of("Valencia, Spain", "Python Developer", ""), ("Valencia (ES)",))
    venezuela = elsewhere(
        where_of("Valencia, Venezuela", "Python Developer", ""), ("Valencia (ES)",)
    )
    assert spain == "" and venezuela.startswith("place read as Valencia, VE")
