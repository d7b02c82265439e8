"""Checks every table of hunter.toml shares ([filter], [[sources]], [[chats]]): unknown keys
are errors that name the allowed ones, and keyword lists read one way wherever they appear."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from hunter.errors import ConfigError, meant
from hunter.settings.keys import TOP, named

# A key written as an environment variable ("LINE_CHANNEL_ACCESS_TOKEN"), or named as a secret
# is ("telegram_bot_token", "database_url"): what hunter reads from the environment only.
_VARIABLE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_SECRET = re.compile(r"token|secret|password|api_?key|service_role|database_url|webhook_", re.I)
# ... and the store's variables a word of a key means (the channels' are their registry's)
_CHANNEL_SECRETS: list[str] = []  # register_secrets
_STORE_SECRETS = {
    "password": "DATABASE_URL",
    "database": "DATABASE_URL",
    "key": "SUPABASE_SERVICE_ROLE_KEY",
    "role": "SUPABASE_SERVICE_ROLE_KEY",
}


def refuse_a_variable(key: object, where: str, secret_words: bool = False) -> None:
    """A key written as an environment variable ("LINE_CHANNEL_ACCESS_TOKEN"), or, with
    `secret_words`, named as a secret is: ConfigError saying it belongs in the environment
    (never echoing its value). Written below a [[sources]] line, it is that source's key:
    the line says so."""
    if not (_VARIABLE.fullmatch(str(key)) or (secret_words and _SECRET.search(str(key)))):
        return
    name = str(key).upper()
    if not _VARIABLE.fullmatch(str(key)):  # "token": which variable it is, not "TOKEN"
        name = _variable_for(str(key)) or name
    table = (
        " (written below a [[sources]] line, it was read as that source's key)"
        if "[[sources]]" in where
        else ""
    )
    raise ConfigError(
        f"{where}: {key} belongs in the environment, not in hunter.toml{table}: set {name} "
        "where hunter runs (the host's environment settings, or `export` in your shell), and "
        "delete the line (hunter.toml is committed with your deploy: a secret there is public)"
    )


def check_brackets(raw: Mapping[str, Any], tables: Collection[str], where: str) -> None:
    """Each table of `tables` ("[filter]", "[[sources]]") written with its own brackets: one
    for a single table, two for a list of them. TOML reads "[sources]" as one table and
    "[[filter]]" as a list, and the errors that followed named neither mistake."""
    for table in tables:
        many, key = table.startswith("[["), table.strip("[]")
        value = raw.get(key)
        if many and isinstance(value, Mapping):
            raise ConfigError(
                f"{where}: [{key}] is written with one bracket on each side: write [[{key}]], "
                f"with two, above each of the {key} (one [[{key}]] line for each)"
            )
        if not many and isinstance(value, list) and value and isinstance(value[0], Mapping):
            raise ConfigError(
                f"{where}: [[{key}]] is written with two brackets on each side: there is one "
                f"[{key}] table, written [{key}]"
            )


def register_secrets(*names: str) -> None:
    """The environment's secret variables a channel reads (hunter/channels/__init__.py
    registers each channel's): a key of hunter.toml that sounds like one is told which."""
    _CHANNEL_SECRETS.extend(n for n in names if n not in _CHANNEL_SECRETS)


def _variable_for(key: str) -> str:
    """The variables a secret-sounding key of hunter.toml stands for, as the channels (their
    registered secrets) and the store name them: "token" is each channel's token variable,
    "bot_token" the one, "webhook_url" the one of that name; "" when none is."""
    words = [w for w in key.lower().replace("-", "_").split("_") if w]
    secrets = _CHANNEL_SECRETS
    for wanted in (words, *([w] for w in reversed(words))):  # all its words, else one
        found = [s for s in secrets if wanted and all(w in s.lower() for w in wanted)]
        if found:
            return " or ".join(found[:3])
    return next((v for w, v in _STORE_SECRETS.items() if w in words), "")


def refuse_top_level(key: object, where: str, table: str, fix: str) -> None:
    """A key of the top level written below a `table` line ("[filter]", "[[sources]]"), which
    TOML reads as that table's: ConfigError saying so, with the `fix`."""
    if key in named(TOP):
        raise ConfigError(
            f"{where}: {key} is a key of the top level: written below a {table} line, TOML "
            f"reads it as that table's; {fix}"
        )


def reject_unknown(raw: Any, allowed: Collection[str], where: str, table: str = "") -> None:
    """`raw` is a table whose keys are all in `allowed`; else a ConfigError naming them. A key
    of the top level written below the `table` line ("[filter]") is said as such, with the fix
    (the example file warns of it, and `owner` under [filter] got "unknown key")."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a table of settings, got {type(raw).__name__}")
    for key in raw:
        if key in allowed:
            continue
        refuse_a_variable(key, where, secret_words=True)
        if table:
            refuse_top_level(key, where, table, f"move it above {table}")
        raise ConfigError(
            f"{where}: unknown key {key!r}{meant(key, allowed)}; allowed keys are "
            f"{', '.join(sorted(allowed))}"
        )


def words(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of keywords, stripped, each held to what the chat holds one to
    (rules/keywords.py): ConfigError naming the word and what is wrong with it."""
    from hunter.rules.keywords import in_english, word_problem

    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where}: {key} must be a list of non-empty strings, got {value!r}")
    for word in value:
        problem = word_problem(word.strip())
        if problem is not None:
            raise ConfigError(f"{where}: {key} {word.strip()!r}: {in_english(problem)}")
    return tuple(v.strip() for v in value)


# What a newcomer writes for a language's code: its country's code ("jp") or its name ("Thai")
_LANGUAGES_SAID = {
    "jp": "ja", "cn": "zh", "tw": "zh", "hk": "zh", "kr": "ko", "gr": "el", "cz": "cs",
    "dk": "da", "ua": "uk", "vn": "vi", "il": "he", "ir": "fa", "gb": "en", "us": "en",
    "english": "en", "thai": "th", "german": "de", "deutsch": "de", "chinese": "zh",
    "japanese": "ja", "korean": "ko", "french": "fr", "spanish": "es", "portuguese": "pt",
    "italian": "it", "dutch": "nl", "polish": "pl", "vietnamese": "vi", "indonesian": "id",
    "ไทย": "th", "อังกฤษ": "en", "中文": "zh",
}  # fmt: skip
_LANGUAGE_CODES = {said: f"write {code!r}" for said, code in _LANGUAGES_SAID.items()}


def languages(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of ISO 639-1 codes of languages hunter can tell apart ("en", "th"), lower case."""
    from hunter.rules.language import KNOWN

    value = raw.get(key, [])
    if isinstance(value, str):  # `languages = "en"`: "'en' is not one" said the wrong thing
        raise ConfigError(
            f'{where}: {key} must be a list, in brackets: {key} = ["{value.strip()}"]'
        )
    codes = (
        [v.strip().lower() for v in value if isinstance(v, str)] if isinstance(value, list) else []
    )
    wrong = [v for v in value if not isinstance(v, str)] if isinstance(value, list) else [value]
    wrong += [code for code in codes if code not in KNOWN]
    if wrong:
        said = str(wrong[0]).strip().lower() if isinstance(wrong[0], str) else ""
        hint = f" ({_LANGUAGE_CODES[said]})" if said in _LANGUAGE_CODES else ""
        raise ConfigError(
            f"{where}: {key} must be a list of two-letter language codes (ISO 639-1) hunter can "
            f'tell apart, e.g. ["en", "th"]; {wrong[0]!r} is not one{hint}'
        )
    return tuple(dict.fromkeys(codes))


def places(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of places a chat can work in, each one hunter knows ("Portugal", "กรุงเทพฯ",
    "EMEA", "remote"); the gazetteer is loaded only when a table names places."""
    from hunter.rules.place import spelled_like, unknown_places

    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(
            f'{where}: {key} must be a list of place names, e.g. ["Portugal", "remote"]; '
            f"got {value!r}"
        )
    said = tuple(v.strip() for v in value)
    unknown = unknown_places(said)
    if unknown:
        raise ConfigError(
            f"{where}: {key} names {unknown[0]!r}, a place hunter does not know"
            f"{spelled_like(unknown[0])}: write a "
            'country, a region ("EU", "EMEA", "APAC", "ปริมณฑล"), a province, a city or "remote"'
        )
    return said
