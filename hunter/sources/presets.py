"""Sources people really watch, described once: `preset = "fastwork"` and a name is enough.

A preset fills in what the user did not write; anything written in [[sources]] wins. Each one
is written from the site's public API or feed as documented or observed; where a detail could
not be confirmed from here, the comment says so, with each fact's date. Boards rename fields:
a path names the current field first and keeps the older names after it ("salaryMin|
annualSalaryMin": the first present wins), and `hunter check` and the poll's shape notice
tell when a field stops being found. `search` puts the user's text where the
site's own search takes it ("{search}" in the url or body); a site that searches at another
address than it lists names it as `search_url`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote_plus

from hunter.errors import ConfigError, meant

PRESETS: dict[str, dict[str, Any]] = {
    # Fastwork's job board (Thai freelance jobs), through its JSON API: the fastwork kind adds
    # the newest-first paging and `categories = [...]` (see sources/fastwork.py). Fields as
    # measured on 2026-08-24 (shared/sources/README.md): a person's page is
    # /jobs?job_id=<id> (/jobs/<id> is a 404); `budget` and `budget_2` are a range's ends,
    # "0" meaning not stated. Only open posts that have not expired are worth an alert.
    "fastwork": {
        "kind": "fastwork",
        "url": "https://jobboard-api.fastwork.co/api/jobs",
        "items": "data",
        "id": "id",
        "title": "title",
        "link": "https://jobboard.fastwork.co/jobs?job_id={id}",
        "budget": "budget",
        "budget_max": "budget_2",
        "currency": "THB",
        "summary": "description",
        "category": "tag.name",
        "engagement": "type",
        "offers": "freelance_offers_count",
        "deadline": "deadline_at",
        "posted": "inserted_at",  # ISO 8601, UTC
        "timezone": "UTC",  # its times are UTC, whatever the config's
        "where": ['status == "open"', "expired_at > now"],
    },
    # RemoteOK's public API: a list whose first element is a legal notice (no id), then jobs.
    # Their terms ask for a link back to Remote OK (every alert links to the job there).
    "remoteok": {
        "kind": "json",
        "url": "https://remoteok.com/api",
        "items": "",
        "id": "id",
        "title": "position",
        "link": "url",
        "budget": "salary_min",
        "budget_max": "salary_max",  # US dollars a year; 0 means not stated
        "currency": "USD",
        "period": "year",
        "summary": "description",
        "company": "company",
        "location": "location",  # "Remote", "Worldwide", a country
        "remote": True,  # a board of remote jobs: a country is whom it takes
        "posted": "epoch|date",  # epoch seconds; `date` ISO 8601
        "where": ["id exists"],
    },
    # We Work Remotely's RSS feed of all remote jobs (category feeds such as
    # /categories/remote-programming-jobs.rss work the same way: override url).
    "weworkremotely": {
        "kind": "rss",
        "url": "https://weworkremotely.com/remote-jobs.rss",
        "company_in_title": True,  # its items' titles read "Company: Role"
        "remote": True,  # every job remote; its <region> says whom it takes ("USA Only")
    },
    # JobThai, the largest Thai job board: its GraphQL search, POSTed as JSON (an Apollo
    # server with CSRF prevention refuses a POST that is not JSON with 400), newest first
    # (orderBy UPDATED_AT_DESC), 100 a page, results at data.searchJobs.data.data; `salary` is
    # Thai free text ("25,000 - 35,000"; "ตามตกลง": negotiable, not stated); a person's page
    # is /th/job/<id> (ats-scrapers, probed 2026-05). One scraper's output (2025-12) holds
    # /th/company/job/<id> links instead: unconfirmed which the site serves today; a link that
    # stops working shows in `hunter check`, and `link` can be overridden.
    "jobthai": {
        "kind": "json",
        "url": "https://api.jobthai.com/v1/graphql",
        "body": {
            "query": (
                "query($filter: SearchJobsFilter) { searchJobs(filter: $filter, "
                "orderBy: UPDATED_AT_DESC) { data { total data { id jobTitle companyName "
                "province { name } salary updatedAt jobType { name } } } } }"
            ),
            "variables": {
                "filter": {"keyword": "{search}", "page": "{page}", "size": 100, "l": "th"}
            },
        },
        "items": "data.searchJobs.data.data",
        "id": "id",
        "title": "jobTitle",
        "link": "https://www.jobthai.com/th/job/{id}",
        "budget": "salary",
        "currency": "THB",
        "period": "month",  # a Thai salary is a month's unless its text says otherwise
        # summary and category as before the company and the place were fields (a field a
        # source stops carrying is a "no longer found" notice): the card shows each once
        "summary": "companyName",
        "category": "province.name",
        "company": "companyName",
        "location": "province.name",
        "engagement": "jobType.name",
        "posted": "updatedAt",  # its only time: newest first is by it
    },
    # JobsDB Thailand (SEEK): its job search API, newest first (sortmode=ListedDate; the
    # default is relevance), 30 a page (over 100 answers an HTML page, not JSON);
    # `sourcesystem` is required. `salaryLabel` is free text ("฿50,000 to ฿75,000 per month",
    # written with an en dash). A person's page is /job/<id>. One reference says robots.txt
    # disallows /api/jobsearch/ (unconfirmed): the preset reads it every 2 hours, not every
    # poll. shared/sources/README.md (JHunt, ats-scrapers).
    "jobsdb": {
        "kind": "json",
        "url": (
            "https://th.jobsdb.com/api/jobsearch/v5/search?siteKey=TH-Main&sourcesystem=houston"
            "&locale=en-TH&keywords={search}&page={page}&pageSize=30&sortmode=ListedDate"
        ),
        "items": "data",
        "id": "id",
        "title": "title",
        "link": "https://th.jobsdb.com/job/{id}",
        "budget": "salaryLabel",
        "currency": "THB",
        "period": "month",
        "summary": "teaser",
        "company": "companyName|advertiser.description",
        "location": "locations.0.label",
        "category": "classifications.0.classification.description",
        "engagement": "workTypes.0",
        "posted": "listingDate",  # ISO 8601
        "timezone": "UTC",  # its times are UTC, whatever the config's
        "every": "2h",
    },
    # Freelancer.com's projects API (the official SDK, freelancer-sdk-python): active projects,
    # newest first (sort_field=time_submitted, reverse_sort), with each project's own currency
    # (USD, INR, EUR, ...) and type (fixed or hourly), its bid count (the competition) and its
    # skills. A person's page is /projects/<seo_url>. The SDK asks for an OAuth token; public
    # bots read this endpoint without one (unconfirmed): if it refuses, the read fails with
    # the site's reason and headers = { "freelancer-oauth-v1" = "<token>" } is the fix.
    "freelancer": {
        "kind": "json",
        "url": (
            "https://www.freelancer.com/api/projects/0.1/projects/active/?limit=50"
            "&sort_field=time_submitted&reverse_sort=true&job_details=true"
        ),
        "search_url": (
            "https://www.freelancer.com/api/projects/0.1/projects/active/?query={search}"
            "&limit=50&sort_field=time_submitted&reverse_sort=true&job_details=true"
        ),
        "items": "result.projects",
        "id": "id",
        "title": "title",
        "link": "https://www.freelancer.com/projects/{seo_url}",
        "budget": "budget.minimum",
        "budget_max": "budget.maximum",
        "currency": "USD",
        "item_currency": "currency.code",
        "item_period": "type",  # "hourly" is per hour, "fixed" the whole project
        "summary": "preview_description",
        "category": "jobs.0.name",
        "offers": "bid_stats.bid_count",
        "posted": "time_submitted",  # Unix seconds
    },
    # Himalayas' jobs API (its data dictionary): newest first, 20 a request, no key; a search
    # goes to /jobs/api/search with q and sort=recent (one article writes `keyword`:
    # unconfirmed). Salaries are numbers with their currency and period; answers recorded in
    # 2026-07 and 2026-09 say salaryPeriod "annual" or "hourly", and minSalary, maxSalary and
    # currency may all be null (not stated). Offset paging is deprecated (the answer's own
    # comments, 2026-08-21) for its top-level nextCursor: with pages > 1 the preset pages by
    # cursor (the parameter's name, cursor, is unconfirmed). `guid` is the job's page, also its
    # id. Its terms ask for a link back naming Himalayas: every alert links to the job there.
    "himalayas": {
        "kind": "json",
        "url": "https://himalayas.app/jobs/api?limit=20",
        "cursor": "nextCursor",
        "search_url": "https://himalayas.app/jobs/api/search?q={search}&sort=recent&limit=20",
        "items": "jobs",
        "id": "guid",
        "title": "title",
        "link": "guid",
        "budget": "minSalary",
        "budget_max": "maxSalary",
        "currency": "USD",
        "period": "year",
        "item_currency": "currency",
        "item_period": "salaryPeriod",
        "summary": "{companyName} · {excerpt}",
        "company": "companyName",
        "location": "locationRestrictions.0.name|locationRestrictions.0",
        "remote": True,  # remote jobs: the countries or regions whose residents it takes
        "category": "categories",
        "engagement": "employmentType",
        "posted": "pubDate",  # milliseconds (documented) or seconds (seen): both read
    },
    # Remotive's public API (remotive-com/remote-jobs-api): jobs with a 24-hour delay, `url`
    # linked back as its terms require. Its terms allow "max. 4 times a day" and block more than
    # 2 a minute: the preset reads it every 6 hours. `salary` is free text that states no
    # period (a 2026-07 answer: "$55k - $100k", "OTE $25k - $35k", "$3k - $10k", ""): "year?"
    # shows it as likely yearly, and no floor judges it (a text that says its period wins).
    "remotive": {
        "kind": "json",
        "url": "https://remotive.com/api/remote-jobs?limit=100",
        "search_url": "https://remotive.com/api/remote-jobs?search={search}&limit=100",
        "items": "jobs",
        "id": "id",
        "title": "title",
        "link": "url",
        "budget": "salary",
        "currency": "USD",
        "period": "year?",
        "summary": "description",  # HTML, read as text: what one alert per job compares
        "company": "company_name",
        "location": "candidate_required_location",
        "remote": True,  # remote jobs: where the candidate must be ("USA", "Europe")
        "category": "category",
        "engagement": "job_type",
        "posted": "publication_date",  # no zone: UTC
        "timezone": "UTC",  # its times name no zone, and are UTC, whatever the config's
        "every": "6h",
    },
    # Jobicy's remote jobs API (go-api-libs/jobicy's recorded answer, 2024-12): 50 at most a
    # request, jobs open to Asia-Pacific (geo=apac; an unknown geo or industry slug is refused
    # with 400 or 403). Salaries only when stated, with their currency: answers of 2026-07 and
    # 2026-09 (apiVersion 2.2.14, 2.2.16) write salaryMin, salaryMax (numbers) and salaryPeriod
    # ("yearly"); the 2024 answer wrote annualSalaryMin/annualSalaryMax (strings), still read.
    # Its notice asks for "a few times daily" at most: every 6 hours. `search` is its tag.
    "jobicy": {
        "kind": "json",
        "url": "https://jobicy.com/api/v2/remote-jobs?count=50&geo=apac",
        "search_url": "https://jobicy.com/api/v2/remote-jobs?count=50&geo=apac&tag={search}",
        "items": "jobs",
        "id": "id",
        "title": "jobTitle",
        "link": "url",
        "budget": "salaryMin|annualSalaryMin",
        "budget_max": "salaryMax|annualSalaryMax",
        "currency": "USD",
        "period": "year",
        "item_currency": "salaryCurrency",
        "item_period": "salaryPeriod",
        "summary": "{companyName} · {jobExcerpt}",
        "company": "companyName",
        "location": "jobGeo",
        "remote": True,  # remote jobs: the regions whose residents it takes ("Europe, UK")
        "category": "jobIndustry",
        "engagement": "jobType",
        "posted": "pubDate",  # "2024-12-07 04:10:26", no zone: UTC
        "timezone": "UTC",  # its times name no zone, and are UTC, whatever the config's
        "every": "6h",
    },
}
SEARCH = "{search}"  # where a preset puts the `search` key's text (its site's own search)


def _searching() -> str:
    """The presets whose site searches, for an error (made only then: every source's table
    passes here, and a config of 50 sources spent 7 ms of a cron run making it)."""
    return ", ".join(sorted(p for p in PRESETS if SEARCH in json.dumps(PRESETS[p])))


def apply_preset(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The source table with its preset's values filled in (a copy), and `search` (the site's
    own search text) put where the preset's site takes it."""
    name = raw.get("preset")
    if name is None:
        if "search" in raw:
            raise ConfigError(f"search goes with a preset whose site searches ({_searching()})")
        return dict(raw)
    if not isinstance(name, str) or name not in PRESETS:
        said = meant(name, PRESETS) if isinstance(name, str) else ""
        raise ConfigError(
            f"unknown preset {name!r}{said}; presets are {', '.join(sorted(PRESETS))}"
        )
    merged = {"name": name, **PRESETS[name], **raw}
    del merged["preset"]
    search = merged.pop("search", "")
    searched_url = merged.pop("search_url", None)  # where the site searches, when it differs
    if not isinstance(search, str) or len(search) > 200 or not search.isprintable():
        raise ConfigError(f"search must be a text of at most 200 characters, got {search!r}")
    if search and searched_url and "url" not in raw:
        merged["url"] = searched_url
    if search and SEARCH not in json.dumps([merged.get("url"), merged.get("body")]):
        if "url" in raw and SEARCH in json.dumps(PRESETS[name]):
            raise ConfigError(
                f"search is set but the url you gave preset {name!r} has no {SEARCH}; put "
                f"{SEARCH} where the site takes the search text, or drop search"
            )
        raise ConfigError(
            f"preset {name!r} has no search of its site ({_searching()} have); use include instead"
        )
    merged["url"] = str(merged.get("url", "")).replace(SEARCH, quote_plus(search))
    if "body" in merged:
        merged["body"] = _searched(merged["body"], search)
    return merged


def _searched(value: Any, search: str) -> Any:
    if isinstance(value, str):
        return value.replace(SEARCH, search)
    if isinstance(value, Mapping):
        return {key: _searched(item, search) for key, item in value.items()}
    if isinstance(value, list):
        return [_searched(item, search) for item in value]
    return value
