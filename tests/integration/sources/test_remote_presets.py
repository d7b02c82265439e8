"""The Freelancer.com, Himalayas, Remotive and Jobicy presets against stand-ins that answer as
the real sites are known to (tests/support/remote_boards.py): the first read primes silently,
a new post is alerted once with a link a person can open, its pay in its own currency and
period, and the site's competition or engagement where it has them; `search` reaches the site's
own search; the sites' documented refusals are failed reads with a reason, never "no jobs".
`url` points a preset at the stand-in, keeping everything else of it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.settings.config import parse_config
from hunter.sources.reader import read_sources
from hunter.store.sqlite import SQLiteStore
from tests.support.preset_polls import card_of, pushes_after_two_polls
from tests.support.remote_boards import RemoteBoards
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
FREELANCER = (
    "/api/projects/0.1/projects/active/?query={search}&limit=50"
    "&sort_field=time_submitted&reverse_sort=true&job_details=true"
)


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def boards(clock: Clock) -> Iterator[RemoteBoards]:
    stand_in = RemoteBoards(clock=clock)
    yield stand_in
    stand_in.close()


def slug(title: str) -> str:
    return title.lower().replace(" ", "-")


def project(n: int, title: str, **more: Any) -> dict[str, Any]:
    """A Freelancer project with the fields the SDK documents."""
    return {
        "id": n,
        "title": title,
        "seo_url": f"python/{slug(title)}-{n}",
        "preview_description": "Need a script",
        "budget": {"minimum": 30, "maximum": 250},
        "currency": {"code": "USD", "sign": "$"},
        "type": "fixed",
        "time_submitted": 1_762_160_000 + n,
        "bid_stats": {"bid_count": 0, "bid_avg": 0},
        "jobs": [{"id": 13, "name": "Python"}],
        **more,
    }


def himalayas_job(n: int, title: str, **more: Any) -> dict[str, Any]:
    return {
        "guid": f"https://himalayas.app/companies/acme/jobs/{slug(title)}",
        "title": title,
        "companyName": "Acme",
        "excerpt": "Remote across Asia",
        "minSalary": None,
        "maxSalary": None,
        "currency": "USD",
        "employmentType": "Contractor",
        "categories": ["Software Engineering", "Python"],
        "pubDate": 1_762_160_000_000 + n,
        **more,
    }


def remotive_job(n: int, title: str, salary: str = "") -> dict[str, Any]:
    return {
        "id": n,
        "url": f"https://remotive.com/remote-jobs/software-dev/{slug(title)}-{n}",
        "title": title,
        "company_name": "Acme",
        "category": "Software Development",
        "job_type": "contract",
        "publication_date": "2026-11-03T08:00:00",
        "candidate_required_location": "Asia",
        "salary": salary,
        "description": "<p>Python work</p>",
    }


def jobicy_job(n: int, title: str, **more: Any) -> dict[str, Any]:
    return {
        "id": n,
        "url": f"https://jobicy.com/jobs/{n}-{slug(title)}",
        "jobTitle": title,
        "companyName": "Acme",
        "jobIndustry": ["Programming"],
        "jobType": ["Contract"],
        "jobGeo": "APAC",
        "jobExcerpt": "Remote",
        "pubDate": "2026-11-03 04:10:26",
        **more,
    }


def test_freelancer_alerts_a_new_project_in_its_own_currency_and_type(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    boards.freelancer = [project(1, "Python scraper")]
    hourly_in_rupees = project(
        2,
        "Python Django fix",
        budget={"minimum": 600, "maximum": 1500},
        currency={"code": "INR", "sign": "₹"},
        type="hourly",
        bid_stats={"bid_count": 14, "bid_avg": 900},
    )
    source = {"preset": "freelancer", "url": boards.url + FREELANCER, "search": "python"}
    card = card_of(
        pushes_after_two_polls(
            source, store, lambda: boards.freelancer.insert(0, hourly_in_rupees), clock
        )
    )
    assert "https://www.freelancer.com/projects/python/python-django-fix-2" in card
    assert "₹600\u20131,500 ต่อชั่วโมง · per hour" in card  # rupees an hour, never "$600"
    assert "เสนอแล้ว 14 คน (14 offers)" in card and "Python" in card
    assert {q.get("query") for _b, q in boards.asked} == {"python"}
    assert all(q["sort_field"] == "time_submitted" for _b, q in boards.asked)


def test_himalayas_alerts_a_new_job_with_its_salary_period_and_names_its_source(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    boards.himalayas = [himalayas_job(1, "Python Engineer")]
    new = himalayas_job(
        2,
        "Senior Python Engineer",
        minSalary=4000,
        maxSalary=6000,
        currency="EUR",
        salaryPeriod="month",
    )
    source = {
        "preset": "himalayas",
        "url": boards.url + "/jobs/api/search?q={search}&sort=recent&limit=20",
        "search": "python",
    }
    card = card_of(
        pushes_after_two_polls(source, store, lambda: boards.himalayas.insert(0, new), clock)
    )
    assert new["guid"] in card  # the link back its terms ask for
    assert "€4,000\u20136,000 ต่อเดือน · per month" in card
    assert "Contractor" in card and "himalayas" in card
    assert {q["q"] for _b, q in boards.asked} == {"python"}


def test_remotive_is_read_four_times_a_day_and_never_blocked(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """Its terms: at most 4 times a day, and more than 2 a minute is blocked. Polled every
    30 minutes for a day, the preset asks 4 times and is refused none."""
    boards.remotive = [remotive_job(1, "Python Developer")]
    source = {
        "preset": "remotive",
        "url": boards.url + "/api/remote-jobs?search={search}&limit=100",
        "search": "python",
    }
    config = parse_config({"sources": [source], "filter": {"include": ["python"]}})
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    for poll in range(48):
        if poll == 10:
            boards.remotive.insert(0, remotive_job(2, "Python Data Engineer", "$40k - $60k"))
        hunter.poll()
        clock.advance(30 * 60)
    assert len(boards.asked) == 4 and boards.refused == []
    card = card_of(line.pushes)
    assert "$40,000\u201360,000 ต่อปี · per year" in card
    assert "https://remotive.com/remote-jobs/software-dev/python-data-engineer-2" in card


def test_jobicy_alerts_a_new_job_with_its_annual_salary(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    boards.jobicy = [jobicy_job(1, "Python Developer")]
    new = jobicy_job(
        2, "Python Backend", annualSalaryMin="60000", annualSalaryMax="90000", salaryCurrency="USD"
    )
    source = {
        "preset": "jobicy",
        "url": boards.url + "/api/v2/remote-jobs?count=50&geo=apac&tag={search}",
        "search": "python",
    }
    card = card_of(
        pushes_after_two_polls(source, store, lambda: boards.jobicy.insert(0, new), clock)
    )
    assert "https://jobicy.com/jobs/2-python-backend" in card
    assert "$60,000\u201390,000 ต่อปี · per year" in card
    assert "Programming · สัญญาจ้าง" in card  # its industry, and "Contract" as Thais read it


@pytest.mark.parametrize(
    ("source", "status", "reason"),
    [
        # Freelancer asking for its OAuth token: the site's own message, never "no jobs"
        (
            {"preset": "freelancer", "url": "{url}" + FREELANCER},
            "HTTP 401 from 127.0.0.1",
            "You must be authenticated to perform this request",
        ),
        # Jobicy: an unknown geo slug
        (
            {"preset": "jobicy", "url": "{url}/api/v2/remote-jobs?count=50&geo=mars"},
            "HTTP 400 from 127.0.0.1",
            "Invalid parameter value",
        ),
    ],
)
def test_documented_refusals_are_failed_reads_with_the_sites_reason(
    boards: RemoteBoards, source: dict[str, Any], status: str, reason: str
) -> None:
    boards.needs_token = True
    boards.freelancer = boards.jobicy = []
    source = {**source, "url": source["url"].replace("{url}", boards.url)}
    [read] = read_sources(list(parse_config({"sources": [source]}).sources), {}, 10, T0)
    assert read.error is not None and not read.listings
    assert status in read.error and read.error.endswith(reason)


def test_freelancer_with_its_token_reads(boards: RemoteBoards) -> None:
    boards.needs_token = True
    boards.freelancer = [project(1, "Python scraper")]
    source = {
        "preset": "freelancer",
        "url": boards.url + FREELANCER,
        "headers": {"freelancer-oauth-v1": "a-token"},
    }
    [read] = read_sources(list(parse_config({"sources": [source]}).sources), {}, 10, T0)
    assert read.error is None and [listing.title for listing in read.listings] == ["Python scraper"]


def test_remotives_block_past_two_a_minute_is_a_failed_read(boards: RemoteBoards) -> None:
    boards.remotive = [remotive_job(1, "Python Developer")]
    [source] = parse_config(
        {"sources": [{"preset": "remotive", "url": boards.url + "/api/remote-jobs"}]}
    ).sources
    reads = [read_sources([source], {}, 10, T0)[0] for _ in range(3)]
    assert [r.error is None for r in reads] == [True, True, False]
    assert "HTTP 429" in str(reads[2].error) and not reads[2].listings


def test_each_remote_preset_searches_where_its_site_does() -> None:
    expected = {
        "freelancer": "/api/projects/0.1/projects/active/?query=data+%26+ai&",
        "himalayas": "/jobs/api/search?q=data+%26+ai&sort=recent",
        "remotive": "/api/remote-jobs?search=data+%26+ai&",
        "jobicy": "&tag=data+%26+ai",
    }
    for preset, part in expected.items():
        [source] = parse_config({"sources": [{"preset": preset, "search": "data & ai"}]}).sources
        [plain] = parse_config({"sources": [{"preset": preset}]}).sources
        assert part in source.url and "data" not in plain.url
