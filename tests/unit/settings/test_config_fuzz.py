"""A bounded fuzz of the config: hunter.example.toml (with a [[chats]]) mutated a value at a
time, by type (other types, extremes, odd text, missing and unknown keys). Whatever the file
says, the command ends with exit 0 or 2 and one line, never a traceback: the CLI runs
in-process here so that an unexpected exception fails the test with its own traceback."""

from __future__ import annotations

import copy
import logging
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hunter.app.cli import main
from hunter.store.sqlite import SQLiteStore
from tests.support.cli import ROOT, toml_value

EXAMPLE = tomllib.loads((ROOT / "hunter.example.toml").read_text(encoding="utf-8"))
# The example's [[chats]] is a comment (a user's copy must not push to a made-up group): the
# fuzz adds one, so that every key of a chat is mutated too.
EXAMPLE["chats"] = [
    {
        "name": "studio",
        "to": "C" + "0" * 32,
        "include": ["logo", "โลโก้"],
        "exclude": ["unpaid"],
        "min_budget": [3000, "$25/hour"],
        "sources": ["fastwork"],  # the preset's name
    }
]
# ... and a board read through its site's own search, at its own pace, with a floor per month.
EXAMPLE["sources"].append(
    {"preset": "jobsdb", "search": "python", "every": "3h", "min_budget": "฿30,000 per month"}
)
ODD_VALUES: list[Any] = [
    0,
    -1,
    1,
    10**12,
    10**30,
    1e308,
    -1e308,
    0.5,
    float("nan"),
    float("inf"),
    True,
    "",
    " ",
    "\x00",
    "x" * 5000,
    "ไทย",
    "https://",
    "a:b",
    "{page}",
    "h3 a@href",
    "$25/hour",
    "฿30,000 – ฿40,000 per month",
    "[",
    [],
    [1, 2],
    ["", "x"],
    {},
    {"a": 1},
    {"nested": {"deeper": [1]}},
]
COMBINATIONS = 200


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the document a value could be replaced or removed."""
    found = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += leaves(value, (*path, index))
    return found


def replaced(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A copy of `document` with the value at `path` replaced (or removed, for DELETE)."""
    mutated = copy.deepcopy(document)
    parent = mutated
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE and isinstance(parent, dict):
        del parent[path[-1]]
    elif value is not DELETE:
        parent[path[-1]] = value
    return mutated


DELETE = object()


def mutations(rng: random.Random) -> list[dict[str, Any]]:
    """Every value of the example replaced by every odd value (and removed), one at a time;
    then random combinations of two or three, with unknown keys added here and there."""
    single = [
        replaced(EXAMPLE, path, value)
        for path in leaves(EXAMPLE)
        for value in [*ODD_VALUES, DELETE]
    ]
    combined = []
    for _ in range(COMBINATIONS):
        document = EXAMPLE
        for _ in range(rng.randrange(2, 4)):
            document = replaced(document, rng.choice(leaves(document)), rng.choice(ODD_VALUES))
        if rng.random() < 0.3:
            sources = document.get("sources")
            source = rng.choice(sources) if isinstance(sources, list) and sources else None
            if isinstance(source, dict):
                source[rng.choice(["item", "items", "where", "pages", "zzz"])] = "x"
        combined.append(document)
    return single + combined


def as_toml(document: dict[str, Any]) -> str:
    """Every key at the top level, tables and arrays of tables inline: still one TOML file."""
    return "".join(f"{toml_value(key)} = {toml_value(value)}\n" for key, value in document.items())


def test_any_mutation_of_the_example_ends_in_exit_0_or_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HUNTER_DB", str(tmp_path / "hunter.db"))
    with SQLiteStore(tmp_path / "hunter.db") as store:  # prune looks, it never creates
        store.migrate()
    for name in ("DATABASE_URL", "SUPABASE_URL", "RENDER", "RAILWAY_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))  # main() installs its own
    config = tmp_path / "hunter.toml"
    outcomes: dict[int, int] = {}
    for document in mutations(random.Random(20261130)):
        config.write_text(as_toml(document), encoding="utf-8")
        code = main(["--config", str(config), "prune", "--days", "1"])
        err = capsys.readouterr().err
        assert code in (0, 2), (code, err, document)
        if code == 2:
            lines = [line for line in err.splitlines() if line.startswith("hunter: ")]
            assert len(lines) == 1 and "Traceback" not in err, err
        outcomes[code] = outcomes.get(code, 0) + 1
    assert outcomes.get(0, 0) > 0 and outcomes.get(2, 0) > 0  # both ends are reached
