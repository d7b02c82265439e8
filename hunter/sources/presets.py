"""Sources people really watch, described once: `preset = "fastwork"` and a name is enough.

A preset fills in what the user did not write; anything written in [[sources]] wins. Each one
is written from the site's public API or feed as documented or observed; where a detail could
not be confirmed from here, the comment says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
}


def apply_preset(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The source table with its preset's values filled in (a copy)."""
    name = raw.get("preset")
    if name is None:
        return dict(raw)
    if not isinstance(name, str) or name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; presets are {', '.join(sorted(PRESETS))}")
    merged = {"name": name, **PRESETS[name], **raw}
    del merged["preset"]
    return merged
