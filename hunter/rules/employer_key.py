"""An employer as a job's identity, for one alert per job (hunter/rules/likeness.py): its
name without its legal form ("Avanade Inc.", "บริษัท ... จำกัด", "Sp. z o.o."), nor the trade
after it ("Solvia Tech"), read in its Latin script when written in two, without its letters'
marks; a Chinese name as its own characters. Pure, no I/O."""

from __future__ import annotations

import re

from hunter.rules.text_sketch import plain as _plain
from hunter.rules.text_sketch import unmarked

_LEGAL = frozenset(
    [
        "inc",
        "incorporated",
        "ltd",
        "limited",
        "llc",
        "llp",
        "plc",
        "gmbh",
        "mbh",
        "kg",
        "ag",
        "co",
        "company",
        "corp",
        "corporation",
        "sa",
        "sas",
        "sl",
        "slu",
        "sarl",
        "srl",
        "spa",
        "bv",
        "nv",
        "pte",
        "pvt",
        "pty",
        "oy",
        "ab",
        "as",
        "se",
        "kft",
        "sro",
        "sp",
        "zoo",
        "the",
        "group",
        "cv",
        "sapi",
        "pt",
        "tbk",
        "tnhh",
        "công",
        "ty",
        "bhd",
        "sdn",
        "บริษัท",
        "จำกัด",
        "มหาชน",
        "บจก",
        "บมจ",
    ]
)
# Words after an employer's name that say its trade, not which one it is: "Solvia Tech" and
# "Solvia Tecnología, S.L." are one employer (a wrong merge loses nothing: the copy's link shows)
_TRADE_WORDS = frozenset(
    _plain(w)
    for w in [
        "tech", "technology", "technologies", "tecnologia", "tecnología", "tecnologias",
        "tecnologías", "technologie",
        "technik", "labs", "lab", "software", "solutions", "systems", "digital", "holding",
        "holdings", "international", "services", "consulting", "global",
        # a group is its name's employer: "Vandermolen Groep" and "Vandermolen B.V."
        "group", "groep", "gruppe", "grupo", "groupe", "gruppo", "grupa",
    ]
)  # fmt: skip
# ... and in Chinese, with its legal forms (有限公司: limited company), and the cities a name
# begins with (深圳微澜科技: Weilan of Shenzhen)
_HAN_FORMS = (
    "股份有限公司", "有限责任公司", "有限公司", "公司", "集团", "科技", "技术", "网络",
    "信息", "软件", "智能",
)  # fmt: skip
_HAN_CITIES = (
    "北京", "上海", "深圳", "广州", "杭州", "成都", "南京", "武汉", "西安", "苏州", "天津",
    "重庆", "厦门", "长沙", "青岛", "大连", "宁波", "合肥", "郑州", "济南", "东莞", "佛山",
    "珠海", "香港", "台北",
)  # fmt: skip
_AND = frozenset(["and", "und", "en", "et", "y", "e", "i", "u", "och", "og", "ve"])
# German public bodies' legal forms, written out or short ("KöR", "AöR").
_LEGAL_PHRASES = ("körperschaft des öffentlichen rechts", "anstalt des öffentlichen rechts")
_LEGAL_SHORT = frozenset(["kör", "aör", "ev", "eg"])

# The word lists as _plain leaves text (NFKC writes Thai's SARA AM as two characters).
_LEGAL = frozenset(_plain(w) for w in _LEGAL)
_LEGAL_SHORT = frozenset(_plain(w) for w in _LEGAL_SHORT)


def company_key(company: str) -> str:
    """The employer or client without its legal form, nor the words after its name that say
    its trade: "Avanade Inc." is "avanade", "HITS.nrw Körperschaft des öffentlichen Rechts"
    "hits nrw", "Solvia Tecnología, S.L." and "Solvia Tech" "solvia". A name in Chinese is its
    own words without its city, trade and legal form: "深圳微澜科技有限公司" is "微澜", and
    "Weilan Tech 微澜科技", a name in two scripts, "weilan|微澜" (companies_agree takes either)."""
    text = _plain(company)
    for form in _LEGAL_PHRASES:
        text = text.replace(form, " ")
    text = re.sub(r"\b([a-z]) (?=[a-z]\b)", r"\1", text)  # "S.L.", "S.A.": "sl", "sa"
    han = _han_core(text)
    words = [w for w in text.split() if w not in _LEGAL and w not in _LEGAL_SHORT]
    # "Kessler & Vogt" and "Kessler und Vogt": "and" between two names, in any language
    words = [w for n, w in enumerate(words) if not (0 < n < len(words) - 1 and w in _AND)]
    latin = [w for w in words if _LATIN_WORD.fullmatch(w)]
    if han is not None:  # "Weilan Tech 微澜科技": its Latin name too, "weilan|微澜"
        named = _name(latin) if len("".join(latin)) >= 3 else ""
        return f"{named}{ALSO}{han}" if named else han
    if latin and len(latin) < len(words) and len("".join(latin)) >= 3:
        words = latin  # "Sandpiper Beach Resort แซนด์ไพเพอร์ บีช รีสอร์ท": its name twice
    return _name(words)


def _name(words: list[str]) -> str:
    """A name's words without the trade after them, and as often written without their marks
    ("Việt Nam", "Nestlé"; a Thai name's marks are letters)."""
    words = [unmarked(w) if _LATIN_WORD.fullmatch(w) else w for w in words]
    while len(words) > 1 and words[-1] in _TRADE_WORDS:
        words.pop()
    return " ".join(words)


ALSO = "|"  # between a name's two scripts in its key: "weilan|微澜" (likeness.companies_agree)


_LATIN_WORD = re.compile(r"[a-z0-9\u00c0-\u024f\u1e00-\u1eff]+")


def _han_core(text: str) -> str | None:
    """A Chinese name's own characters: its Han run without its city first and its trade and
    legal form last (of two characters at least); None when it has no such run."""
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    if not runs:
        return None
    run = max(runs, key=len)
    run = next((run[len(c) :] for c in _HAN_CITIES if run.startswith(c)), run)
    while end := next((e for e in _HAN_FORMS if run.endswith(e) and len(run) > len(e)), ""):
        run = run[: -len(end)]
    return run if len(run) >= 2 else None
