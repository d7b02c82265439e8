"""Telegram's Bot API as data (../shared/contracts/telegram-bot-api.json, Bot API 10.1): what a
request to a method may hold, and what an object of a type must hold.

The file lists each method with its parameters and each type with its fields; a field's
`types` are alternatives, each Integer, Float, String, Boolean, a type's name or
"Array of <one of these>"; a type with `subtypes` (ChatMember, MaybeInaccessibleMessage) is
any one of them. A String field whose description says it is 'always "member"' holds that
word, which is how the subtypes of ChatMember tell each other apart.

The Telegram stand-in checks every request hunter sends against its method and every object it
sends hunter (answers, updates) against its type, and builds the fields an answer must have
from here, so that neither side drifts from the documented shapes. Telegram reads its methods'
names in any case ("All methods in the Bot API are case-insensitive", core.telegram.org/bots/api).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.support.contracts import CONTRACTS, built_once

SPEC = CONTRACTS / "telegram-bot-api.json"
ALWAYS = re.compile(r"""always [“"](\w+)[”"]""")


def spec_available() -> bool:
    return SPEC.is_file()


@built_once
def api() -> dict[str, Any]:
    """The spec, parsed once per process (the stand-in parses it as it starts)."""
    spec: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return spec


@built_once
def _by_lower() -> dict[str, dict[str, Any]]:
    return {name.lower(): spec for name, spec in api()["methods"].items()}


def method(name: str) -> dict[str, Any] | None:
    """The method called `name` in any case; None when the Bot API has none."""
    return _by_lower().get(name.lower())


def missing(name: str, body: dict[str, Any]) -> list[str]:
    """The required parameters of method `name` that `body` leaves out."""
    fields = (method(name) or {}).get("fields", [])
    return [f["name"] for f in fields if f["required"] and body.get(f["name"]) is None]


def request_problems(name: str, body: dict[str, Any]) -> list[str]:
    """What in `body` the method does not take, or takes with another type. (Telegram ignores
    a parameter it does not know, so hunter would never learn that a setting did nothing.)"""
    fields = {f["name"]: f for f in (method(name) or {}).get("fields", [])}
    problems = []
    for key, value in body.items():
        if key not in fields:
            problems.append(f"{name}: no parameter {key!r} in {api()['version']}")
        elif value is not None:
            problems += _value(fields[key], value, f"{name}.{key}")
    return problems


def object_problems(type_name: str, value: Any, where: str = "") -> list[str]:
    """What makes `value` not a `type_name` (a type's name, or "Array of ...")."""
    return _one_of([type_name], value, where or type_name, always=None)


def fill(type_name: str, given: dict[str, Any]) -> dict[str, Any]:
    """`given`, with every required field of `type_name` it lacks set to a plain value of
    its type: false, 0, "", [] or such an object in turn."""
    out = dict(given)
    for f in api()["types"][type_name].get("fields", []):
        if f["required"] and f["name"] not in out:
            out[f["name"]] = _plain(f["types"][0], f["description"])
    return out


def _plain(kind: str, description: str) -> Any:
    always = ALWAYS.search(description)
    plain = {"Integer": 0, "Float": 0.0, "String": always[1] if always else "", "Boolean": False}
    if kind in plain:
        return plain[kind]
    if kind.startswith("Array of "):
        return []
    spec = api()["types"][kind]
    return fill(spec["subtypes"][0] if spec.get("subtypes") else kind, {})


def _value(field: dict[str, Any], value: Any, where: str) -> list[str]:
    always = ALWAYS.search(field["description"])
    return _one_of(field["types"], value, where, always[1] if always else None)


def _one_of(kinds: list[str], value: Any, where: str, always: str | None) -> list[str]:
    best: list[str] | None = None
    for kind in kinds:
        problems = _check(kind, value, where, always)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _check(kind: str, value: Any, where: str, always: str | None) -> list[str]:
    if kind.startswith("Array of "):
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not an array"]
        item = kind.removeprefix("Array of ")
        return [p for n, v in enumerate(value) for p in _one_of([item], v, f"{where}[{n}]", None)]
    scalar = {
        "Integer": isinstance(value, int) and not isinstance(value, bool),
        "Float": isinstance(value, int | float) and not isinstance(value, bool),
        "String": isinstance(value, str) and (always is None or value == always),
        "Boolean": isinstance(value, bool),
        "InputFile": False,  # an upload is multipart; a JSON body names a file as a String
    }
    if kind in scalar:
        return [] if scalar[kind] else [f"{where}: {value!r} is not a {always or kind}"]
    spec = api()["types"][kind]
    if spec.get("subtypes"):
        return _one_of(spec["subtypes"], value, where, None)
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not a {kind}"]
    fields = {f["name"]: f for f in spec.get("fields", [])}
    problems = [f"{where}: a {kind} needs {n!r}" for n, f in fields.items()
                if f["required"] and n not in value]  # fmt: skip
    for key, item in value.items():
        if key not in fields:
            problems.append(f"{where}: a {kind} has no field {key!r}")
        else:
            problems += _value(fields[key], item, f"{where}.{key}")
    return problems
