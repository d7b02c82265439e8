"""Checks every table of hunter.toml shares ([filter], [[sources]], [[chats]]): unknown keys
are errors that name the allowed ones, and keyword lists read one way wherever they appear."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from hunter.errors import ConfigError


def reject_unknown(raw: Any, allowed: Collection[str], where: str) -> None:
    """`raw` is a table whose keys are all in `allowed`; else a ConfigError naming them."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a table of settings, got {type(raw).__name__}")
    for key in raw:
        if key not in allowed:
            raise ConfigError(
                f"{where}: unknown key {key!r}; allowed keys are {', '.join(sorted(allowed))}"
            )


def words(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of non-empty strings (keywords), stripped."""
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where}: {key} must be a list of non-empty strings, got {value!r}")
    return tuple(v.strip() for v in value)
