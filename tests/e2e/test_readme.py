"""The README's and docs/' commands, variables and settings are the product's: a test reads
them (tests/unit/test_docs.py checks the other way: everything the product has is in docs/)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import psycopg

from hunter.settings.config import _TOP_KEYS
from hunter.store import queries
from tests.support.cli import ROOT, base_env, run_hunter

README = (ROOT / "README.md").read_text(encoding="utf-8")
CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
DOCS = "\n".join(
    [README, *(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))]
)
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "hunter").rglob("*.py"))


def shell_commands() -> list[list[str]]:
    """Every `uv run hunter ...` line of the README's sh blocks, as argument lists."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("uv run hunter"):
                commands.append(shlex.split(line)[3:])
    return commands


def test_the_readme_shows_commands_at_all() -> None:
    assert ["demo"] in shell_commands() and ["prime"] in shell_commands()


def test_every_command_in_the_docs_exists(tmp_path: Path) -> None:
    mentioned = set(re.findall(r"`(?:uv run )?hunter ([a-z]+)", DOCS))
    assert {"run", "prime", "prune", "status", "retry", "check", "schema", "demo"} <= mentioned
    for command in mentioned:
        result = run_hunter(tmp_path, command, "--help", env=base_env(tmp_path))
        assert result.returncode == 0, f"the README names `hunter {command}`: {result.stderr}"


def test_the_readme_commands_that_run_offline_do_what_it_says(tmp_path: Path, pg_url: str) -> None:
    env = base_env(tmp_path)
    for args in shell_commands():
        if args[0] == "demo":
            result = run_hunter(tmp_path, *args, env=env)
            assert result.returncode == 0 and "2 alerts sent" in result.stdout
        elif args[0] == "schema":
            result = run_hunter(
                tmp_path, *[a for a in args if a not in (">", "hunter.sql")], env=env
            )
            with psycopg.connect(pg_url, autocommit=True) as db:  # "paste it and run it"
                db.execute(result.stdout.encode())
                latest = queries.latest_version("postgres")
                assert db.execute("SELECT hunter_schema_version()").fetchone() == (latest,)
        else:  # needs real sites or a production database: it must at least exist
            assert run_hunter(tmp_path, args[0], "--help", env=env).returncode == 0


def test_every_environment_variable_in_the_docs_is_read() -> None:
    table = CONFIGURATION.split("## Environment", 1)[1].split("##", 1)[0]
    first_cells = re.findall(r"^\| ([^|]+) \|", table, re.M)
    names = {n for cell in first_cells for n in re.findall(r"`([A-Z][A-Z0-9_]{2,})`", cell)}
    assert {"LINE_CHANNEL_ACCESS_TOKEN", "DATABASE_URL", "PORT"} <= names
    for name in names:
        assert f'"{name}"' in SOURCE, f"the README documents {name}, hunter never reads it"


def test_every_setting_in_the_docs_is_accepted() -> None:
    table = CONFIGURATION.split("Delivery settings", 1)[1].split("##", 1)[0]
    keys = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert keys and keys <= _TOP_KEYS
