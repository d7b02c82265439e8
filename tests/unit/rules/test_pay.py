"""Pay as sites write it (hunter/rules/pay.py): one table of texts as the boards write them, one of
floors against listings, and the card's words. A floor judges only pay in its own currency and
period; pay not stated, or in other terms, is never hidden."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunter.errors import ConfigError
from hunter.rules.filter_config import FilterConfig, PayFloor
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.pay import MAX_BUDGET, PERIODS, parse_budget_range, parse_floor, read_min_budget
from hunter.settings.config import parse_config
from hunter.sources.extract import Details, make_listing
from hunter.words.details import money


@pytest.mark.parametrize(
    ("written", "source_terms", "pay"),
    [
        # JobsDB's salaryLabel: both ends carry the sign, the period in words
        ("฿50,000 – ฿75,000 per month", ("THB", "month"), (50000, 75000, "THB", "month")),
        # JobThai's salary: numbers only, a month's by the preset
        ("25,000 - 35,000", ("THB", "month"), (25000, 35000, "THB", "month")),
        ("ตามตกลง", ("THB", "month"), (None, None, "THB", "month")),  # negotiable: not stated
        ("Negotiable", ("THB", "month"), (None, None, "THB", "month")),
        # Remotive's salary: free text, yearly unless it says
        ("$40k - $60k", ("USD", "year"), (40000, 60000, "USD", "year")),
        ("$30/hr", ("USD", "year"), (30, None, "USD", "hour")),
        ("€50k a year", ("USD", "year"), (50000, None, "EUR", "year")),
        ("S$5,000 monthly", ("USD", "year"), (5000, None, "SGD", "month")),  # "m" no million
        ("USD 120 per day", ("THB", ""), (120, None, "USD", "day")),
        ("$80,000 p.a.", ("USD", ""), (80000, None, "USD", "year")),
        ("15,000 บาท/เดือน", ("USD", ""), (15000, None, "THB", "month")),
        ("เดือนละ 20,000", ("THB", ""), (20000, None, "THB", "month")),
        ("ชั่วโมงละ 300 บาท", ("THB", ""), (300, None, "THB", "hour")),
        ("₹40,000", ("USD", ""), (40000, None, "INR", "")),
        ("12 months contract", ("THB", ""), (12, None, "THB", "")),  # a bare word: no period
        # Europe's boards group thousands with a dot and say the period in their language:
        # "26.000 €" was 26 euros
        ("26.000 € - 30.000 € al año", ("USD", ""), (26000, 30000, "EUR", "year")),
        ("45.000 - 55.000 EUR brutto/Jahr", ("USD", ""), (45000, 55000, "EUR", "year")),
        ("80.000 € pro Jahr", ("USD", ""), (80000, None, "EUR", "year")),
        ("1.234,56 € pro Monat", ("USD", ""), (1234, None, "EUR", "month")),
        ("5.000 - 7.000 zł / mies.", ("USD", ""), (5000, 7000, "PLN", "month")),
        ("15 000 – 20 000 PLN brutto miesięcznie", ("USD", ""), (15000, 20000, "PLN", "month")),
        ("R$ 8.000 por mês", ("USD", ""), (8000, None, "BRL", "month")),
        ("25 € por hora", ("USD", ""), (25, None, "EUR", "hour")),
        ("$1.5k", ("USD", ""), (1500, None, "USD", "")),  # a decimal point stays one
        # Cents after a comma, and French's hour (issue 69: "22,50 $" was 2,250 dollars)
        ("22,50 $ de l'heure", ("USD", ""), (22, None, "USD", "hour")),
        ("30 € à l’heure", ("USD", ""), (30, None, "EUR", "hour")),
        ("12,5k €", ("USD", ""), (12500, None, "EUR", "")),
        ("15,000 บาท", ("USD", ""), (15000, None, "THB", "")),  # three digits: thousands
    ],
)
def test_pay_texts_keep_their_currency_and_period(
    written: str, source_terms: tuple[str, str], pay: tuple[object, ...]
) -> None:
    currency, period = source_terms
    listing = make_listing(
        "s", "1", "t", "", written, "", Details(currency=currency, period=period)
    )
    assert listing is not None
    assert (listing.budget, listing.budget_max, listing.currency, listing.period) == pay


@pytest.mark.parametrize(
    ("written", "card"),
    [
        ("30,000+", "฿30,000+ ต่อเดือน · per month"),
        ("15,000 บาทขึ้นไป", "฿15,000+ ต่อเดือน · per month"),  # JobThai's "and up"
        ("25,000 บาท เป็นต้นไป", "฿25,000+ ต่อเดือน · per month"),
        ("up to ฿20,000", "\u2264 ฿20,000 ต่อเดือน · per month"),
        ("ไม่เกิน 20,000", "\u2264 ฿20,000 ต่อเดือน · per month"),
        ("from $50/hr", "$50+ ต่อชั่วโมง · per hour"),
        ("20,000 - 30,000+", "฿20,000\u201330,000 ต่อเดือน · per month"),  # a range: both ends
        ("ตามตกลง", "งบไม่ระบุ · budget not stated"),
    ],
)
def test_a_bound_is_shown_as_one(written: str, card: str) -> None:
    """A pay that states only its least or its most says so on the card; the floor compares
    the amount it states."""
    listing = make_listing("s", "1", "t", "", written, "", Details(currency="THB", period="month"))
    assert listing is not None and money(listing) == card


@pytest.mark.parametrize(
    ("item_currency", "item_period", "expected"),
    [
        ("INR", "fixed", ("INR", "")),  # Freelancer's project in rupees, a fixed price
        ("usd", "hourly", ("USD", "hour")),
        ("GBP", "month", ("GBP", "month")),  # Himalayas' salaryPeriod
        (None, None, ("USD", "year")),  # the source's own terms
        ("dollars", "sometimes", ("USD", "year")),  # no code, no period: the source's
    ],
)
def test_an_items_own_fields_win_over_the_sources_terms(
    item_currency: object, item_period: object, expected: tuple[str, str]
) -> None:
    more = Details(
        currency="USD", period="year", item_currency=item_currency, item_period=item_period
    )
    listing = make_listing("s", "1", "t", "", 500, "", more)
    assert listing is not None and (listing.currency, listing.period) == expected


def pay(
    budget: int | None, currency: str = "THB", period: str = "", high: int | None = None
) -> Listing:
    return Listing(
        "s:1", "s", "python job", "", budget, budget_max=high, currency=currency, period=period
    )


FLOORS = ["฿3,000", "$25/hour", "฿30,000 per month"]


@pytest.mark.parametrize(
    ("listing", "shown", "why"),
    [
        (pay(2000), False, "budget 2,000 is under 3,000 (THB a whole job)"),
        (pay(3000), True, ""),
        (pay(2000, high=4000), True, ""),  # the most it offers reaches the floor
        (pay(None), True, ""),  # not stated: never hidden
        (pay(20, "USD", "hour"), False, "budget 20 is under 25 (USD per hour)"),
        (pay(40, "USD", "hour"), True, ""),
        (pay(25000, "THB", "month"), False, "budget 25,000 is under 30,000 (THB per month)"),
        (pay(25000, "THB", "month", high=35000), True, ""),
        (pay(500, "USD", ""), True, ""),  # a fixed price in dollars: no floor in those terms
        (pay(100, "INR", "hour"), True, ""),  # rupees are never judged against dollars
        (pay(2000, "THB", "hour"), True, ""),  # nor an hour's pay against a whole job's
    ],
)
def test_a_floor_judges_only_pay_in_its_own_terms(listing: Listing, shown: bool, why: str) -> None:
    [source] = parse_config(
        {"sources": [{"preset": "fastwork"}], "filter": {"min_budget": FLOORS}}
    ).sources
    verdict = judge(listing, source.filter)
    assert verdict.matched is shown
    assert why in verdict.reason


def test_a_bare_number_is_baht_for_a_whole_job_as_released() -> None:
    [source] = parse_config({"sources": [{"preset": "fastwork", "min_budget": 5000}]}).sources
    assert source.filter == FilterConfig(min_budget=5000)
    assert not judge(pay(4999), source.filter).matched
    assert judge(pay(4999, "USD", "year"), source.filter).matched  # RemoteOK's: other terms


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("cheap", "min_budget must be"),
        ("$20 - $30", "min_budget must be"),  # a range is no floor
        (-1, "min_budget must be"),
        (1.5, "min_budget must be"),
        (True, "min_budget must be"),
        ([3000, "฿4,000"], "two floors in THB a whole job"),
        (["$25/hr", "$30 per hour"], "two floors in USD per hour"),
        ({"amount": 3}, "min_budget must be"),
    ],
)
def test_floors_that_cannot_be_read_are_one_line_errors(written: object, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse_config({"sources": [{"preset": "fastwork"}], "filter": {"min_budget": written}})


def test_chats_take_floors_the_same_way() -> None:
    chat = {"name": "jobs", "to": "C" + "0" * 32, "min_budget": ["฿40,000 per month"]}
    config = parse_config({"sources": [{"preset": "jobsdb"}], "chats": [chat]})
    [configured], [source] = config.chats, config.sources
    rules = configured.filter_for(source.filter)
    assert rules.min_pay == (PayFloor(40000, "THB", "month"),) and rules.min_budget == 0


@pytest.mark.parametrize(
    ("listing", "card"),
    [
        (pay(50000, "THB", "month", high=75000), "฿50,000\u201375,000 ต่อเดือน · per month"),
        (pay(25, "USD", "hour"), "$25 ต่อชั่วโมง · per hour"),
        (pay(40000, "INR", ""), "₹40,000"),
        (pay(3000, "MYR", "month"), "MYR 3,000 ต่อเดือน · per month"),
        (pay(None, "USD", "year"), "งบไม่ระบุ · budget not stated"),
    ],
)
def test_the_card_shows_pay_whole(listing: Listing, card: str) -> None:
    assert money(listing) == card


def test_a_listing_stored_before_periods_reads_as_a_whole_job() -> None:
    stored = {"source": "s", "title": "t", "url": "", "budget": 5000, "currency": "THB"}
    assert Listing.from_payload("s:1", stored).period == ""
    assert Listing.from_payload("s:1", stored).bound == ""
    assert Listing.from_payload("s:1", pay(25, "USD", "hour").payload()).period == "hour"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=60) | st.sampled_from(["฿50,000 – ฿75,000 per month", "$5M/yr", "1e400"]))
def test_any_pay_text_reads_or_is_refused_in_one_line(text: str) -> None:
    listing = make_listing("s", "1", "t", "", text, "", Details(currency="THB", period="month"))
    assert listing is not None and re.fullmatch("[A-Z]{3}", listing.currency)
    assert listing.period in ("", *PERIODS)
    assert listing.budget is None or 0 < listing.budget <= MAX_BUDGET
    try:
        _budget, floors = read_min_budget([text], "[filter]")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("[filter]: min_budget")
    else:
        assert all(f.amount > 0 and f.period in ("", *PERIODS) for f in floors)


@pytest.mark.parametrize(
    "text",
    ["1" + " " * 5000 + "x", "งบ " + "9" * 5000, "$" + " " * 5000 + "5 x", ("1" + " " * 50) * 2000],
)
def test_hostile_pay_texts_are_read_at_once(text: str) -> None:
    """Texts a chat message or a page could hold that made the floor's pattern backtrack for
    hours (a digit, 5,000 spaces, a letter): refused or read, never stuck."""
    assert parse_floor(text) is None
    listing = make_listing("s", "1", "t", "", text, "", Details())
    assert listing is not None and listing.period == ""


@pytest.mark.parametrize(
    ("text", "pay"),
    [
        ("1-" + " " * 100_000 + "x2", (1, None)),  # the range pattern backtracked on this
        ("5,000" + " " * 100_000 + "- 8,000", (5000, None)),  # past what a pay says early
        ("฿5,000   -\n\t 8,000", (5000, 8000)),  # folded spaces still make a range
    ],
)
def test_a_pay_text_is_read_from_its_start_in_linear_time(
    text: str, pay: tuple[int | None, int | None]
) -> None:
    assert parse_budget_range(text) == pay


def test_every_pattern_is_valid_though_compiled_at_first_use() -> None:
    """pay compiles its patterns when first used (a quiet cron run uses none): a broken one
    would not fail at import, so each is compiled here."""
    from hunter.rules import pay

    patterns = [v for v in vars(pay).values() if isinstance(v, pay._Pattern)]
    patterns += pay._PERIOD_WORD.values()
    assert len(patterns) == 15
    assert all(isinstance(pattern(), re.Pattern) for pattern in patterns)
