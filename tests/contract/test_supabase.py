"""Supabase: the schema's access rules, key safety, schema checks, round trips over HTTPS.

The Data API is the stand-in in tests/support/postgrest.py (what it emulates is said there),
backed by the test PostgreSQL with Supabase's roles.
"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from hunter.store import queries
from tests.conftest import apply_schema
from tests.support.board import Board, html_source
from tests.support.cli import base_env, run_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.postgrest import PUBLISHABLE_KEY, SECRET_KEY, PostgREST, legacy_key

TABLES = [
    "hunter_meta",
    "hunter_seen_jobs",
    "hunter_batches",
    "hunter_sources",
    "hunter_pace",
    "hunter_events",
    "hunter_mutes",
    "hunter_marks",
    "hunter_chat_notes",
]


@pytest.fixture
def old_project(pg_url: str, supabase_roles: None) -> str:
    """A database whose defaults grant everything to the API roles, as older Supabase
    projects' did, so that only hunter's own REVOKEs stand between anon and its rows."""
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES "
            "TO anon, authenticated, service_role"
        )
        db.execute(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON FUNCTIONS "
            "TO anon, authenticated, service_role"
        )
    apply_schema(pg_url)
    return pg_url


@pytest.mark.parametrize("role", ["anon", "authenticated"])
def test_api_roles_can_touch_nothing_of_hunters(old_project: str, role: str) -> None:
    with psycopg.connect(old_project, autocommit=True) as db:
        functions = [
            r[0]
            for r in db.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.proname LIKE 'hunter\\_%'"
            ).fetchall()
        ]
        assert len(functions) > 20
        for function in functions:
            assert not db.execute(
                "SELECT has_function_privilege(%s, %s, 'EXECUTE')", (role, function)
            ).fetchone()[0], function
        for table in TABLES:
            for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE"):
                assert not db.execute(
                    "SELECT has_table_privilege(%s, %s, %s)", (role, table, privilege)
                ).fetchone()[0], (table, privilege)
        # And for real, as that role:
        for statement in (
            "SELECT * FROM hunter_seen_jobs",
            "INSERT INTO hunter_meta VALUES ('x', 'y')",
            "SELECT hunter_count_pending()",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), db.transaction():
                db.execute(f"SET LOCAL ROLE {role}")
                db.execute(statement)


def test_service_role_can_do_all_hunter_needs(old_project: str) -> None:
    with psycopg.connect(old_project, autocommit=True) as db:
        for table in TABLES:
            for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE"):
                assert db.execute(
                    "SELECT has_table_privilege('service_role', %s, %s)", (table, privilege)
                ).fetchone()[0]
        assert all(
            r[0]
            for r in db.execute(
                "SELECT relrowsecurity FROM pg_class WHERE relname = ANY(%s)", (TABLES,)
            )
        )


def test_through_the_api_a_publishable_key_gets_nothing(supabase: PostgREST) -> None:
    from hunter.errors import SchemaError
    from hunter.store.supabase import SupabaseStore

    with pytest.raises(SchemaError, match="not in this Supabase project"):
        SupabaseStore(supabase.url, PUBLISHABLE_KEY).migrate()
    assert SupabaseStore(supabase.url, legacy_key("service_role")).outbox.count_pending() == 0


def supabase_env(folder: Path, url: str, key: str, **extra: str) -> dict[str, str]:
    return base_env(folder, SUPABASE_URL=url, SUPABASE_SERVICE_ROLE_KEY=key, **extra)


@pytest.mark.parametrize(
    ("key", "needle"),
    [
        (PUBLISHABLE_KEY, "a publishable (anon) key"),
        (legacy_key("anon"), "a publishable (anon)"),
        (legacy_key("authenticated"), "the role 'authenticated'"),
        ("hello", "not a Supabase"),
    ],
)
def test_a_key_that_is_not_secret_is_refused(tmp_path: Path, key: str, needle: str) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    env = supabase_env(tmp_path, "https://project.supabase.co", key)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr
    assert key not in result.stdout + result.stderr


def test_a_missing_or_outdated_schema_says_what_to_run(
    tmp_path: Path, pg_url: str, supabase_roles: None
) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    api = PostgREST(pg_url)
    try:
        env = supabase_env(tmp_path, api.url, SECRET_KEY)
        missing = run_hunter(tmp_path, "run", "--once", env=env)
        assert missing.returncode == 1
        assert "hunter's functions are not in this Supabase project" in missing.stderr
        assert "run `hunter schema`" in missing.stderr
        apply_schema(pg_url)
        with psycopg.connect(pg_url, autocommit=True) as db:
            db.execute("UPDATE hunter_meta SET value = '0' WHERE key = 'schema_version'")
        outdated = run_hunter(tmp_path, "check", env=env)
        latest = queries.latest_version("postgres")
        assert f"schema in Supabase is version 0, this hunter needs {latest}" in outdated.stdout
        assert SECRET_KEY not in missing.stderr + outdated.stdout
    finally:
        api.close()


def test_database_url_wins_and_says_so(tmp_path: Path, pg_url: str) -> None:
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    env = supabase_env(
        tmp_path, "https://project.supabase.co", PUBLISHABLE_KEY, DATABASE_URL=pg_url
    )
    result = run_hunter(tmp_path, "check", env=env)
    assert "PostgreSQL (DATABASE_URL; SUPABASE_URL is set too and not used)" in result.stdout


def poll_calls(
    tmp_path: Path, board: Board, api: PostgREST, line: LineStandIn, listings: int
) -> dict[str, int]:
    folder = tmp_path / str(listings)
    folder.mkdir()
    env = supabase_env(folder, api.url, SECRET_KEY, **line.env())
    path = f"/jobs{listings}"
    url = board.serve_jobs(path, [("seed", "seed")])
    write_config(
        folder, [html_source(f"b{listings}", url)], flood_threshold=0, max_alerts_per_poll=1000
    )
    assert run_hunter(folder, "run", "--once", env=env).returncode == 0
    # Ids of this page's own: the same ids on one host are one link, one job on two sources
    board.serve_jobs(path, [(f"{listings}-{n}", f"job {n}") for n in range(listings)])
    api.calls.clear()
    result = run_hunter(folder, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    return dict(api.calls)


def test_round_trips_per_poll_do_not_grow_with_listings(
    tmp_path: Path, board: Board, supabase: PostgREST, line: LineStandIn
) -> None:
    small = poll_calls(tmp_path, board, supabase, line, 10)
    large = poll_calls(tmp_path, board, supabase, line, 500)
    per_push = {"hunter_claim_due", "hunter_claim_chat", "hunter_save_batch", "hunter_mark_sent"}
    pushes = (500 + 47) // 48
    for name in per_push:
        assert large[name] - small[name] == pushes - 1, (name, small, large)
    fixed = {k: v for k, v in small.items() if k not in per_push}
    assert fixed == {k: v for k, v in large.items() if k not in per_push}
    # schema check, the run's time (a cron's gap), source states, the claim of the due sources,
    # chat rules, the look-up of earlier copies (issue 43), record, note, the reads kept for
    # the history, ...
    assert sum(fixed.values()) <= 11, fixed
    # Their few words ("Details of job 7") may be a re-post's (likeness.brief): one look-up
    # for the read, however many listings.
    assert fixed.get("hunter_likeness_note", 0) <= 1
    assert len(line.delivered) == 510


def test_alerts_once_through_supabase(
    tmp_path: Path, board: Board, supabase: PostgREST, line: LineStandIn
) -> None:
    env = supabase_env(tmp_path, supabase.url, legacy_key("service_role"), **line.env())
    url = board.serve_jobs("/jobs", [("1", "python old")])
    write_config(tmp_path, [html_source("board", url)])
    first = run_hunter(tmp_path, "run", "--once", env=env)
    assert first.returncode == 0, first.stderr
    assert "store Supabase (http://127.0.0.1" in first.stdout
    board.serve_jobs("/jobs", [("2", "python new"), ("1", "python old")])
    for _ in range(2):
        assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered == ["python new"]
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    assert status["sent_last_24h"] == 1


def test_no_prepared_statements_for_supabases_transaction_pooler(pg_url: str) -> None:
    """Port 6543 (transaction mode) hands each statement to any server connection, where a
    statement prepared on another one does not exist."""
    from hunter.store.postgres import PostgresStore

    with PostgresStore(pg_url) as store:
        store.migrate()
        for _ in range(10):  # psycopg would prepare from the 5th execution by default
            store.outbox.count_pending()
        # pg_prepared_statements is per session: ask on hunter's own connection.
        prepared = store._execute("SELECT count(*) AS n FROM pg_prepared_statements")
        assert prepared == [{"n": 0}]


def test_an_unreachable_project_is_one_clear_error(tmp_path: Path) -> None:
    from tests.support.local_server import free_port

    port = free_port()  # nobody listens on it
    write_config(tmp_path, [html_source("b", "https://board.test/jobs")])
    env = supabase_env(tmp_path, f"http://127.0.0.1:{port}", SECRET_KEY)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 1
    said = f"cannot reach Supabase: 127.0.0.1:{port} refused the connection (nothing listens"
    assert said in result.stderr  # not a bare "ConnectError" (a new user's find)
    assert "SUPABASE_URL" in result.stderr and SECRET_KEY not in result.stderr
    assert "Traceback" not in result.stderr


def test_a_quiet_cron_run_over_supabase_costs_at_most_six_calls(
    tmp_path: Path, board: Board, supabase: PostgREST, line: LineStandIn
) -> None:
    """Issue 44: a 5-minute cron's run when nothing is due, over Supabase, where each call
    crosses the internet: the schema check, the run's time, the sources' rows, the chats'
    rules and the outbox's look. Each saved call is a tenth of a second of every run."""
    env = supabase_env(tmp_path, supabase.url, SECRET_KEY, **line.env())
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    write_config(tmp_path, [html_source("b", url)], schedule="learned")
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    supabase.calls.clear()
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert "not due" in result.stderr and board.hits["/jobs"] == 1, result.stderr
    assert sum(supabase.calls.values()) <= 6, dict(supabase.calls)


def test_a_read_of_the_page_read_last_time_asks_no_likeness(
    tmp_path: Path, board: Board, supabase: PostgREST, line: LineStandIn
) -> None:
    """A read mostly shows what the last one showed: its listings are no later copy of a job
    (they were recorded), so none of their likeness is made or sent, and a page read again as
    it was asks the store nothing about copies (poll/merging.py's page marks). A new listing
    on it is looked up, alone."""
    env = supabase_env(tmp_path, supabase.url, SECRET_KEY, **line.env())
    jobs = [(str(n), f"python job {n}") for n in range(20)]
    url = board.serve_jobs("/jobs", jobs)
    write_config(tmp_path, [html_source("b", url)], filter={"include": ["python"]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    supabase.calls.clear()
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert board.hits["/jobs"] == 2 and supabase.calls["hunter_likeness_note"] == 0
    board.serve_jobs("/jobs", [("new", "python job new"), *jobs])
    supabase.calls.clear()
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    # The new listing alone is looked up: its few words ("Details of python job new") may
    # be a re-post's under a new id (likeness.brief); the other twenty are not
    assert supabase.calls["hunter_likeness_note"] == 1
    assert line.delivered == ["python job new"]


def test_a_quiet_cron_run_costs_at_most_six_https_calls(
    tmp_path: Path, board: Board, supabase: PostgREST, line: LineStandIn
) -> None:
    """Issue 56, must-show 1: a `run --once` that reads its source and finds nothing new
    costs at most 6 HTTPS calls to Supabase (each one crosses the internet): the store's
    look (its schema), the run's one look (its time, the sources, the outbox, the prune's
    turn), and the read's claim, note and history. (A run with nothing due: test_round_trips.)"""
    env = supabase_env(tmp_path, supabase.url, SECRET_KEY, **line.env())
    url = board.serve_jobs("/jobs", [(str(n), f"python job {n}") for n in range(20)])
    # schedule = "fixed": every run reads every source
    config = {"filter": {"include": ["python"]}, "schedule": "fixed"}
    write_config(tmp_path, [html_source("b", url)], **config)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    supabase.calls.clear()
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    quiet = dict(supabase.calls)
    assert sum(quiet.values()) <= 6, quiet
    assert board.hits["/jobs"] == 2 and line.delivered == []
