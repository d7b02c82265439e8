"""Which site a listing's link is on, as one alert per job asks it (likeness.py): a board's
sites for two countries (adzuna.at, adzuna.ch) show one ad twice, and a job board's listing
without text is no copycat's. Pure, no I/O.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def site_of(url: str) -> str:
    """The host of a listing's link, folded, "www." aside ("" when it has none)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.")


_SECOND_LEVEL = frozenset(["co", "com", "org", "net", "ac", "gov"])  # co.uk, com.sg


def _country_site(site: str) -> tuple[str, str]:
    """(the board, the country) of a site made for one country: ("adzuna", "at") for
    adzuna.at, ("adzuna", "uk") for adzuna.co.uk, ("indeed", "de") for de.indeed.com;
    ("", "") for a site of no country's (himalayas.app, jobs.workable.com)."""
    labels = site.split(".")
    if len(labels) == 2 and labels[-1] == "com":
        return labels[0], "com"  # adzuna.com: its site for the US, beside adzuna.ca
    if len(labels) >= 2 and len(labels[-1]) == 2:
        rest = labels[:-1]
        if len(rest) >= 2 and rest[-1] in _SECOND_LEVEL:
            rest = rest[:-1]
        return rest[-1], labels[-1]
    if len(labels) >= 3 and len(labels[0]) == 2:
        return labels[-2], labels[0]
    return "", ""


# Boards that carry employers' own ads, or link each to it: the boards hunter reads (its
# presets, docs/sources.md) and those its users read by page, and the employers' own
# applicant tracking systems. A copycat site is none of them.
_JOB_BOARDS = frozenset(
    [
        "adzuna", "arbeitnow", "eleduck", "fastwork", "freelancer", "greenhouse", "himalayas",
        "indeed", "jobicy", "jobsdb", "jobthai", "lever", "linkedin", "personio", "recruitee",
        "remoteok", "remotive", "smartrecruiters", "v2ex", "weworkremotely", "workable",
        "workingnomads", "ycombinator",
    ]
)  # fmt: skip


def job_board(site: str) -> bool:
    """Whether `site` (site_of) is one of _JOB_BOARDS' ("de.indeed.com", "adzuna.co.uk",
    "jobs.workable.com"), not a site that shows their titles."""
    labels = site.split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL:
        labels = labels[:-1]
    return len(labels) >= 2 and labels[-2] in _JOB_BOARDS


def two_countries_sites(a: str, b: str) -> bool:
    """Whether `a` and `b` are one board's sites for two countries (adzuna.at, adzuna.ch)."""
    board, country = _country_site(a)
    other, elsewhere = _country_site(b)
    return bool(board) and board == other and country != elsewhere
