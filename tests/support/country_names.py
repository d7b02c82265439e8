"""hunter/rules/country_names.json: the names of countries and regions in the languages hunter's
users write, as Unicode CLDR gives them (through Babel, a development dependency only: hunter
reads the file, never Babel). A chat that writes "Suiza", "泰国", "Niemcy" or "欧洲" in its
places means Switzerland, Thailand, Germany and Europe. Checked by
tests/unit/rules/test_place.py; after upgrading Babel or changing LOCALES:

    uv run python -m tests.support.country_names --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hunter.rules.gazetteer import gazetteer, key

FILE = Path(__file__).resolve().parents[2] / "hunter" / "rules" / "country_names.json"
# The languages of hunter's users and of the boards it reads
_LOCALES = "th de zh zh_Hant ja ko fr es pt it nl pl cs sv da nb fi vi id ms tr ru uk ar"
LOCALES = tuple(_LOCALES.split())
# CLDR's regions, as hunter names them (hunter/rules/gazetteer.py's _REGIONS)
REGIONS = {
    "001": "worldwide", "150": "europe", "EU": "eu", "142": "asia", "002": "africa",
    "009": "oceania", "019": "americas", "419": "latam", "021": "north america",
    "005": "latam", "035": "southeast asia",
}  # fmt: skip
# Shorter than this, a Latin name is a word too often ("Ý", Vietnamese for Italy)
LATIN_LEAST = 4


def names() -> dict[str, str]:
    """Each name, folded, -> the ISO 3166 code or hunter's region it names: only the names
    the gazetteer does not know already, and none that names two."""
    from babel import Locale

    known = gazetteer()
    codes = sorted(known.countries)
    found: dict[str, set[str]] = {}
    for locale in LOCALES:
        territories = Locale.parse(locale).territories
        for code in [*codes, *REGIONS]:
            name = territories.get(code)
            if not name:
                continue
            folded = key(name)
            if folded.isascii() and len(folded) < LATIN_LEAST:
                continue
            if known.areas(folded):
                continue  # a name it knows (maybe as something else: never shadowed)
            found.setdefault(folded, set()).add(REGIONS.get(code, code))
    return {name: next(iter(said)) for name, said in sorted(found.items()) if len(said) == 1}


def document() -> str:
    about = (
        "The names of countries and regions in "
        f"{len(LOCALES)} languages ({', '.join(LOCALES)}) that the gazetteer (GeoNames) does "
        "not know, each with its ISO 3166 code or hunter's region: from the Unicode CLDR "
        "(Unicode License v3, https://cldr.unicode.org) through Babel; written by "
        "tests/support/country_names.py, never by hand. Read for a chat's places only."
    )
    return json.dumps({"about": about, "names": names()}, ensure_ascii=False, indent=0) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help=f"rewrite {FILE.name}")
    args = parser.parse_args()
    text = document()
    if args.write:
        FILE.write_text(text, encoding="utf-8")
    print(f"{FILE.name}: {len(json.loads(text)['names'])} names")


if __name__ == "__main__":
    main()
