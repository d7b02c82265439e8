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
    # Fastwork's public job board (Thai freelance jobs): a JSON API with fields
    # data[].{id (UUID), title, description, budget, inserted_at, status, expired_at, tag.name}
    # and paging in meta.{total_pages, total_count}. Only open jobs that have not expired are
    # listings worth an alert.
    "fastwork": {
        "kind": "json",
        "url": "https://jobboard-api.fastwork.co/api/jobs",
        "items": "data",
        "id": "id",
        "title": "title",
        "link": "https://jobboard.fastwork.co/jobs/{id}",
        "budget": "budget",
        "summary": "description",
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
