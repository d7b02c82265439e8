"""Each key of hunter.toml is declared once (hunter/settings/keys.py): its name, default,
bounds and meaning. The parser's allowed names, defaults and bounds come from it, and
docs/configuration.md's tables are it: a key added, renamed or given another default without
its page fails here."""

from __future__ import annotations

import dataclasses

import pytest

from hunter.errors import ConfigError
from hunter.settings import chats, config, subscribers
from hunter.settings.config import Config, parse_config
from hunter.settings.keys import SOURCES, SUBSCRIBERS, TABLES, TOP, Key, markdown, named
from hunter.settings.subscribers import SubscribersConfig
from hunter.sources.kinds import COMMON_KEYS, MODULES, source_kind
from tests.support.config_docs import DOC, blocks

SOURCE = {"name": "b", "url": "https://b.test/jobs", "item": "li", "title": "a", "link": "a@href"}


def test_each_table_of_the_docs_is_the_declaration() -> None:
    held = blocks(DOC.read_text(encoding="utf-8"))
    assert set(held) == set(TABLES)
    for table in TABLES:
        assert held[table] == markdown(table), (
            f"docs/configuration.md's {table} table is not keys.py's: "
            "uv run python -m tests.support.config_docs --write"
        )


def test_each_key_is_declared_once_and_has_one_row() -> None:
    text = DOC.read_text(encoding="utf-8")
    for table, keys in TABLES.items():
        names = [key.name for key in keys]
        assert len(names) == len(set(names)), table
        rows = [line for line in blocks(text)[table].splitlines() if line.startswith("| `")]
        assert len(rows) == len(names)
        assert all(key.meaning and key.default_text for key in keys)


def test_the_parser_accepts_exactly_the_declared_keys() -> None:
    assert set(named(TOP)) == config._TOP_KEYS
    assert set(named(TABLES["[[chats]]"])) == chats._KEYS
    assert set(named(SUBSCRIBERS)) == subscribers._KEYS
    assert set(named(TABLES["[filter]"])) == config._FILTER_KEYS
    read = set(COMMON_KEYS) | {"search"}
    for kind in MODULES:
        read |= source_kind(kind).keys
    assert read == set(named(SOURCES))


def test_the_configs_defaults_are_the_declared_ones() -> None:
    fields = {f.name: f for f in dataclasses.fields(Config)}
    checked = 0
    for key in TOP:
        field = fields.get(key.name)
        if field is None or field.default is dataclasses.MISSING or key.default is None:
            continue
        assert field.default == key.default, key.name
        checked += 1
    assert checked >= 14
    parsed = parse_config({"sources": [SOURCE]})
    for key in TOP:
        if isinstance(key.default, int | float | str | bool | tuple) and hasattr(parsed, key.name):
            assert getattr(parsed, key.name) == key.default, key.name
    assert dataclasses.asdict(SubscribersConfig()) == {
        **dataclasses.asdict(SubscribersConfig()),
        **{key.name: key.default for key in SUBSCRIBERS if key.default is not None},
    }


@pytest.mark.parametrize("key", [k for k in TOP if k.most is not None], ids=lambda k: k.name)
def test_a_number_past_its_declared_bounds_is_refused_naming_them(key: Key) -> None:
    assert key.most is not None
    with pytest.raises(ConfigError) as refused:
        parse_config({"sources": [SOURCE], key.name: key.most + 1})
    said = str(refused.value)
    assert key.name in said and f"{key.most:g}" in said
