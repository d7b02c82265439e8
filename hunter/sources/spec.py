"""What a source is, as data: the validated form of one [[sources]] table.

Plain frozen dataclasses that import nothing of hunter's, so that every module can use them
(config.py builds them, the readers and parsers read them, notices name them) without a cycle.
Which keys each kind accepts, and how they are checked, is each kind's own (kinds.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from hunter.rules.filter_config import FilterConfig


class _Now:
    """The moment of the poll, as the right-hand side of a `where` condition."""

    def __repr__(self) -> str:
        return "now"


NOW: Final = _Now()


@dataclass(frozen=True)
class Condition:
    """One `where` condition on a JSON item: "path OP value" (conditions.py evaluates it)."""

    path: str
    op: str  # ==, !=, >, <, >=, <=, or "exists"
    value: object = None  # a JSON value, or NOW


MAX_WAIT_SECONDS = 24 * 3600  # a Retry-After longer than a day is taken as a day


@dataclass(frozen=True)
class SourceConfig:
    name: str
    kind: str
    url: str
    title: str = ""  # html, json: where each listing's title is
    item: str = ""  # html: CSS selector of one listing
    items: str = ""  # json: dotted path to the list of listings
    id: str = ""
    link: str = ""
    budget: str = ""
    summary: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    filter: FilterConfig = field(default_factory=FilterConfig)
    pages: int = 1  # with {page} in the url (or a cursor): pages 1..N, stopping at an empty one
    every_seconds: float = 0.0  # read at most this often (a site's terms); 0: every poll
    schedule: str = ""  # "learned" or "fixed"; "": the config's
    fastest_minutes: float | None = None  # None: the config's
    slowest_minutes: float | None = None  # None: the config's
    where: tuple[Condition, ...] = ()  # json: conditions every item must meet
    flood_threshold: int | None = None  # None: the config's flood_threshold
    reposts: str = "merge"  # a job posted again under a new id: "merge" (not alerted), "alert"
    currency: str = "THB"  # ISO 4217: what the source's budgets are in, unless an item says
    period: str = ""  # what its pay is per, unless an item says: "" a whole job, hour ... year
    # The IANA timezone its times without a zone are in ("2026-12-03 09:15"): the config's
    # unless the source says (config.py fills it in); a preset whose board writes UTC says so.
    timezone: str = ""
    # json: paths to what a freelancer decides by (all optional)
    budget_max: str = ""
    category: str = ""
    engagement: str = ""
    company: str = ""  # json: path to who posts it; html: selector
    location: str = ""  # json: path to where the job is (or who may apply); html: selector
    remote: bool = False  # every job on it is remote: its location says whom it takes
    company_in_title: bool = False  # rss: titles read "Company: Role" (We Work Remotely's)
    offers: str = ""
    deadline: str = ""
    posted: str = ""  # json: path to when the board says an item was posted; html: selector
    item_currency: str = ""  # json: path to an item's own currency code (Freelancer's)
    item_period: str = ""  # json: path to an item's own period word ("hourly", "month")
    categories: tuple[str, ...] = ()  # fastwork: category names, resolved to tag ids per read
    body: Any = None  # json: a request body, POSTed as JSON (a GraphQL query and variables)
    cursor: str = ""  # json: path to the answer's next-page cursor

    def page_url(self, page: int, cursor: str = "") -> str:
        """Page `page`'s address: its number in place of {page}, and from the second page of
        a cursor-paged source, the previous answer's cursor as `cursor=`."""
        url = self.url.replace("{page}", str(page))
        if not (self.cursor and cursor and page > 1):
            return url
        parts = urlsplit(url)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "cursor"]
        return urlunsplit(parts._replace(query=urlencode([*query, ("cursor", cursor)])))

    def page_body(self, page: int) -> Any:
        """The body for page `page`: a value "{page}" becomes the number, "{page}" inside a
        longer text the digits."""
        return _with_page(self.body, page)


def _with_page(value: Any, page: int) -> Any:
    if isinstance(value, str):
        return page if value == "{page}" else value.replace("{page}", str(page))
    if isinstance(value, Mapping):
        return {key: _with_page(item, page) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_page(item, page) for item in value]
    return value
