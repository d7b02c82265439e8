"""docs/ documents the whole product (issue 44): every key hunter.toml accepts, every command
and every environment variable hunter reads is named there, so the README can stay short and
a newcomer still finds everything. Read from the code itself: a key added without its
documentation fails here."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from hunter.app.cli import build_parser
from hunter.settings import chats, config, subscribers
from hunter.sources.kinds import COMMON_KEYS, MODULES, source_kind
from hunter.sources.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
DOCS = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "hunter").rglob("*.py"))
README_LINES = 300


def config_keys() -> set[str]:
    """Every key of hunter.toml: top level, [filter], [[chats]], [subscribers], [[sources]] of
    every kind, and every preset's name."""
    keys = set(config._TOP_KEYS) | set(config._FILTER_KEYS) | set(chats._KEYS) | set(COMMON_KEYS)
    keys |= set(subscribers._KEYS)
    for kind in MODULES:
        keys |= source_kind(kind).keys
    return keys | set(PRESETS)


def commands() -> set[str]:
    """Every command and sub-command, as typed: "run", "line setup"."""
    found: set[str] = set()

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    found.add(f"{prefix}{name}")
                    walk(child, f"{prefix}{name} ")
            elif prefix and not action.option_strings and action.choices:  # `line setup`
                found.update(f"{prefix}{choice}" for choice in action.choices)

    walk(build_parser(), "")
    return found


def environment() -> set[str]:
    """Every variable hunter reads: environ.get("X"), values.get("X"), value(os.environ, "X")
    and the channels' declared keys."""
    read = set(re.findall(r'(?:environ|values)\.get\(\s*"([A-Z][A-Z0-9_]+)"', SOURCE))
    read |= set(re.findall(r'value\(\s*os\.environ,\s*"([A-Z][A-Z0-9_]+)"', SOURCE))
    declared = re.findall(r"KEYS = \(([^)]*)\)", SOURCE)
    for group in declared:
        read |= set(re.findall(r'"([A-Z][A-Z0-9_]+)"', group))
    return read | {"DISCORD_WEBHOOK_<NAME>"}


def undocumented(docs: str) -> list[str]:
    """What the code accepts and `docs` never names (a key as `key`, `key = ...` or a table's
    `[key]`, `[[key]]`; a command as `hunter <command>`; a variable as `VARIABLE`)."""
    missing = [k for k in config_keys() if not re.search(rf"`(\[\[?)?{re.escape(k)}[` =\]]", docs)]
    missing += [c for c in commands() if f"`hunter {c}" not in docs]
    missing += [v for v in environment() if f"`{v}" not in docs]
    return sorted(missing)


def test_every_key_command_and_variable_is_in_docs() -> None:
    assert {"interval_minutes", "categories", "fastwork"} <= config_keys()
    assert {"run", "line setup", "telegram setup", "schema"} <= commands()
    assert {"DATABASE_URL", "TELEGRAM_BOT_TOKEN", "HUNTER_STATUS_TOKEN"} <= environment()
    assert undocumented(DOCS) == []


@pytest.mark.parametrize("name", ["flood_threshold", "ignore_within", "HUNTER_LOG_FORMAT"])
def test_a_name_taken_out_of_docs_is_found_missing(name: str) -> None:
    """The check is real: remove every mention of one name and it is reported."""
    without = re.sub(rf"`{re.escape(name)}[^`]*`", "`something else`", DOCS)
    assert undocumented(without) == [name]


def test_the_readme_is_short_and_links_every_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < README_LINES
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{doc.name})" in readme, f"the README does not link docs/{doc.name}"


def test_every_link_between_docs_resolves() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", doc.read_text("utf-8")):
            assert (doc.parent / target).is_file(), f"{doc.name} links {target}, not a file"


USER_DOCS = [ROOT / "README.md", *(p for p in sorted((ROOT / "docs").glob("*.md")))]


@pytest.mark.parametrize(
    "path", [p for p in USER_DOCS if p.name != "development.md"], ids=lambda p: p.name
)
def test_a_users_docs_name_nothing_a_user_does_not_have(path: Path) -> None:
    """No issue of the project's tracker, and no folder beside the project's clone: a user
    has neither. development.md is for the project's own developers."""
    text = path.read_text(encoding="utf-8")
    assert not re.findall(r"[Ii]ssue \d+", text)
    assert "../shared" not in text


@pytest.mark.parametrize(
    "path", [p for p in USER_DOCS if p.name != "development.md"], ids=lambda p: p.name
)
def test_a_users_docs_read_in_short_sentences(path: Path) -> None:
    """No sentence of prose past 60 words (tables, code and the generated key tables aside):
    a newcomer reads these from the top."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"<!-- keys:.*?<!-- /keys -->", "", text, flags=re.S)
    text = re.sub(r"^\|.*$", "", text, flags=re.M)
    text = re.sub(r"^\s*[-*] |^\s*\d+\. ", "\n\n", text, flags=re.M)
    long = [
        sentence[:80]
        for paragraph in re.split(r"\n\s*\n", text)
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"`(*])", " ".join(paragraph.split()))
        if len(sentence.split()) > 60
    ]
    assert long == []
