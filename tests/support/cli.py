"""Run the real `hunter` command as a subprocess, the way a user (or a platform) does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# An e2e test whose subject depends on the database (text PostgreSQL refuses, replicas claiming
# on one database, PostgreSQL's own sums) runs with SQLite and with PostgreSQL; the rest with
# SQLite, the contract tier proving the stores alike (tests/e2e/conftest.py's `env`).
on_both_stores = pytest.mark.parametrize("env", ["sqlite", "postgres"], indirect=True)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
        )
    raise TypeError(value)


def write_config(folder: Path, sources: list[dict[str, Any]], **settings: Any) -> Path:
    """A hunter.toml in `folder` (top-level settings, the tables given as dicts: [filter],
    [subscribers], and [[sources]]).

    Unless a test sets `schedule`, its sources are read on every `run --once`, as before the
    learned schedule (schedule = "fixed"): most tests are about what a read finds, and run
    hunter several times within seconds. The schedule's own tests set "learned"."""
    settings = {"schedule": "fixed", **settings}
    tables = {k: v for k, v in settings.items() if isinstance(v, dict)}  # [filter], [subscribers]
    lines = [f"{k} = {toml_value(v)}" for k, v in settings.items() if k not in tables]
    for name, table in tables.items():
        lines.append(f"[{name}]")
        lines += [f"{k} = {toml_value(v)}" for k, v in table.items()]
    for source in sources:
        lines.append("[[sources]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in source.items()]
    path = folder / "hunter.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def base_env(folder: Path, **extra: str) -> dict[str, str]:
    """A clean environment: nothing of the developer's DATABASE_URL or LINE settings leaks in."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(folder),
        "HUNTER_DB": str(folder / "hunter.db"),
        "PYTHONUNBUFFERED": "1",
        "HUNTER_LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


def hunter_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "hunter", *args]


def run_hunter(
    folder: Path,
    *args: str,
    env: dict[str, str],
    timeout: float = 90,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        hunter_command(*args),
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def start_hunter(folder: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        hunter_command(*args),
        cwd=folder,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def run_python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A snippet of Python (dedented) in an interpreter of its own, with `args` as its argv:
    what it does to its process (the garbage collector, a crash) stays there."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
