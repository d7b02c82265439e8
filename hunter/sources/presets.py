"""Sources people really watch, described once: `preset = "fastwork"` and a name is enough.

A preset fills in what the user did not write; anything written in [[sources]] wins. Each one
is written from the site's public API or feed as documented or observed; where a detail could
not be confirmed from here, the comment says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote_plus

from hunter.errors import ConfigError

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
        "summary": "description",
        "where": ["id exists"],
    },
    # We Work Remotely's RSS feed of all remote jobs (category feeds such as
    # /categories/remote-programming-jobs.rss work the same way: override url).
    "weworkremotely": {
        "kind": "rss",
        "url": "https://weworkremotely.com/remote-jobs.rss",
    },
    # JobThai, the largest Thai job board: its GraphQL search, POSTed as JSON (an Apollo
    # server with CSRF prevention refuses a POST that is not JSON with 400), newest first
    # (orderBy UPDATED_AT_DESC), 100 a page, results at data.searchJobs.data.data; `salary` is
    # Thai free text ("25,000 - 35,000"; "ตามตกลง": negotiable, not stated); a person's page
    # is /th/job/<id>. shared/sources/README.md: kalil0321/ats-scrapers, probed 2026-05.
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
        "summary": "companyName",
        "category": "province.name",
        "engagement": "jobType.name",
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
        "summary": "teaser",
        "category": "classifications.0.classification.description",
        "engagement": "workTypes.0",
        "every": "2h",
    },
}
SEARCH = "{search}"  # where a preset puts the `search` key's text (its site's own search)


def apply_preset(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The source table with its preset's values filled in (a copy), and `search` (the site's
    own search text) put where the preset's site takes it."""
    name = raw.get("preset")
    if name is None:
        if "search" in raw:
            raise ConfigError("search goes with a preset whose site searches (jobthai, jobsdb)")
        return dict(raw)
    if not isinstance(name, str) or name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; presets are {', '.join(sorted(PRESETS))}")
    merged = {"name": name, **PRESETS[name], **raw}
    del merged["preset"]
    search = merged.pop("search", "")
    if not isinstance(search, str) or len(search) > 200 or not search.isprintable():
        raise ConfigError(f"search must be a text of at most 200 characters, got {search!r}")
    if search and SEARCH not in json.dumps([merged.get("url"), merged.get("body")]):
        raise ConfigError(f"preset {name!r} has no search of its site; use include instead")
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
