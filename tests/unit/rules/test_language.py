"""The languages a chat reads (issue 54, its language layer): a listing in none of them is left
out, with the reason /why and `hunter check` give; one whose language cannot be told is kept
(unknown is never "no"); Thai is Thai; the index of 10,000 chats judges as judge() does."""

from __future__ import annotations

import pytest

from hunter.errors import ConfigError
from hunter.rules.fanout import Fanout
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.language import language_of
from hunter.rules.listing import Listing
from hunter.settings.config import parse_config

GERMAN = Listing(
    "a:1",
    "a",
    "Python Entwickler (m/w/d)",
    "https://a.test/1",
    summary="Wir suchen einen erfahrenen Python Entwickler für unser Team in Berlin. Sie "
    "arbeiten an unseren Diensten und betreuen zwei Kollegen.",
)
ENGLISH = Listing(
    "a:2",
    "a",
    "Senior Python Developer",
    "https://a.test/2",
    summary="We build payment tools for small shops. You will run our Python services on AWS "
    "and review the code of two junior engineers.",
)
THAI = Listing(
    "a:3",
    "a",
    "รับสมัคร Python Developer",
    "https://a.test/3",
    summary="บริษัทรับสมัครนักพัฒนา Python ทำงานที่กรุงเทพ",
)
BARE = Listing("a:4", "a", "Python", "https://a.test/4")


def test_a_listings_language_and_unknown_when_it_cannot_be_told() -> None:
    assert language_of(GERMAN.title, GERMAN.summary) == "de"
    assert language_of(ENGLISH.title, ENGLISH.summary) == "en"
    assert language_of(THAI.title, THAI.summary) == "th"
    assert language_of(BARE.title, BARE.summary) == ""  # a bare title says nothing


def test_a_listing_in_none_of_a_chats_languages_is_left_out_and_says_why() -> None:
    reads = FilterConfig(include=("python",), languages=("en", "th"))
    verdict = judge(GERMAN, reads)
    assert not verdict.matched and verdict.reason == "written in de (this chat reads en, th)"
    assert judge(ENGLISH, reads).matched and judge(THAI, reads).matched
    assert judge(BARE, reads).matched  # unknown is never "no"
    assert judge(GERMAN, FilterConfig(include=("python",))).matched  # no languages: all


def test_the_index_leaves_out_what_a_chat_cannot_read_for_that_chat_only() -> None:
    fanout = Fanout(
        [
            ("reads-en", FilterConfig(include=("python",), languages=("en",)), {}),
            ("reads-all", FilterConfig(include=("python",)), {}),
            ("everything-de", FilterConfig(languages=("de",)), {}),
        ]
    )
    assert [name for name, _v in fanout.judge(GERMAN)] == ["reads-all", "everything-de"]
    assert [name for name, _v in fanout.judge(ENGLISH)] == ["reads-en", "reads-all"]
    assert [name for name, _v in fanout.judge(BARE)] == ["reads-en", "reads-all", "everything-de"]


def test_languages_in_the_filter_and_a_chats_are_checked_at_load() -> None:
    source = {"name": "a", "url": "https://a.test/", "item": "li", "title": "a", "id": "@id"}
    config = parse_config(
        {
            "sources": [source],
            "filter": {"include": ["python"], "languages": ["EN", "th", "en"]},
            "chats": [{"name": "team", "to": "telegram:5", "languages": ["pt"]}],
        }
    )
    assert config.filter.languages == ("en", "th")
    assert config.chats[0].filter_for(config.filter).languages == ("pt",)
    for wrong in (["english"], "en", ["xx"], [3]):
        with pytest.raises(ConfigError, match="two-letter language codes"):
            parse_config({"sources": [source], "filter": {"languages": wrong}})
