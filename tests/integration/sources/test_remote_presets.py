"""The Freelancer.com, Himalayas, Remotive and Jobicy presets against stand-ins that answer as
the real sites are known to (tests/support/remote_boards.py): the first read primes silently,
a new post is alerted once with a link a person can open, its pay in its own currency and
period, and the site's competition or engagement where it has them; `search` reaches the site's
own search; the sites' documented refusals are failed reads with a reason, never "no jobs".
`url` points a preset at the stand-in, keeping everything else of it."""

from __future__ import annotations

import threading
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
    """As answers of 2026-07 and 2026-09 carry a job: its pay fields all null unless stated."""
    return {
        "guid": f"https://himalayas.app/companies/acme/jobs/{slug(title)}",
        "title": title,
        "companyName": "Acme",
        "excerpt": "Remote across Asia",
        "minSalary": None,
        "maxSalary": None,
        "currency": None,
        "salaryPeriod": None,
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
    """A job as Jobicy answers it; its pay fields are those of the year a test gives."""
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
    annual = himalayas_job(
        2,
        "Senior Python Engineer",
        minSalary=50000,
        maxSalary=70000,
        currency="EUR",
        salaryPeriod="annual",
    )
    hourly = himalayas_job(
        3, "Python Tutor", minSalary=40, maxSalary=60, currency="USD", salaryPeriod="hourly"
    )
    unstated = himalayas_job(4, "Python Writer")  # every pay field null
    source = {
        "preset": "himalayas",
        "url": boards.url + "/jobs/api/search?q={search}&sort=recent&limit=20",
        "search": "python",
    }
    new = [annual, hourly, unstated]
    card = card_of(
        pushes_after_two_polls(
            source, store, lambda: boards.himalayas.__setitem__(slice(0, 0), new), clock
        )
    )
    assert annual["guid"] in card  # the link back its terms ask for
    assert "€50,000\u201370,000 ต่อปี · per year" in card
    assert "$40\u201360 ต่อชั่วโมง · per hour" in card
    assert "Python Writer" in card and "งบไม่ระบุ · budget not stated" in card
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
        if poll == 10:  # its salaries state no period (a 2026-07 answer)
            boards.remotive.insert(0, remotive_job(2, "Python Data Engineer", "$40k - $60k"))
        hunter.poll()
        clock.advance(30 * 60)
    assert len(boards.asked) == 4 and boards.refused == []
    card = card_of(line.pushes)
    assert "$40,000\u201360,000 ต่อปี? · per year?" in card  # likely, never claimed
    assert "https://remotive.com/remote-jobs/software-dev/python-data-engineer-2" in card


def test_remotive_pay_states_no_period_so_no_yearly_floor_hides_it(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """ "$3k - $10k" may be a month's: a floor of $50,000 a year cannot judge it, so it is
    alerted (pay is never hidden on a guess); a text that states its period is judged."""
    boards.remotive = [remotive_job(1, "Python Developer")]
    new = [
        remotive_job(2, "Python Contractor", "$3k - $10k"),
        remotive_job(3, "Python Intern", "$1k - $2k per month"),
        remotive_job(4, "Python Lead", "OTE $25k - $35k"),
        remotive_job(5, "Python Tester", ""),
    ]
    source = {
        "preset": "remotive",
        "url": boards.url + "/api/remote-jobs?limit=100",
        "min_budget": ["$50,000 per year", "$3,000 per month"],
    }
    card = card_of(
        pushes_after_two_polls(
            source, store, lambda: boards.remotive.__setitem__(slice(0, 0), new), clock
        )
    )
    assert "$3,000\u201310,000 ต่อปี? · per year?" in card
    assert "$25,000\u201335,000 ต่อปี? · per year?" in card
    assert "Python Tester" in card and "งบไม่ระบุ · budget not stated" in card
    assert "Python Intern" not in card  # $2,000 a month, as its text says, under $3,000


def test_jobicy_alerts_a_new_job_with_its_annual_salary(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """As Jobicy answered in 2024: annualSalaryMin/Max, strings (still read)."""
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


def test_jobicy_2026_salaries_are_stated_and_judged_by_a_floor(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """As Jobicy answered in 2026-07 and 2026-09 (apiVersion 2.2.14, 2.2.16): salaryMin and
    salaryMax as numbers, salaryPeriod "yearly", no annualSalaryMin/Max. A stated 227,000 USD
    a year shows as stated, and a floor judges it: a lower one passes, a higher one hides."""
    boards.jobicy = [jobicy_job(1, "Python Developer")]
    new = [
        jobicy_job(
            2,
            "Python Staff Engineer",
            salaryMin=227000,
            salaryMax=250000,
            salaryCurrency="USD",
            salaryPeriod="yearly",
        ),
        jobicy_job(
            3,
            "Python Junior",
            salaryMin=40000,
            salaryMax=45000,
            salaryCurrency="USD",
            salaryPeriod="yearly",
        ),
    ]
    source = {
        "preset": "jobicy",
        "url": boards.url + "/api/v2/remote-jobs?count=50&geo=apac",
        "min_budget": "$100,000 per year",
    }
    card = card_of(
        pushes_after_two_polls(
            source, store, lambda: boards.jobicy.__setitem__(slice(0, 0), new), clock
        )
    )
    assert "$227,000\u2013250,000 ต่อปี · per year" in card
    assert "Python Junior" not in card  # 45,000 a year is under the floor


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


def test_himalayas_pages_by_its_cursor_where_it_pages(boards: RemoteBoards) -> None:
    """Offset paging is deprecated (its answers' comments, 2026-08-21): with pages = 3, the
    second page is asked for with the first answer's nextCursor, and paging stops where an
    answer's nextCursor is null."""
    boards.himalayas = [himalayas_job(n, f"Python job {n}") for n in range(25)]
    source = {"preset": "himalayas", "url": boards.url + "/jobs/api?limit=20", "pages": 3}
    [read] = read_sources(list(parse_config({"sources": [source]}).sources), {}, 10, T0)
    assert read.error is None and len(read.listings) == 25 and read.pages == 2
    first, second = (query for _board, query in boards.asked)
    assert "cursor" not in first and "offset" not in first
    assert second["cursor"] == boards.himalayas[20]["guid"].encode().hex()
