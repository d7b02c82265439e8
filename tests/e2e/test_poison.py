"""One source serving poison never costs another source its alert: text no database would
store, a compression bomb, a document that breaks the parser, a database that refuses one
source's rows. Each test has a healthy source beside the poisoned one and checks that its new
listing reaches LINE in the same poll."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.e2e.test_sources import peak_memory_mb
from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import LineStandIn

SEED = [("1", "python seed")]
NEW = [("2", "python job from the healthy board"), *SEED]


def json_source(name: str, url: str) -> dict[str, Any]:
    return {"name": name, "kind": "json", "url": url, "items": "jobs", "id": "id", "title": "t"}


def env_for(kind: str, folder: Path, line: LineStandIn, request: pytest.FixtureRequest) -> dict:
    extra = (
        {"DATABASE_URL": request.getfixturevalue("migrated_pg_url")} if kind == "postgres" else {}
    )
    return base_env(folder, **line.env(), **extra)


def status_of(folder: Path, env: dict[str, str]) -> dict[str, Any]:
    result = run_hunter(folder, "status", "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_text_no_database_would_store_is_cleaned_and_alerted(
    kind: str, tmp_path: Path, board: Board, line: LineStandIn, request: pytest.FixtureRequest
) -> None:
    env = env_for(kind, tmp_path, line, request)
    healthy = board.serve_jobs("/jobs", SEED)
    feed = board.serve_json("/api", {"jobs": [{"id": "seed", "t": "python seed"}]})
    write_config(tmp_path, [html_source("board", healthy), json_source("api", feed)])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes both
    poison = [
        {"id": "nul-title", "t": "python \u0000 dev"},
        {"id": "nul\u0000id", "t": "python two"},
        {"id": "x" * 5000, "t": "python long id"},
        {"id": "seed", "t": "python seed"},
    ]
    board.serve_json("/api", {"jobs": poison})
    board.serve_jobs("/jobs", NEW)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(line.delivered) == sorted(
        ["python job from the healthy board", "python dev", "python two", "python long id"]
    )
    again = run_hunter(tmp_path, "run", "--once", env=env)  # the same ids on the next poll
    assert again.returncode == 0 and len(line.delivered) == 4
    sources = {s["name"]: s for s in status_of(tmp_path, env)["sources"]}
    assert sources["api"]["last_error"] is None and sources["api"]["last_count"] == 4


def test_a_compression_bomb_is_refused_in_flat_memory(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    healthy = board.serve_jobs("/jobs", SEED)
    bomb_url = board.serve_jobs("/bomb", SEED)
    write_config(tmp_path, [html_source("board", healthy), html_source("bomb", bomb_url)])
    normal, _ = peak_memory_mb(tmp_path, env, "run", "--once")  # primes both
    board.serve("/bomb", double_gzip_of_zeros(1 << 30), headers={"Content-Encoding": "gzip, gzip"})
    board.serve_jobs("/jobs", NEW)
    bombed, stderr = peak_memory_mb(tmp_path, env, "run", "--once")
    assert "source bomb: the page is over the 10,485,760-byte limit; refused" in stderr
    assert bombed - normal < 50, (normal, bombed)  # never inflated beyond the limit
    assert line.delivered == ["python job from the healthy board"]


def double_gzip_of_zeros(size: int) -> bytes:
    """`size` zero bytes, gzipped, gzipped again: about 1 KB per GB on the wire."""
    inner = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    once = b"".join(inner.compress(block) for _ in range(size >> 20)) + inner.flush()
    outer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return outer.compress(once) + outer.flush()


def test_a_document_that_breaks_the_parser_fails_its_source_only(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    healthy = board.serve_jobs("/jobs", SEED)
    feed = board.serve_json("/api", {"jobs": [{"id": "seed", "t": "python seed"}]})
    write_config(tmp_path, [html_source("board", healthy), json_source("api", feed)])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    board.serve("/api", "[" * 100_000 + "]" * 100_000, "application/json")  # RecursionError
    board.serve_jobs("/jobs", NEW)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "source api: reading it failed: RecursionError" in result.stderr
    assert line.delivered == ["python job from the healthy board"]
    warnings = [x for x in result.stderr.splitlines() if " WARNING " in x or " ERROR " in x]
    assert len(warnings) == 1, warnings  # one line says it all


def test_a_budget_beyond_any_budget_is_not_stated_and_stops_nothing(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    healthy = board.serve_jobs("/jobs", SEED)
    feed = board.serve_json("/api", {"jobs": [{"id": "seed", "t": "python seed"}]})
    api = {**json_source("api", feed), "budget": "b"}
    write_config(tmp_path, [html_source("board", healthy), api], filter={"min_budget": 5000})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    page = '{"jobs": [{"id": "big", "t": "python huge", "b": 1e400}, {"id": "seed", "t": "x"}]}'
    board.serve("/api", page, "application/json")  # 1e400: an OverflowError waiting to happen
    board.serve_jobs("/jobs", NEW)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(line.delivered) == ["python huge", "python job from the healthy board"]


def test_a_database_that_refuses_one_sources_rows_fails_that_source_only(
    tmp_path: Path, board: Board, line: LineStandIn, migrated_pg_url: str
) -> None:
    env = base_env(tmp_path, DATABASE_URL=migrated_pg_url, **line.env())
    healthy = board.serve_jobs("/jobs", SEED)
    other = board.serve_jobs("/other", SEED)
    write_config(tmp_path, [html_source("board", healthy), html_source("other", other)])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    # A fault the database itself makes.
    with psycopg.connect(migrated_pg_url, autocommit=True) as db:
        db.execute(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'disk quota exceeded for %', NEW.source; END $$"
        )
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON hunter_seen_jobs FOR EACH ROW "
            "WHEN (NEW.source = 'other') EXECUTE FUNCTION refuse()"
        )
    board.serve_jobs("/jobs", NEW)
    board.serve_jobs("/other", [("9", "python job on the refused board"), *SEED])
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert line.delivered == ["python job from the healthy board"]
    sources = {s["name"]: s for s in status_of(tmp_path, env)["sources"]}
    assert "disk quota exceeded for other" in sources["other"]["last_error"]
    assert sources["board"]["last_error"] is None
    text = run_hunter(tmp_path, "status", env=env).stdout
    assert "other: last poll" in text and "recording its listings failed" in text
    check = run_hunter(tmp_path, "check", env=env)
    assert check.returncode == 1
    assert "FAILED at the last poll: recording its listings failed" in check.stdout


def test_a_redirect_to_another_site_does_not_carry_the_sources_headers(
    tmp_path: Path, board: Board
) -> None:
    elsewhere = Board()  # another port: another origin
    try:
        target = elsewhere.serve_jobs("/jobs", SEED)
        board.serve("/moved", "", status=302, headers={"Location": target})
        board.serve("/here", "", status=301, headers={"Location": "/jobs"})
        board.serve_jobs("/jobs", SEED)
        sources = [
            {**html_source("away", board.url + "/moved"), "headers": {"X-Api-Key": "k-123"}},
            {**html_source("home", board.url + "/here"), "headers": {"X-Api-Key": "k-123"}},
        ]
        write_config(tmp_path, sources)
        result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
        assert result.returncode == 0, result.stderr
        assert "source away primed silently" in result.stderr
        [(_path, headers)] = elsewhere.requests
        assert "X-Api-Key" not in headers  # dropped at the other origin
        own = [h for path, h in board.requests if path in ("/moved", "/here", "/jobs")]
        assert all(h.get("X-Api-Key") == "k-123" for h in own)  # kept on the same origin
    finally:
        elsewhere.close()
