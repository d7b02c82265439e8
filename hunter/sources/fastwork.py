"""Fastwork's job board, read the way its own API works (kind "fastwork"; `preset = "fastwork"`).

What the API does, as measured live on 2026-08-24 by a public Fastwork scanner (repository
Phakinza007/my-portfolio, `_tools/jobscan`), summed up in shared/sources/README.md:
- `GET .../api/jobs` answers {"data": [...], "meta": {...}}; `page`, `page_size` (50),
  `order_by[]=inserted_at` with `order_directions[]=desc` (newest first) work.
- A category is filtered exactly as `filters[0][field]=tag_id&filters[0][value]=<tag uuid>`;
  other spellings answer 400.
- `GET .../api/tags` answers {"data": [{"id", "name", "sort"}]}: the categories by Thai name.
  Their ids may change, so names are resolved on every read; a name with no tag is a config
  error (the source fails, loudly) and never means "the whole board".
- A 500 now and then, minutes after the same query answered 200: a failed read, not "no jobs".

Each category is one query, newest first. Its first page holds everything new since the last
poll unless all 50 posts on it are newer than that; then the next page is read too, up to
MAX_PAGES, so that a busy day loses nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from hunter.errors import ConfigError, SourceError
from hunter.sources import json as json_kind
from hunter.sources.conditions import read_time
from hunter.sources.extract import ParseResult
from hunter.sources.kinds import Get, SourceKind
from hunter.sources.spec import SourceConfig

PAGE_SIZE = 50
MAX_PAGES = 5  # per category and poll: 250 posts, far more than a busy day brings


def check(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The json kind's keys (the preset fills them in) and `categories`."""
    fields = json_kind.check(raw, where)
    categories = raw.get("categories", [])
    if not isinstance(categories, list) or not all(
        isinstance(c, str) and c.strip() for c in categories
    ):
        raise ConfigError(
            f'{where}: categories must be a list of Fastwork category names, e.g. ["เว็บไซต์"]'
        )
    fields["categories"] = tuple(c.strip() for c in categories)
    url = raw.get("url")
    if fields["categories"] and isinstance(url, str) and not _is_jobs_endpoint(url):
        raise ConfigError(
            f"{where}: with categories, url must be Fastwork's jobs endpoint (ending in /jobs), "
            f"where the categories are found beside it; got {url}"
        )
    return fields


def _is_jobs_endpoint(url: str) -> bool:
    return urlsplit(url).path.rstrip("/").rpartition("/")[2] == "jobs"


def tags_url(jobs_url: str) -> str:
    """The tags endpoint beside the jobs endpoint: the last path segment `jobs` -> `tags`."""
    parts = urlsplit(jobs_url)
    head = parts.path.rstrip("/").rpartition("/")[0]  # check() made sure the last is "jobs"
    return urlunsplit((parts.scheme, parts.netloc, f"{head}/tags", "", ""))


def query_url(jobs_url: str, page: int, tag_id: str | None) -> str:
    parts = urlsplit(jobs_url)
    query = [
        ("page", str(page)),
        ("page_size", str(PAGE_SIZE)),
        ("order_by[]", "inserted_at"),
        ("order_directions[]", "desc"),
    ]
    if tag_id is not None:
        query += [("filters[0][field]", "tag_id"), ("filters[0][value]", tag_id)]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def _tag_ids(source: SourceConfig, get: Get) -> dict[str, str]:
    """Category name -> tag id, as the board says today."""
    _url, text = get(tags_url(source.url))
    try:
        tags = json.loads(text)["data"]
        return {str(t["name"]).strip(): str(t["id"]) for t in tags}
    except (ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"Fastwork's category list is not what hunter knows ({exc})") from exc


def read(
    source: SourceConfig, get: Get, last_good_at: datetime | None, now: datetime
) -> ParseResult:
    """Every category's new posts (or the whole board's, with no categories), merged."""
    tag_ids: list[str | None] = [None]
    if source.categories:
        known = _tag_ids(source, get)
        unknown = [name for name in source.categories if name not in known]
        if unknown:
            raise ConfigError(
                f"no Fastwork category named {', '.join(map(repr, unknown))}; "
                f"the categories are: {', '.join(sorted(known))}"
            )
        tag_ids = [known[name] for name in source.categories]
    result = ParseResult()
    for tag_id in tag_ids:
        for page in range(1, MAX_PAGES + 1):
            url, text = get(query_url(source.url, page, tag_id))
            document = json_kind.load(source, text)
            parsed = json_kind.parse_document(source, document, url, now)
            seen = {x.job_id for x in result.listings}
            result.listings += [x for x in parsed.listings if x.job_id not in seen]
            result.skipped += parsed.skipped
            result.warnings += parsed.warnings
            if not _all_newer(document, last_good_at):
                break
    return result


def _all_newer(document: Any, since: datetime | None) -> bool:
    """A full page whose every post is newer than the last good read: more may be behind."""
    if since is None or not isinstance(document, dict):  # priming: the first page is the base
        return False
    posts = document.get("data")
    if not isinstance(posts, list):
        return False
    if len(posts) < PAGE_SIZE:
        return False
    times = [read_time(p.get("inserted_at")) for p in posts if isinstance(p, dict)]
    return all(t is not None and t > since for t in times)


KIND = SourceKind(
    "fastwork",
    json_kind.KIND.keys | {"categories"},
    check,
    json_kind.parse_json,
    read,
)
