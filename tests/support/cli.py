"""Run the real `hunter` command as a subprocess, the way a user (or a platform) does."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from subprocess import CompletedProcess
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
    own_process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`hunter <args>` run to its end in `folder` with exactly `env`: its exit code and what it
    printed. In this process unless `own_process` (what the test shows is about the process:
    its memory, a thread left running at its exit) or HUNTER_TEST_SUBPROCESS is set; see
    run_in_process."""
    if own_process or os.environ.get("HUNTER_TEST_SUBPROCESS"):
        return subprocess.run(
            hunter_command(*args),
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    return run_in_process(folder, list(args), env)


def run_in_process(folder: Path, args: list[str], env: dict[str, str]) -> CompletedProcess[str]:
    """The CLI's own entry (hunter.app.cli.main) in this process, as a subprocess would run it:
    `env` as the whole environment, `folder` as the working directory, stdout and stderr
    captured, the logging and registered secrets of a fresh process, and each restored after.

    Why: a command costs its process's start and imports, and LINE's SDK alone costs 1.5 s of
    CPU to import (pydantic models built for each of its 280 calls); the e2e tier ran about
    800 commands on two cores, most of its time (issue 44: a suite under four minutes). A
    command's behaviour does not depend on being a fresh process; where a test's subject does
    (kill -9, SIGTERM, memory, `hunter run`), it starts one (start_hunter, own_process)."""
    from hunter import redact
    from hunter.app import cli

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    root = logging.getLogger()
    saved_handlers = root.handlers[:]
    # Each logger's level as a fresh process has it (`hunter demo` quiets hunter's own).
    loggers = [
        root,
        *(x for x in logging.root.manager.loggerDict.values() if isinstance(x, logging.Logger)),
    ]
    saved_levels = [(x, x.level) for x in loggers]
    logging.getLogger("hunter").setLevel(logging.NOTSET)
    saved_secrets = set(redact._SECRETS)
    redact._SECRETS.clear()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(args)
            except SystemExit as exc:  # argparse's refusal of a command line: exit 2
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            for handler in root.handlers:  # flushed as a process's exit does
                handler.flush()
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        root.handlers[:] = saved_handlers
        for logger, level in saved_levels:
            logger.setLevel(level)
        redact._SECRETS.clear()
        redact._SECRETS.update(saved_secrets)
    return CompletedProcess(hunter_command(*args), code, out.getvalue(), err.getvalue())


def start_hunter(folder: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        hunter_command(*args),
        cwd=folder,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def signalled(process: subprocess.Popen[str], signum: int, timeout: float) -> tuple[str, float]:
    """Send `signum` to a started hunter and wait for it to end: its stderr, and the seconds it
    took to end after the signal."""
    sent = time.monotonic()
    process.send_signal(signum)
    _out, err = process.communicate(timeout=timeout)
    return err, time.monotonic() - sent


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
