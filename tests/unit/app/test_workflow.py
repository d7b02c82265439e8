"""The GitHub Actions workflow a user copies (deploy/github-actions/hunter.yml): valid YAML of
the shape GitHub runs, every 30 minutes, one run at a time, a time limit, uv's cache, secrets
only by reference, and the deploy docs' own command."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = ROOT / "deploy" / "github-actions" / "hunter.yml"
SECRETS = {
    "LINE_CHANNEL_ACCESS_TOKEN",
    "LINE_TO",
    "TELEGRAM_BOT_TOKEN",  # a Telegram owner's run stopped at once without it
    "DATABASE_URL",
    "SUPABASE_URL",
    "SUPABASE_SERVICE_ROLE_KEY",
}


def workflow() -> dict[Any, Any]:
    document = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def steps() -> list[dict[str, Any]]:
    [job] = workflow()["jobs"].values()
    return list(job["steps"])


def test_it_polls_every_30_minutes_one_run_at_a_time_within_a_time_limit() -> None:
    document = workflow()
    triggers = document[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["schedule"] == [{"cron": "*/30 * * * *"}]
    assert "workflow_dispatch" in triggers  # a run by hand, to try it
    assert document["concurrency"]["cancel-in-progress"] is False
    [job] = document["jobs"].values()
    assert 0 < job["timeout-minutes"] <= 15


def test_uv_comes_with_its_cache_and_installs_the_lock() -> None:
    [setup] = [s for s in steps() if str(s.get("uses", "")).startswith("astral-sh/setup-uv")]
    assert setup["with"]["enable-cache"] is True
    assert any(s.get("run") == "uv sync --locked --no-dev" for s in steps())


def test_secrets_are_only_referenced_never_written() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    [poll] = [s for s in steps() if "hunter run --once" in str(s.get("run", ""))]
    for name in SECRETS:
        assert poll["env"][name] == "${{ secrets." + name + " }}"
    # Nothing that looks like a token, a key or a password is in the file itself.
    assert not re.search(r"(eyJ[\w-]{10,}|sb_secret_\w+|postgres(ql)?://\S+:\S+@)", text)


def test_its_command_is_the_deploy_docs() -> None:
    [poll] = [s for s in steps() if "hunter run --once" in str(s.get("run", ""))]
    deploy = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert f"`{poll['run']}`" in deploy
    assert "deploy/github-actions/hunter.yml" in deploy


def test_each_run_writes_the_status_to_the_jobs_summary() -> None:
    """Issue 36: a poll-only run's user sees the status on the run's page, whatever the poll
    did (a failed poll is when it is wanted most)."""
    [summary] = [s for s in steps() if "hunter status --markdown" in str(s.get("run", ""))]
    assert summary["run"].endswith('>> "$GITHUB_STEP_SUMMARY"')
    assert summary["if"] == "always()"
    names = [s.get("name") for s in steps()]
    poll = next(i for i, s in enumerate(steps()) if "hunter run --once" in str(s.get("run")))
    assert names.index(summary["name"]) > poll  # after the poll
    for name in SECRETS:
        assert summary["env"][name] == "${{ secrets." + name + " }}"
