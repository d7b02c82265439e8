"""Parsers, data-driven: a page, its source's selectors, the listings expected from it.

The pages in ../shared/fixtures/real were captured from real sites by other people; the tests
that read them skip (saying why) on a clone without ../shared. The small pages here are
written for the case they test; feeds and the Fastwork-shaped sample are in
tests/integration/sources/test_feeds.py.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.pay import parse_budget, parse_budget_range
from hunter.settings.config import parse_config
from hunter.sources.extract import canonical_url, fix_mojibake
from hunter.sources.reader import parse
from hunter.words.details import money

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
REAL = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "real"
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/fixtures/real is not here (a user's clone); CI has it"
)

ODESK = {
    "name": "odesk",
    "kind": "html",
    "url": "https://www.odesk.com/jobs/?q=",
    "item": "article.oJobTile",
    "id": "@data-id",
    "title": "h1.oRowTitle a",
    "link": "h1.oRowTitle a@href",
    "budget": ".jsBudget",
    "summary": ".jsTruncated",
}
REMOTEOK = {"preset": "remoteok"}  # its url, paths and `where` come from the preset
ODESK_JOBS = "https://www.odesk.com/jobs/"

# page file, source, listings expected, skipped, then (index, id, title, link, budget) rows
CASES: list[tuple[str, dict[str, Any], int, int, list[tuple[int, str, str, str, int | None]]]] = [
    (
        "odesk-search.html",
        ODESK,
        10,
        0,
        [
            (
                0,
                "odesk:~015374e4dd7938042f",
                "IOS and Android Tour App",
                ODESK_JOBS + "IOS-and-Android-Tour-App_%7E015374e4dd7938042f",
                500,
            ),
            (
                1,
                "odesk:~012efa5e628d98922f",
                "09162014_173364_Translation_French_350",
                ODESK_JOBS + "09162014_173364_Translation_French_350_%7E012efa5e628d98922f",
                7,
            ),
            (
                2,
                "odesk:~01d52c4a9d742dbead",
                "Homepage redesign - design only",
                ODESK_JOBS + "Homepage-redesign-design-only_%7E01d52c4a9d742dbead",
                500,
            ),
            (
                3,
                "odesk:~0103d31cd8b9b2ef05",
                "Part-Time College Admissions Essay Expert",
                ODESK_JOBS + "Part-Time-College-Admissions-Essay-Expert_%7E0103d31cd8b9b2ef05",
                None,
            ),
            (
                4,
                "odesk:~017c57ec9c3dd93a81",
                "Spreadsheet Research",
                ODESK_JOBS + "Spreadsheet-Research_%7E017c57ec9c3dd93a81",
                13,
            ),
            (
                5,
                "odesk:~01407b54f6a4f73615",
                "Writer needed for homemade beauty product guides",
                ODESK_JOBS
                + "Writer-needed-for-homemade-beauty-product-guides_%7E01407b54f6a4f73615",
                20,
            ),
            (
                6,
                "odesk:~01ab11b3591b2cb01d",
                "Simple one item shopping cart",
                ODESK_JOBS + "Simple-one-item-shopping-cart_%7E01ab11b3591b2cb01d",
                200,
            ),
            (
                7,
                "odesk:~01190f79211b81f8e0",
                "Web banner creation for online advertising",
                ODESK_JOBS + "Web-banner-creation-for-online-advertising_%7E01190f79211b81f8e0",
                75,
            ),
            (
                8,
                "odesk:~012e43851e136fd84a",
                "Video House",
                ODESK_JOBS + "Video-House_%7E012e43851e136fd84a",
                100,
            ),
            (
                9,
                "odesk:~012df1b84c43dca7d8",
                "Write 5 articles about Financial planning",
                ODESK_JOBS + "Write-articles-about-Financial-planning_%7E012df1b84c43dca7d8",
                30,
            ),
        ],
    ),
    # 98 elements: the legal notice is no listing (`where`), one job without a title is skipped.
    (
        "remoteok-api.json",
        REMOTEOK,
        96,
        1,
        [
            (
                0,
                "remoteok:1097929",
                "Engineering Lead",
                "https://remoteOK.com/remote-jobs/remote-engineering-lead-aragon-1097929",
                60000,
            ),
            (
                1,
                "remoteok:1096950",
                "Python Developer",
                "https://remoteOK.com/remote-jobs/remote-python-developer-ampcontrol-1096950",
                60000,
            ),
            (
                3,
                "remoteok:1096434",
                "Freelance Python Contributor Project Aurora",
                "https://remoteOK.com/remote-jobs/"
                "remote-freelance-python-contributor-project-aurora-datacurve-1096434",
                100000,
            ),
            (
                95,
                "remoteok:1093761",
                "Account Executive",
                "https://remoteOK.com/remote-jobs/remote-account-executive-coingecko-1093761",
                50000,
            ),
        ],
    ),
]


def source_of(raw: dict[str, Any]) -> Any:
    return parse_config({"sources": [raw]}).sources[0]


@needs_real
@pytest.mark.parametrize(
    ("page", "raw", "count", "skipped", "rows"), CASES, ids=[c[0] for c in CASES]
)
def test_real_pages(
    page: str,
    raw: dict[str, Any],
    count: int,
    skipped: int,
    rows: list[tuple[int, str, str, str, int | None]],
) -> None:
    text = (REAL / page).read_text(encoding="utf-8")
    result = parse(source_of(raw), text, source_of(raw).url, NOW)
    assert (len(result.listings), result.skipped) == (count, skipped)
    for index, job_id, title, link, budget in rows:
        got = result.listings[index]
        assert (got.job_id, got.title, got.url, got.budget) == (job_id, title, link, budget)
    assert len({x.job_id for x in result.listings}) == count


@needs_real
def test_remoteok_mojibake_is_repaired() -> None:
    text = (REAL / "remoteok-api.json").read_text(encoding="utf-8")
    summaries = {x.job_id: x.summary for x in parse(source_of(REMOTEOK), text, "", NOW).listings}
    assert "Send a résumé or portfolio" in summaries["remoteok:1093859"]
    assert "transformação tecnológica" in summaries["remoteok:1093856"]
    assert "<b>" not in summaries["remoteok:1093856"]  # HTML descriptions become text


SMALL_HTML = """<html><head><base href="https://board.test/th/"></head><body>
<div class="card"><a class="t" href="job?id=7&utm_source=line&fbclid=abc#top"> Python  bot </a>
<b>฿12,000 - ฿15,000</b></div>
<div class="card"><a class="t" href="/job?id=8">No budget</a></div>
<div class="card"><span>no link, no id</span></div>
<div class="card"><a class="t" href="job?id=7&utm_medium=x">Same job again</a></div>
</body></html>"""


def test_html_without_ids_uses_the_clean_link() -> None:
    raw = {
        "name": "b",
        "kind": "html",
        "url": "https://board.test/list",
        "item": ".card",
        "title": "a.t",
        "link": "a.t@href",
        "budget": "b",
    }
    result = parse(source_of(raw), SMALL_HTML, raw["url"], NOW)
    got = [(x.job_id, x.title, x.url, x.budget) for x in result.listings]
    assert got == [
        (
            "b:https://board.test/th/job?id=7",
            "Python bot",
            "https://board.test/th/job?id=7&utm_source=line&fbclid=abc#top",
            12000,
        ),
        ("b:https://board.test/job?id=8", "No budget", "https://board.test/job?id=8", None),
    ]
    assert result.skipped == 1
    assert result.warnings == [
        "duplicate id on one page: b:https://board.test/th/job?id=7",
    ]
    assert result.notes == ["3 relative links made absolute against https://board.test/th/"]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("฿12,000", 12000),
        ("5,000 - 10,000 บาท", 5000),
        ("Est. Budget: $500", 500),
        ("1.5k", 1500),
        ("2 หมื่น", 20000),
        (800, 800),
        (12.5, 12),
        ("ตามตกลง", None),
        (None, None),
        (True, None),
        ("0", None),  # Fastwork's "not stated"
        (0, None),  # RemoteOK's "not stated"
        ("", None),
        ("1e400", None),  # beyond any real budget: not stated, never an OverflowError
        ("9" * 400, None),
        (10**400, None),
        (float("inf"), None),
        (float("nan"), None),
    ],
)
def test_budgets(text: object, amount: int | None) -> None:
    assert parse_budget(text) == amount


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("5,000 - 10,000 บาท", 5000, 10000),
        ("฿12,000 – ฿18,000", 12000, 18000),
        ("3 ถึง 5 หมื่น", 3, 50000),
        ("$500", 500, None),
        ("Job 2 of 5: 3,000 baht", 2, None),  # two numbers that are no range
    ],
)
def test_budget_ranges(text: str, low: int, high: int | None) -> None:
    assert parse_budget_range(text) == (low, high)


def test_remoteok_salaries_are_us_dollars_and_zero_is_not_stated() -> None:
    source = parse_config({"sources": [REMOTEOK]}).sources[0]
    page = json.dumps(
        [
            {"legal": "API terms"},
            {
                "id": "1",
                "position": "Python Dev",
                "url": "https://remoteok.com/remote-jobs/1",
                "salary_min": 60000,
                "salary_max": 90000,
            },
            {
                "id": "2",
                "position": "Go Dev",
                "url": "https://remoteok.com/remote-jobs/2",
                "salary_min": 0,
                "salary_max": 0,
            },
        ]
    )
    paid, unstated = parse(source, page, source.url, NOW).listings
    assert money(paid) == "$60,000\u201390,000 ต่อปี · per year"
    assert money(unstated) == "งบไม่ระบุ · budget not stated"
    assert judge(unstated, FilterConfig(min_budget=5000)).matched  # never hidden by min_budget


@pytest.mark.parametrize(
    ("link", "identity"),
    [
        ("HTTPS://Board.test/j?id=1&utm_campaign=x#frag", "https://board.test/j?id=1"),
        ("https://b.test/j?id=1&fbclid=a&gclid=b&mc_cid=c&mc_eid=d", "https://b.test/j?id=1"),
        ("https://b.test/j?source=42", "https://b.test/j?source=42"),  # may be the listing
        ("https://b.test/j?ref=7&si=2&trk=3", "https://b.test/j?ref=7&si=2&trk=3"),
        ("https://b.test/j?b=2&a=1", "https://b.test/j?a=1&b=2"),  # order is not identity
        ("https://b.test/j?a=1&b=2&UTM_Source=x", "https://b.test/j?a=1&b=2"),
    ],
)
def test_only_tracking_parameters_leave_the_identity(link: str, identity: str) -> None:
    assert canonical_url(link) == identity


def test_two_listings_that_differ_in_a_parameter_stay_two() -> None:
    assert canonical_url("https://b.test/j?source=42") != canonical_url(
        "https://b.test/j?source=43"
    )


def test_mojibake_repair_leaves_clean_text_alone() -> None:
    assert fix_mojibake("Ãcole") == "Ãcole"  # not a valid UTF-8 reading: unchanged
    assert fix_mojibake("ราคา ฿500") == "ราคา ฿500"
