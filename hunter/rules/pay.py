"""Pay as sites write it: amounts, the currency, the period, and the floors a user sets.

Pure, no I/O. Boards write pay in every way there is: numbers (Freelancer's budget.minimum with
a currency per project), free text ("฿50,000 \u2013 ฿75,000 per month", "$40k - $60k",
"25,000 - 35,000"), and words that say nothing is stated ("ตามตกลง", "negotiable"). hunter keeps
the amounts, the currency (ISO 4217) and the period ("" for a whole job, or hour, day, week,
month, year), so that a card shows pay whole and `min_budget` compares like with like: a floor
of ฿30,000 a month never judges a job paid $25 an hour, and pay not stated is never hidden.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice

from hunter.errors import ConfigError
from hunter.rules.filter_config import FilterConfig, PayFloor


class _Pattern:
    """A regular expression compiled at its first use: a cron run that parses no page and
    reads no floor (a quiet poll) never compiles the fifteen below, about 6 ms of its start
    (bench/peer.py)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    def __call__(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled


MAX_BUDGET = 10**11  # beyond any real budget (฿100 billion): a typo or poison, not stated
PAY_TEXT_MAX = 200  # what of a pay text is read: its amount, currency, period and bound
PERIODS = ("hour", "day", "week", "month", "year")  # and "" for a whole job
# A source may only guess its pay's period ("year?": Remotive's "$55k - $100k" says none): a
# guess is shown with its question mark and no floor ever judges it (pay is never hidden on
# a guess).
GUESSES = tuple(f"{period}?" for period in PERIODS)
HOME = PayFloor(0, "THB", "")  # what a bare number means: baht for a whole job

# A number and its multiplier word; "m" of "monthly" or "months" is no million. Europe's boards
# group thousands with a dot and write cents after a comma ("26.000 €", "1.234,56 zł"): a dot
# before three digits and no more is a thousands' mark (no pay is written "1.500" for 1.5).
_NUMBER = _Pattern(
    r"(\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.,])|\d[\d,\s]*(?:\.\d+)?)"
    r"\s*([kKmM](?![A-Za-z])|พัน|หมื่น|แสน|ล้าน)?"
)
_DOTTED = _Pattern(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?")
_MULTIPLIERS = {
    "k": 1_000,
    "m": 1_000_000,
    "พัน": 1_000,
    "หมื่น": 10_000,
    "แสน": 100_000,
    "ล้าน": 1_000_000,
}
_PLAIN_NUMBER = _Pattern(r"\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*|\s*[-+]?(inf|nan)\s*", re.I)
_UNIT = r"(?:[฿$€£¥₹]|thb|usd|eur|pln|zł|baht|บาท)?"
# Between a range's two numbers: a dash (hyphen, en, em), "~", "to" or "ถึง", currency aside.
_RANGE = _Pattern(rf"\s*{_UNIT}\s*(?:-|\u2013|\u2014|~|to|ถึง)\s*{_UNIT}\s*", re.IGNORECASE)

# Currency as written beside an amount: the prefixed dollars before the bare "$".
_SIGNS = {
    "US$": "USD", "S$": "SGD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD",
    "NZ$": "NZD", "HK$": "HKD", "R$": "BRL", "MX$": "MXN", "$": "USD", "฿": "THB", "€": "EUR",
    "£": "GBP", "₹": "INR", "¥": "JPY", "₱": "PHP", "₫": "VND", "₩": "KRW", "zł": "PLN",
    "Kč": "CZK",
}  # fmt: skip
_CODES = frozenset({
    "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR", "INR",
    "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB", "TWD",
    "USD", "VND", "ZAR",
})  # fmt: skip
_CURRENCY = _Pattern(
    "|".join(re.escape(sign) for sign in sorted(_SIGNS, key=len, reverse=True))
    + r"|\b(?:"
    + "|".join(_CODES)
    + r")\b|บาท|\b(?i:baht)\b"
)  # codes in capitals only: "php" in a text is more likely the language than the peso
# The period in words, Thai and English, as an item's field says it ("hourly", "Month").
_PERIOD_WORDS = {
    "hour": r"hours?|hourly|hrs?|h|ชั่วโมง|ชม\.?",
    "day": r"days?|daily|วัน",
    "week": r"weeks?|weekly|wk|สัปดาห์|อาทิตย์",
    "month": r"months?|monthly|mo|mth|เดือน",
    "year": r"years?|yearly|annual(?:ly)?|yr|p\.?a\.?|ปี",
    "": r"fixed|project|job|one[- ]off|งาน|โปรเจกต์",
}
_PERIOD_WORD = {
    period: _Pattern(rf"(?:per\s+|an?\s+|/\s*|ต่อ)?(?:{words})", re.I)
    for period, words in _PERIOD_WORDS.items()
}
# ... and as a pay text says it after an amount: "per month", "/hr", "a year", "monthly",
# "p.a.", "ต่อเดือน", "/เดือน", "เดือนละ". A bare word ("12 months contract") says no period.
# ... and Europe's boards: "pro Jahr", "/Monat", "al año", "por hora", "par mois", "/mies.",
# "brutto/Jahr", "monatlich", "rocznie"
_PERIOD_IN_TEXT = {  # period: (nouns after per, a, /, ต่อ; adjectives; Thai "<noun>ละ")
    "hour": (r"hours?|hrs?|h|ชั่วโมง|ชม\.?|stunde|std\.?|hora|heure|godz\.?", r"hourly", "ชั่วโมง"),
    "day": (r"days?|วัน|tag|d[ií]a|jour|dzie[nń]", r"daily", "วัน"),
    "week": (r"weeks?|wk|สัปดาห์|woche|semana|semaine|tydzie[nń]", r"weekly", "สัปดาห์"),
    "month": (
        r"months?|mo|mth|เดือน|monat|m[eê]s|mois|mies\.?|miesi[aą]c",
        r"monthly|monatlich|mensual|mensuel|miesi[eę]cznie",
        "เดือน",
    ),
    "year": (
        r"years?|yr|annum|ปี|jahr|a[nñ]o|an|rok",
        r"yearly|annual(?:ly)?|p\.a\.|j[aä]hrlich|anual|annuel|rocznie",
        "ปี",
    ),
}
_PERIOD_TEXT = _Pattern(  # one pass for all five; a group per period and form ("month_n")
    r"(?:\b(?:per|an?|pro|al|por|par|im|na)\s+|\b(?:de|à)\s+l['\u2019]\s*|/\s*|ต่อ\s*)(?:"
    + "|".join(f"(?P<{p}_n>{nouns})" for p, (nouns, _a, _t) in _PERIOD_IN_TEXT.items())
    + r")(?![A-Za-z])|\b(?:"
    + "|".join(f"(?P<{p}_a>{adjectives})" for p, (_n, adjectives, _t) in _PERIOD_IN_TEXT.items())
    + ")|(?:"
    + "|".join(f"(?P<{p}_t>{thai})" for p, (_n, _a, thai) in _PERIOD_IN_TEXT.items())
    + ")ละ",
    re.I,
)
FLOOR_MAX = 60  # "US$ 80,000 per year" is 19 characters: a longer text is no floor
# How a user writes a floor: "$25/hour", "฿30,000 per month", "80000 THB a year".
FLOOR_EXAMPLE = '"฿30,000 per month", "$25/hour" or a number (baht for a whole job)'


def parse_budget(value: object) -> int | None:
    """ "฿12,000" -> 12000, "5,000 - 10,000 บาท" -> 5000 (a range's lower end), "1.5k" ->
    1500, 800 -> 800. None when no amount is stated: no number, 0 or "0" (how Fastwork says
    "not stated"), or a number beyond any real budget."""
    return parse_budget_range(value)[0]


def parse_budget_range(value: object) -> tuple[int | None, int | None]:
    """(low, high) of a budget as written: "5,000 - 10,000" -> (5000, 10000), "฿800" ->
    (800, None)."""
    if value is None or isinstance(value, bool):
        return None, None
    if isinstance(value, int | float):
        return _amount(value), None
    # A pay says it early, in few words: reading a bounded, whitespace-folded text keeps the
    # patterns below linear whatever a page puts in the field.
    text = " ".join(str(value)[: PAY_TEXT_MAX * 4].split())[:PAY_TEXT_MAX]
    if _PLAIN_NUMBER().fullmatch(text):  # written as JSON or Python would: "1e400", "12.5"
        return _amount(float(text)), None
    found = list(islice((m for m in _NUMBER().finditer(text) if m.group(1).strip()), 2))
    if not found:
        return None, None
    low = _amount_of(found[0])
    high = None
    if len(found) > 1 and _RANGE().fullmatch(text[found[0].end() : found[1].start()]):
        high = _amount_of(found[1])
    return low, high if high and low and high > low else None


def _amount_of(match: re.Match[str]) -> int | None:
    written = match.group(1)
    if _DOTTED().fullmatch(written):
        digits = written.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"\d+,\d{1,2}", written.strip()):  # "22,50 $ de l'heure": cents
        digits = written.strip().replace(",", ".")
    else:
        digits = re.sub(r"[,\s]", "", written)
    try:
        amount = float(digits)
    except ValueError:
        return None
    return _amount(amount * _MULTIPLIERS.get((match.group(2) or "").lower(), 1))


def _amount(amount: float) -> int | None:
    """A whole amount, or None when it is not a budget anyone states (under 1, which would
    show as 0; negative; absurd)."""
    if not 1 <= amount <= MAX_BUDGET:  # also False for NaN and infinity; exact for huge ints
        return None
    return int(amount)


def currency_in(text: str) -> str | None:
    """The currency a pay text is written in ("฿50,000" -> THB, "S$5k" -> SGD), if it says."""
    match = _CURRENCY().search(text)
    if match is None:
        return None
    found = match.group()
    if found.lower() in ("บาท", "baht"):
        return "THB"
    return _SIGNS.get(found) or (found.upper() if found.upper() in _CODES else None)


def currency_code(value: object) -> str | None:
    """An item's own currency field ("USD", "inr") as an ISO 4217 code; None if it is none."""
    if isinstance(value, str) and re.fullmatch(r"\s*[A-Za-z]{3}\s*", value):
        return value.strip().upper()
    return None


def period_in(text: str) -> str | None:
    """The period a pay text states ("... per month" -> "month", "$30/hr" -> "hour")."""
    found = _PERIOD_TEXT().search(text)
    return found.lastgroup.partition("_")[0] if found and found.lastgroup else None


# One amount that is a bound, not the pay: "30,000+", "15,000 บาทขึ้นไป", "from $50/hr" (the
# least), "up to ฿20,000", "ไม่เกิน 20,000" (the most).
_AT_LEAST = _Pattern(
    r"\d\s*[kKmM]?\s*\+|ขึ้นไป|เป็นต้นไป|เริ่มต้น|\b(?:or more|and (?:up|above)|from|starting)\b",
    re.I,
)
_AT_MOST = _Pattern(r"ไม่เกิน|สูงสุด|\b(?:up to|max(?:imum)?\.?|at most)(?![A-Za-z])", re.I)


def bound_in(text: str) -> str:
    """ "from" when a pay text states only its least ("30,000+"), "up to" when only its most
    ("up to ฿20,000"), "" otherwise (an amount, a range, or no words for either)."""
    if _AT_MOST().search(text):
        return "up to"
    return "from" if _AT_LEAST().search(text) else ""


def period_of(value: object) -> str | None:
    """An item's own period field as a period: "hourly" -> "hour", "Monthly" -> "month",
    "fixed" -> "" (a whole job); None when the value is no period hunter knows."""
    if not isinstance(value, str):
        return None
    word = value.strip()
    for period, pattern in _PERIOD_WORD.items():
        if pattern().fullmatch(word):
            return period
    return None


def read_min_budget(value: object, where: str) -> tuple[int, tuple[PayFloor, ...]]:
    """`min_budget` as written: a number (baht for a whole job), a text with its currency and
    period ("$25/hour"), or a list of them, one per currency and period: (the baht-per-job
    floor, the floors in other terms), a FilterConfig's `min_budget` and `min_pay`."""
    written = value if isinstance(value, list) else [value]
    found: dict[tuple[str, str], PayFloor] = {}
    for item in written:
        floor = _floor(item, where)
        key = (floor.currency, floor.period)
        if key in found:
            raise ConfigError(
                f"{where}: min_budget has two floors in {describe_terms(*key)}; keep one"
            )
        found[key] = floor
    home = found.pop((HOME.currency, HOME.period), HOME)
    return home.amount, tuple(found.values())


def _floor(item: object, where: str) -> PayFloor:
    problem = f"{where}: min_budget must be {FLOOR_EXAMPLE}, or a list of them; got {item!r}"
    if isinstance(item, bool):
        raise ConfigError(problem)
    if isinstance(item, int | float):
        if not 0 <= item <= MAX_BUDGET or int(item) != item:
            raise ConfigError(problem)
        return PayFloor(int(item), HOME.currency, HOME.period)
    floor = parse_floor(item) if isinstance(item, str) else None
    if floor is None:
        raise ConfigError(problem)
    return floor


_SIGN = "|".join(re.escape(sign) for sign in sorted(_SIGNS, key=len, reverse=True))
_PER = "|".join(
    [
        *(
            rf"(?:per|an?|/|ต่อ)\s*(?:{nouns})|{adjectives}|{thai}ละ"
            for nouns, adjectives, thai in _PERIOD_IN_TEXT.values()
        ),
        r"(?:per|an?|/|ต่อ)\s*(?:project|job|งาน)|fixed",  # a whole job, said outright
    ]
)
# A floor as a person writes one, and nothing else: "$25/hour", "฿30,000 ต่อเดือน",
# "30000 THB a month", "เดือนละ 30000", "5k". Any other word makes it no floor, so that
# "30000 เดือน" is refused rather than read as baht for a whole job.
# Commas group thousands, three digits each: "1,,,,0" is no amount (it read as 10).
_AMOUNT = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_FLOOR = _Pattern(
    rf"(?:{_PER})?\s*(?P<sign>{_SIGN})?\s*(?P<amount>{_AMOUNT})\s*(?P<k>k)?\s*"
    rf"(?P<code>[a-z]{{3}}|บาท|baht)?\.?\s*(?:{_PER})?\.?",
    re.IGNORECASE,
)


def parse_floor(text: str) -> PayFloor | None:
    """The floor `text` writes ("$25/hour" -> 25 USD per hour, "5,000" -> 5,000 THB a whole
    job, "0" lifts one); None when it is none, or a range, or says more than a floor."""
    text = " ".join(text.split())  # one space at most between parts: no costly backtracking
    if len(text) > FLOOR_MAX:
        return None
    match = _FLOOR().fullmatch(text)
    if match is None:
        return None
    code = (match["code"] or "").upper()
    if code and code not in _CODES and code not in ("บาท", "BAHT"):
        return None
    try:
        amount = float(match["amount"].replace(",", "")) * (1000 if match["k"] else 1)
    except ValueError:
        return None
    if amount > MAX_BUDGET or amount != int(amount):
        return None
    sign = _SIGNS.get((match["sign"] or "").upper()) if match["sign"] else None
    currency = sign or ("THB" if code in ("บาท", "BAHT") else code) or HOME.currency
    return PayFloor(int(amount), currency, period_in(text) or "")


def floor_for(rules: FilterConfig, currency: str, period: str) -> int:
    """The floor `rules` set for pay in `currency` per `period`; 0 when they set none."""
    if (currency, period) == (HOME.currency, HOME.period):
        return rules.min_budget
    for floor in rules.min_pay:
        if (floor.currency, floor.period) == (currency, period):
            return floor.amount
    return 0


SYMBOLS = {
    "THB": "฿", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "SGD": "S$",
    "AUD": "A$", "CAD": "C$", "NZD": "NZ$", "HKD": "HK$", "PHP": "₱", "VND": "₫", "KRW": "₩",
}  # fmt: skip
# A period as a Thai and an English reader say it after an amount.
PER = {
    "hour": "ต่อชั่วโมง · per hour",
    "day": "ต่อวัน · per day",
    "week": "ต่อสัปดาห์ · per week",
    "month": "ต่อเดือน · per month",
    "year": "ต่อปี · per year",
}


def amount_text(amount: int, currency: str) -> str:
    """ "฿5,000", "$120", "MYR 3,000" (a code where hunter knows no sign)."""
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{amount:,}" if symbol else f"{currency} {amount:,}"


def pay_text(low: int, high: int | None, currency: str, period: str, bound: str = "") -> str:
    """Pay whole: "฿50,000" EN DASH "75,000 ต่อเดือน · per month", "$25 ต่อชั่วโมง · per hour",
    "฿15,000+" (from), "≤ ฿20,000" (up to)."""
    text = amount_text(low, currency)
    if high is not None:
        text += f"\u2013{high:,}"  # an en dash, as ranges are printed
    elif bound == "from":
        text += "+"
    elif bound == "up to":
        text = f"\u2264 {text}"
    return f"{text} {per(period)}" if period else text


def per(period: str) -> str:
    """ "ต่อปี · per year", and for a guess "ต่อปี? · per year?"; "" for a whole job."""
    if period in GUESSES:
        return " · ".join(f"{words}?" for words in PER[period[:-1]].split(" · "))
    return PER.get(period, "")


def describe_terms(currency: str, period: str) -> str:
    """ "THB a whole job", "USD per hour": the terms of a floor, in words."""
    return f"{currency} {'per ' + period if period else 'a whole job'}"


def describe_floors(rules: FilterConfig) -> Iterable[str]:
    """Each floor in words: "3,000 THB a whole job", "25 USD per hour"."""
    if rules.min_budget:
        yield f"{rules.min_budget:,} {describe_terms(HOME.currency, HOME.period)}"
    for floor in rules.min_pay:
        yield f"{floor.amount:,} {describe_terms(floor.currency, floor.period)}"
