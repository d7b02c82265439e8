"""docs/configuration.md's tables of keys are hunter/settings/keys.py's declaration: each
between `<!-- keys: TABLE -->` and `<!-- /keys -->`, checked by tests/unit/test_config_keys.py.
After a key is added or changed there:

    uv run python -m tests.support.config_docs --write
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from hunter.settings.keys import TABLES, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
BLOCK = re.compile(
    r"<!-- keys: (?P<table>[^>]+?) -->\n(?P<body>(?:(?!<!--).)*?)\n?<!-- /keys -->", re.S
)


def blocks(text: str) -> dict[str, str]:
    """The tables the page holds, by name."""
    return {m["table"]: m["body"] for m in BLOCK.finditer(text)}


def written(text: str) -> str:
    """The page with each table as the declaration says it."""
    return BLOCK.sub(
        lambda m: f"<!-- keys: {m['table']} -->\n{markdown(m['table'])}\n<!-- /keys -->", text
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite docs/configuration.md")
    args = parser.parse_args()
    text = DOC.read_text(encoding="utf-8")
    missing = sorted(set(TABLES) - set(blocks(text)))
    if missing:
        raise SystemExit(f"docs/configuration.md has no block for {', '.join(missing)}")
    if args.write:
        DOC.write_text(written(text), encoding="utf-8")
    else:
        print(written(text))


if __name__ == "__main__":
    main()
