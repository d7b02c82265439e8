"""What Render and Railway do with hunter: read its deploy files, start it, ping it, stop it."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml

from tests.support import postgres
from tests.support.board import Board, html_source
from tests.support.cli import ROOT, base_env, run_hunter, start_hunter, write_config
from tests.support.line_standin import TOKEN, LineStandIn
from tests.support.local_server import free_port, wait_for
from tests.support.tcp_proxy import Proxy

SECRETS = {
    "LINE_CHANNEL_ACCESS_TOKEN",
    "LINE_TO",
    "DATABASE_URL",
    "SUPABASE_SERVICE_ROLE_KEY",
    "SUPABASE_KEY",
    "LINE_CHANNEL_SECRET",
    "TELEGRAM_BOT_TOKEN",
    "TELEGRAM_WEBHOOK_SECRET",
}


def test_render_blueprint_is_a_worker_with_secrets_left_out() -> None:
    blueprint = yaml.safe_load((ROOT / "render.yaml").read_text())
    (service,) = blueprint["services"]
    assert service["type"] == "worker" and service["runtime"] == "python"
    assert service["startCommand"].endswith("hunter run")
    assert "uv sync --locked" in service["buildCommand"]  # the build follows uv.lock
    assert "--compile-bytecode" in service["buildCommand"]  # a start compiles nothing
    env = {e["key"]: e for e in service["envVars"]}
    assert env["PYTHON_VERSION"]["value"].startswith("3.")
    for key in SECRETS & env.keys():
        entry = env[key]
        assert "value" not in entry, f"{key} is committed"
        assert entry.get("sync") is False or "fromDatabase" in entry
    database = env["DATABASE_URL"]["fromDatabase"]
    assert database["property"] == "connectionString"
    assert database["name"] in {d["name"] for d in blueprint["databases"]}


def test_the_web_blueprint_serves_the_webhook_and_the_health_check() -> None:
    worker = yaml.safe_load((ROOT / "render.yaml").read_text())
    web = yaml.safe_load((ROOT / "render.web.yaml").read_text())
    (service,) = web["services"]
    assert service["type"] == "web" and service["healthCheckPath"] == "/healthz"
    assert service["plan"] != "free"  # a sleeping service misses LINE's calls
    env = {e["key"]: e for e in service["envVars"]}
    assert env["LINE_CHANNEL_SECRET"] == {"key": "LINE_CHANNEL_SECRET", "sync": False}
    for key in SECRETS & env.keys():
        assert "value" not in env[key], f"{key} is committed"
    (base,) = worker["services"]
    same = ("runtime", "buildCommand", "startCommand")
    assert {k: service[k] for k in same} == {k: base[k] for k in same}
    assert web["databases"] == worker["databases"]


def test_railway_config_drains_and_restarts() -> None:
    config = json.loads((ROOT / "railway.json").read_text())
    deploy = config["deploy"]
    assert deploy["startCommand"].endswith("hunter run")
    assert deploy["restartPolicyType"] in ("ON_FAILURE", "ALWAYS")
    # Railway's default drain is 0 s: SIGKILL right after SIGTERM. A number, not a string.
    assert isinstance(deploy["drainingSeconds"], int) and deploy["drainingSeconds"] >= 30
    # Railpack installs a uv project from uv.lock by itself (uv sync --locked) and puts the
    # venv on PATH; a build command of ours would only run a second install.
    assert config["build"] == {"builder": "RAILPACK"}
    assert not (ROOT / "requirements.txt").exists()  # it would take precedence over uv.lock
    assert (ROOT / "Procfile").read_text().strip() == "worker: hunter run"


@pytest.mark.parametrize("platform", [{"RENDER": "true"}, {"RAILWAY_PROJECT_ID": "p-1"}])
def test_no_database_on_a_platform_is_refused(tmp_path: Path, platform: dict[str, str]) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path, **platform))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "wiped on every deploy" in result.stderr
    allowed = base_env(tmp_path, HUNTER_ALLOW_EPHEMERAL_SQLITE="1", **platform)
    assert "wiped" not in run_hunter(tmp_path, "status", env=allowed).stderr


def test_healthz_is_200_while_polls_are_recent_then_503(
    tmp_path: Path, board: Board, pg_url: str
) -> None:
    parts = urlsplit(pg_url)
    proxy = Proxy(postgres.unix_socket_of(pg_url) or (parts.hostname or "", parts.port or 5432))
    userinfo = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else "postgres@"
    via_proxy = urlunsplit((parts.scheme, f"{userinfo}127.0.0.1:{proxy.port}", parts.path, "", ""))
    port = free_port()
    url = board.serve_jobs("/jobs", [("1", "python job")])
    write_config(tmp_path, [html_source("board", url)], interval_minutes=0.05)  # 3 s
    env = base_env(tmp_path, DATABASE_URL=via_proxy, PORT=str(port))
    process = start_hunter(tmp_path, "run", env=env)
    try:
        healthz = f"http://127.0.0.1:{port}/healthz"
        body = wait_for(healthz, 200, 30)
        assert body["status"] == "ok" and body["last_poll_at"]
        assert "outbox" not in body  # public: nothing of what waits (issue 21)
        proxy.cut()  # the database goes away: polls stop completing
        stale = wait_for(healthz, 503, 30)
        assert stale["status"] == "stale" and stale["stale_after_seconds"] == 6
    finally:
        process.terminate()
        process.communicate(timeout=30)
        proxy.close()
    assert process.returncode == 0


def test_a_wrong_token_stops_the_worker_at_start(tmp_path: Path, line: LineStandIn) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    env = base_env(tmp_path, **{**line.env(), "LINE_CHANNEL_ACCESS_TOKEN": "not-the-token"})
    result = run_hunter(tmp_path, "run", env=env, timeout=60)
    assert result.returncode == 2
    assert "LINE rejected the channel access token (401)" in result.stderr
    assert "not-the-token" not in result.stderr


def test_json_logs_for_log_platforms(tmp_path: Path, board: Board, line: LineStandIn) -> None:
    url = board.serve_jobs("/jobs", [("1", "python job")])
    write_config(tmp_path, [html_source("board", url)])
    env = base_env(tmp_path, HUNTER_LOG_FORMAT="json", **line.env())
    result = run_hunter(tmp_path, "run", "--once", env=env)
    records = [json.loads(line) for line in result.stderr.splitlines()]
    assert result.stdout == ""  # the start-up line is a log record too
    assert records[0]["message"].startswith("hunter: 1 source, every 30 min")
    assert any(r["message"].startswith("poll: 1 source,") for r in records)
    assert {r["level"] for r in records} <= {"info", "warning", "error"}
    assert TOKEN not in result.stderr


def test_json_logs_hold_every_line_of_a_failed_start_too(tmp_path: Path) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    url = "postgresql://hunter:s3cret-pw@127.0.0.1:1/hunter?connect_timeout=2"
    env = base_env(tmp_path, HUNTER_LOG_FORMAT="json", DATABASE_URL=url)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 1 and result.stdout == ""
    records = [json.loads(line) for line in result.stderr.splitlines()]
    assert records[-1]["level"] == "error"
    assert records[-1]["message"].startswith("hunter: cannot reach PostgreSQL")
    assert "s3cret-pw" not in result.stderr


def test_a_sigterm_the_moment_it_listens_is_a_clean_stop(tmp_path: Path, board: Board) -> None:
    """A platform may stop a new instance the moment it answers (a deploy rolled back, a scale
    down): the stop handler is in place before the port listens, so even then hunter says so
    and exits 0, never by SIGTERM's default action (-15, nothing said, nothing finished)."""
    board.serve_jobs("/jobs", [("1", "python job")])
    write_config(tmp_path, [html_source("b", f"{board.url}/jobs")])
    for _ in range(3):
        port = free_port()
        process = start_hunter(tmp_path, "run", env=base_env(tmp_path, PORT=str(port)))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the first moment the port takes a connection
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.001)
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "SIGTERM received" in err
