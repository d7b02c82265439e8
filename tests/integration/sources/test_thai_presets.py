"""The JobThai and JobsDB presets against stand-ins that answer as the real sites are known to
(tests/support/thai_boards.py): the first read primes silently, a new post is alerted once
with a link a person can open and its pay as the site writes it, `search` reaches the site's
own search, and the sites' documented refusals are failed reads with a reason, never "no jobs".
`url` points a preset at the stand-in, keeping everything else of it."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.errors import ConfigError
from hunter.settings.config import parse_config
from hunter.sources.reader import read_sources
from hunter.store.sqlite import SQLiteStore
from tests.support.preset_polls import card_of, pushes_after_two_polls
from tests.support.scripted import Clock
from tests.support.thai_boards import ThaiBoards

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
JOBSDB_PATH = (
    "/api/jobsearch/v5/search?siteKey=TH-Main&sourcesystem=houston&locale=en-TH"
    "&keywords={search}&page={page}&pageSize=30&sortmode=ListedDate"
)


@pytest.fixture
def boards() -> Iterator[ThaiBoards]:
    stand_in = ThaiBoards()
    yield stand_in
    stand_in.close()


def jobthai(n: int, title: str, salary: str = "ตามตกลง") -> dict[str, Any]:
    return {
        "id": n,
        "jobTitle": title,
        "companyName": "บริษัท ตัวอย่าง",
        "salary": salary,
        "province": {"name": "กรุงเทพมหานคร"},
        "jobType": {"name": "งานประจำ"},
    }


def jobsdb(n: int, title: str, salary: str = "") -> dict[str, Any]:
    return {
        "id": str(n),
        "title": title,
        "teaser": "Great team",
        "salaryLabel": salary,
        "workTypes": ["Full time"],
        "classifications": [
            {"classification": {"description": "Information & Communication Technology"}}
        ],
    }


def test_jobthai_primes_then_alerts_a_new_post_once_with_its_page_and_pay(
    boards: ThaiBoards, store: SQLiteStore
) -> None:
    boards.jobthai = [jobthai(1, "Python Developer")]
    source = {"preset": "jobthai", "url": f"{boards.url}/v1/graphql", "search": "python"}
    pushes = pushes_after_two_polls(
        source,
        store,
        lambda: boards.jobthai.insert(0, jobthai(2, "Senior Python", "25,000 - 35,000")),
        Clock(T0),
    )
    card = card_of(pushes)
    assert "Senior Python" in card and "https://www.jobthai.com/th/job/2" in card
    assert "฿25,000\u201335,000 ต่อเดือน · per month" in card
    [(_board, asked)] = boards.asked[-1:]
    assert asked == {"keyword": "python", "page": 1, "size": 100, "l": "th"}


def test_jobsdb_primes_then_alerts_a_new_post_once_with_its_page_and_pay(
    boards: ThaiBoards, store: SQLiteStore
) -> None:
    boards.jobsdb = [jobsdb(1, "Python Dev Engineer")]
    source = {"preset": "jobsdb", "url": boards.url + JOBSDB_PATH, "search": "python dev"}
    pushes = pushes_after_two_polls(
        source,
        store,
        lambda: boards.jobsdb.insert(
            0, jobsdb(2, "Python Dev Lead", "฿50,000 – ฿75,000 per month")
        ),
        Clock(T0),
    )
    card = card_of(pushes)
    assert "Python Dev Lead" in card and "https://th.jobsdb.com/job/2" in card
    assert "฿50,000\u201375,000 ต่อเดือน · per month" in card
    assert {q["keywords"] for _b, q in boards.asked} == {"python dev"}
    assert len(boards.asked) == 3  # one a poll: they were 7 h apart, past its pace of 2 h


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        (JOBSDB_PATH.replace("sourcesystem=houston&", ""), "HTTP 400"),  # a required parameter
        (JOBSDB_PATH.replace("pageSize=30", "pageSize=200"), "not JSON"),  # HTML, not JSON
    ],
)
def test_jobsdbs_refusals_are_failed_reads(boards: ThaiBoards, path: str, reason: str) -> None:
    config = parse_config({"sources": [{"preset": "jobsdb", "url": boards.url + path}]})
    [read] = read_sources(list(config.sources), {}, 10, T0)
    assert read.error is not None and reason in read.error and not read.listings


def test_jobthais_refusal_of_a_query_is_a_failed_read_with_graphqls_reason(
    boards: ThaiBoards,
) -> None:
    """A body written over the preset's with a filter field JobThai does not have."""
    [preset] = parse_config({"sources": [{"preset": "jobthai"}]}).sources
    body = copy.deepcopy(preset.body)
    body["variables"]["filter"]["salary_min"] = 30000  # its field is `salarymin`
    source = {"preset": "jobthai", "url": f"{boards.url}/v1/graphql", "body": body}
    [read] = read_sources(list(parse_config({"sources": [source]}).sources), {}, 10, T0)
    assert read.error is not None and not read.listings
    assert "HTTP 400" in read.error and 'Field "salary_min" is not defined' in read.error


def test_search_goes_with_a_preset_whose_site_searches() -> None:
    with pytest.raises(ConfigError, match="has no search of its site"):
        parse_config({"sources": [{"preset": "remoteok", "search": "python"}]})
    with pytest.raises(ConfigError, match="search goes with a preset"):
        parse_config(
            {"sources": [{"name": "f", "kind": "rss", "url": "https://x.test/", "search": "x"}]}
        )
    [source] = parse_config({"sources": [{"preset": "jobsdb", "search": "data & ai"}]}).sources
    assert "keywords=data+%26+ai" in source.url and source.every_seconds == 2 * 3600
    # A url of one's own without {search}: the error says that, not that the site has none.
    for preset in ("freelancer", "jobsdb"):
        own = {"preset": preset, "url": "https://mirror.test/api?q=python", "search": "python"}
        with pytest.raises(ConfigError, match=r"the url you gave preset .* has no \{search\}"):
            parse_config({"sources": [own]})
