"""Who posts a listing and where (issue 43, its first part): `company` and `location` on json
and html sources (a path, a selector), read by every preset whose board states them, as its
answers write them (shared/sources/README.md; the recorded answers of
tests/integration/sources/), and shown beside the title on every channel's card. A board of
remote jobs (`remote = true`, its presets') names whom a job takes: "Remote: Asia"."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hunter.rules.listing import Listing
from hunter.settings.config import parse_config
from hunter.sources.reader import parse
from hunter.words.details import details
from tests.unit.sources.test_posted import NOW

REAL = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "real"


def preset(name: str, **more: Any) -> Any:
    return parse_config({"sources": [{"preset": name, **more}]}).sources[0]


# (preset, its answer holding one listing, the company and the place it states)
BOARDS = [
    ("remoteok", [{"legal": "notice"}, {"id": "1", "position": "Dev", "url": "https://x.test/1",
                                        "company": "Aragon", "location": "Remote"}],
     "Aragon", "Remote"),
    ("jobthai", {"data": {"searchJobs": {"data": {"data": [
        {"id": 5, "jobTitle": "Dev", "companyName": "บริษัท เอ จำกัด",
         "province": {"name": "กรุงเทพมหานคร"}}]}}}},
     "บริษัท เอ จำกัด", "กรุงเทพมหานคร"),
    ("jobsdb", {"data": [{"id": "7", "title": "Dev", "companyName": "Agoda",
                          "locations": [{"label": "Bangkok"}]}]},
     "Agoda", "Bangkok"),
    ("himalayas", {"jobs": [{"guid": "https://himalayas.app/j/1", "title": "Dev",
                             "companyName": "Acme", "locationRestrictions": ["Thailand"]}]},
     "Acme", "Remote: Thailand"),
    ("remotive", {"jobs": [{"id": 3, "url": "https://remotive.com/j/3", "title": "Dev",
                            "company_name": "Acme", "candidate_required_location": "Asia"}]},
     "Acme", "Remote: Asia"),
    ("jobicy", {"jobs": [{"id": 4, "url": "https://jobicy.com/j/4", "jobTitle": "Dev",
                          "companyName": "Acme", "jobGeo": "APAC"}]},
     "Acme", "Remote: APAC"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "answer", "company", "place"), BOARDS, ids=[b[0] for b in BOARDS])
def test_each_preset_reads_who_posts_and_where(
    name: str, answer: Any, company: str, place: str
) -> None:
    source = preset(name)
    [listing] = parse(source, json.dumps(answer), source.url, NOW).listings
    assert (listing.company, listing.location) == (company, place)
    card = f"{details(listing)}\n{listing.summary}"  # as every channel lays out a card
    assert card.count(company) == 1 and card.count(place) == 1  # each once


def test_a_board_that_states_neither_shows_neither() -> None:
    source = preset("jobsdb")
    answer = {"data": [{"id": "7", "title": "Dev"}]}
    [listing] = parse(source, json.dumps(answer), source.url, NOW).listings
    assert (listing.company, listing.location, details(listing)) == ("", "", "")
    # A remote board's job that names no one it takes is remote all the same.
    source = preset("remotive")
    answer = {"jobs": [{"id": 3, "url": "https://remotive.com/j/3", "title": "Dev"}]}
    [listing] = parse(source, json.dumps(answer), source.url, NOW).listings
    assert (listing.company, listing.location, details(listing)) == ("", "Remote", "Remote")


def test_a_remote_boards_location_is_whom_it_takes_and_says_remote_once() -> None:
    """`remote = true` on any kind: what a job's location names is whom it takes; a location
    that says remote already is kept as written. We Work Remotely's <region> is read."""
    feed = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>'
        "<item><title>Acme: Dev</title><guid>1</guid><link>https://x.test/1</link>"
        "<region>USA Only</region></item>"
        "<item><title>Acme: Ops</title><guid>2</guid><link>https://x.test/2</link>"
        "<region>Anywhere in the World</region></item></channel></rss>"
    )
    source = preset("weworkremotely")
    usa, anywhere = parse(source, feed, source.url, NOW).listings
    assert (usa.location, anywhere.location) == ("Remote: USA Only", "Anywhere in the World")
    page = '<ul><li data-id="1"><h3>Dev</h3><i class=at>Europe</i></li>'
    fields = {"name": "b", "kind": "html", "url": "https://b.test/", "item": "li",
              "id": "@data-id", "title": "h3", "location": ".at"}  # fmt: skip
    for remote, shown in ((True, "Remote: Europe"), (False, "Europe")):
        source = parse_config({"sources": [{**fields, "remote": remote}]}).sources[0]
        [listing] = parse(source, page, source.url, NOW).listings
        assert listing.location == shown


def test_we_work_remotely_titles_name_their_company() -> None:
    source = preset("weworkremotely")
    feed = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>'
        "<item><title>Acme Corp: Senior Python Developer</title><guid>1</guid>"
        "<link>https://x.test/1</link></item>"
        "<item><title>Remote: the future of work</title><guid>2</guid>"
        "<link>https://x.test/2</link></item>"
        "<item><title>No company here</title><guid>3</guid><link>https://x.test/3</link></item>"
        "</channel></rss>"
    )
    first, second, third = parse(source, feed, source.url, NOW).listings
    assert (first.title, first.company) == ("Senior Python Developer", "Acme Corp")
    assert (second.title, second.company) == ("the future of work", "Remote")
    assert (third.title, third.company) == ("No company here", "")


def test_an_html_source_names_them_by_selector() -> None:
    source = parse_config(
        {"sources": [{"name": "b", "kind": "html", "url": "https://b.test/", "item": "li",
                      "id": "@data-id", "title": "h3", "company": ".co", "location": ".at"}]}
    ).sources[0]  # fmt: skip
    page = '<ul><li data-id="1"><h3>Dev</h3><span class=co>Acme</span><i class=at>BKK</i></li>'
    [listing] = parse(source, page, source.url, NOW).listings
    assert (listing.company, listing.location) == ("Acme", "BKK")


def test_they_are_kept_with_the_listing() -> None:
    """A retry days later renders the card from what the store kept."""
    listing = Listing("a:1", "a", "Dev", "https://x.test/1", company="Acme", location="Asia")
    kept = Listing.from_payload("a:1", json.loads(json.dumps(listing.payload())))
    assert (kept.company, kept.location) == ("Acme", "Asia")
    older = {k: v for k, v in listing.payload().items() if k not in ("company", "location")}
    assert Listing.from_payload("a:1", older).company == ""  # kept before the fields existed


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/fixtures/real is not here (a clone)")
def test_remoteoks_real_answer_names_every_company() -> None:
    source = preset("remoteok")
    text = (REAL / "remoteok-api.json").read_text(encoding="utf-8")
    listings = parse(source, text, source.url, NOW).listings
    assert listings and all(listing.company for listing in listings)
    assert any(listing.location for listing in listings)


def test_a_summary_naming_its_employer_past_what_a_card_shows_keeps_who_posts_it() -> None:
    # Issue 62, low 12: We Work Remotely's "Mathmo: Maths Coach", its text naming Mathmo
    # further on, arrived as "Maths Coach" with no employer on the card.
    text = "We are looking for a maths coach to tutor students online. " * 5 + "About Mathmo."
    listing = Listing("w:1", "wwr", "Maths Coach", "https://x.test/1", None, text)
    listing = replace(listing, company="Mathmo", location="Anywhere")
    assert details(listing) == "Mathmo · Anywhere"
    early = replace(listing, summary="Mathmo is hiring a maths coach. " + text)
    assert details(early) == "Anywhere"  # said at the card's start: said once
