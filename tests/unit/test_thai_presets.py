"""The JobThai and JobsDB presets against stand-ins that answer as the real sites are known to
(tests/support/thai_boards.py): the first read primes silently, a new post is alerted once
with a link a person can open and its pay as the site writes it, `search` reaches the site's
own search, and the sites' documented refusals are failed reads with a reason, never "no jobs".
`url` points a preset at the stand-in, keeping everything else of it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.config import parse_config
from hunter.errors import ConfigError
from hunter.service import Hunter
from hunter.sources.reader import read_sources
from hunter.store.sqlite import SQLiteStore
from tests.support.scripted import Clock, ScriptedSender
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


def pushes_after_two_polls(source: dict[str, Any], store: SQLiteStore, add: Any) -> list[Any]:
    config = parse_config({"sources": [source], "filter": {"include": ["python"]}})
    clock, line = Clock(T0), ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()
    assert line.pushes == []  # primed silently
    add()
    clock.advance(3 * 3600)  # past JobsDB's own pace of 2 hours
    hunter.poll()
    clock.advance(3 * 3600)
    hunter.poll()  # the same page again: nothing twice
    return line.pushes


def test_jobthai_primes_then_alerts_a_new_post_once_with_its_page_and_pay(
    boards: ThaiBoards, store: SQLiteStore
) -> None:
    boards.jobthai = [jobthai(1, "Python Developer")]
    source = {"preset": "jobthai", "url": f"{boards.url}/v1/graphql", "search": "python"}
    pushes = pushes_after_two_polls(
        source,
        store,
        lambda: boards.jobthai.insert(0, jobthai(2, "Senior Python", "25,000 - 35,000")),
    )
    [(_key, messages)] = pushes
    card = json.dumps(messages, ensure_ascii=False)
    assert "Senior Python" in card and "https://www.jobthai.com/th/job/2" in card
    assert "25,000" in card and "35,000" in card
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
    )
    [(_key, messages)] = pushes
    card = json.dumps(messages, ensure_ascii=False)
    assert "Python Dev Lead" in card and "https://th.jobsdb.com/job/2" in card
    assert "50,000" in card
    assert {q["keywords"] for _b, q in boards.asked} == {"python dev"}
    assert len(boards.asked) == 3  # one a poll: they were 3 h apart, past its pace of 2 h


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


def test_search_goes_with_a_preset_whose_site_searches() -> None:
    with pytest.raises(ConfigError, match="has no search of its site"):
        parse_config({"sources": [{"preset": "remoteok", "search": "python"}]})
    with pytest.raises(ConfigError, match="search goes with a preset"):
        parse_config(
            {"sources": [{"name": "f", "kind": "rss", "url": "https://x.test/", "search": "x"}]}
        )
    [source] = parse_config({"sources": [{"preset": "jobsdb", "search": "data & ai"}]}).sources
    assert "keywords=data+%26+ai" in source.url and source.every_seconds == 2 * 3600
