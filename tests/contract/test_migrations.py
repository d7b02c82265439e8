"""A database made by each release (commits 79ebbda, a1cc299 and cdd37b2) upgrades to exactly
what a fresh install creates, and keeps every listing it knew: nothing is alerted again after
an upgrade, and the chat's mutes, marks, answered events and tuning survive it.

tests/fixtures/schema_79ebbda/ holds the first release's schema files as they were shipped
(`git show 79ebbda:hunter/store/sql/<dialect>/001_init.sql`); they never change. The second
release's database is made from migrations 001-003 as this checkout has them, after checking
that they are, byte for byte, the files that release shipped (their SHA-256 below): a
migration is never edited, a change is always a new numbered file. The third release's is
made the same way from migrations 001-007.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from hunter.rules.listing import Listing
from hunter.store import queries, schema_sql
from hunter.store.base import Store
from hunter.store.postgres import PostgresStore
from hunter.store.records import SourceNote
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements
from tests.support import postgres
from tests.support.schema import pg_shape, sqlite_shape

FIRST_RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "schema_79ebbda"
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
SEEN = [Listing(f"a:{n}", "a", f"python job {n}", f"https://x.test/{n}") for n in range(1, 4)]


def record_as_the_first_release(store: Store) -> None:
    """Prime source a, then see a:3 as a new match (pending), as a running hunter would."""
    store.outbox.record("a", SEEN[:2], set(), T0)
    store.outbox.record("a", SEEN, {"a:3"}, T0)


def still_known(store: Store) -> None:
    assert store.outbox.job_states() == {"a:1": "primed", "a:2": "primed", "a:3": "pending"}
    assert store.outbox.record("a", SEEN, {x.job_id for x in SEEN}, T0) == {}  # nothing new
    assert queries.latest_version(store.dialect) == store.schema_version()


@pytest.fixture
def second_pg_url() -> Any:
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


def upgrades_as_fresh_postgres(old: str, fresh: str, check: Callable[[Store], None]) -> None:
    """The database at `old` migrated keeps what it had (`check`) and ends with the schema a
    fresh one (at `fresh`) gets."""
    with PostgresStore(old) as upgraded:
        upgraded.migrate()
        check(upgraded)
    with PostgresStore(fresh) as new:
        new.migrate()
    assert pg_shape(old) == pg_shape(fresh)


def upgrades_as_fresh_sqlite(old: Path, fresh: Path, check: Callable[[Store], None]) -> None:
    """The same for SQLite files."""
    with SQLiteStore(old) as upgraded:
        upgraded.migrate()
        check(upgraded)
    with SQLiteStore(fresh) as new:
        new.migrate()
    assert sqlite_shape(old) == sqlite_shape(fresh)


def postgres_of_the_first_release(url: str) -> None:
    """A database as the first release left it: its schema, and listings it recorded."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute((FIRST_RELEASE / "postgres.sql").read_text(encoding="utf-8").encode())
    with PostgresStore(url) as old:  # no migrate: the first release's functions do the writing
        record_as_the_first_release(old)


def test_postgres_from_the_first_release(pg_url: str, second_pg_url: str) -> None:
    postgres_of_the_first_release(pg_url)
    upgrades_as_fresh_postgres(pg_url, second_pg_url, still_known)


def test_supabase_sql_upgrades_the_first_release_too(pg_url: str, second_pg_url: str) -> None:
    """What a Supabase user does after an upgrade: run `hunter schema` again."""
    postgres_of_the_first_release(pg_url)
    for url in (pg_url, second_pg_url):
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(schema_sql().encode())
    with PostgresStore(pg_url) as upgraded:
        still_known(upgraded)
    assert pg_shape(pg_url) == pg_shape(second_pg_url)


def test_sqlite_from_the_first_release(tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    with sqlite3.connect(old_path) as db:
        for statement in _statements((FIRST_RELEASE / "sqlite.sql").read_text(encoding="utf-8")):
            db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '1')")
    with SQLiteStore(old_path) as old:  # no migrate: the first release's tables as they are
        record_as_the_first_release(old)
    upgrades_as_fresh_sqlite(old_path, fresh_path, still_known)


# `git show a1cc299:hunter/store/sql/<dialect>/<file> | sha256sum`
SECOND_RELEASE = {
    "postgres": {
        "001_init.sql": "5804c854b235e1f6f5d610e72cba4bbe526d8bfbc165f665f5ad113b9e403e98",
        "002_pace.sql": "af27102dfa2d917ed2cb7d2ff166e624f98810d2b6ea7b3f5abf95122ea29818",
        "003_chat.sql": "21c3d4189bfb54806a73667ca1ca9b218733006ff1dba1d85395a5671b4faed7",
    },
    "sqlite": {
        "001_init.sql": "e27baee7208151fb2cdc87e198f5d6d4985911c26eddeda81093457617b2b775",
        "002_pace.sql": "8c50cd642998e183647c4ec17f25d93d4d5012187766f140e8e2e5f5e5ada4c5",
        "003_chat.sql": "386782824d4a5508460103fe67e93842cec227a713866287fd7d121585af2929",
    },
}


# `git show cdd37b2:hunter/store/sql/<dialect>/<file> | sha256sum`
THIRD_RELEASE = {
    "postgres": {
        **SECOND_RELEASE["postgres"],
        "004_inbox.sql": "cb807212f6fd5649c4d96dec8769a1675ef01ecbea6cb41aa4e25fb7e7c5d9b3",
        "005_chats.sql": "41451bc50eeb42cf70d5d697c42f1d097447e0a4ef43ee3becc6c2813347f197",
        "006_tuning.sql": "761743972200dce517add42d4d732fac109e3533ad53530107b1942f93e80299",
        "007_chat_floors.sql": "65d486a40b754fb97058d6f5f756fbc08735f6134b9aec8afcaec4a497629ecc",
    },
    "sqlite": {
        **SECOND_RELEASE["sqlite"],
        "004_inbox.sql": "7c3de1c58c557d91341ae76aba6650e17bb8debbed88720563efdb3db6b4c9e6",
        "005_chats.sql": "f7cf6a231b47bb408c2de0e3871eeeafe836c7a25fec11d124303aad24b0596e",
        "006_tuning.sql": "9b03a6edc921ea1c7a5cc9c596870514fe744783fdc7f9be64e3c783e645f828",
        "007_chat_floors.sql": "2249bd74020352957c96ba023a780aa381724eb75ff39cb2ad7ff873bf31c5af",
    },
}


def second_release_sql(dialect: str) -> list[str]:
    """Migrations 001-003, as commit a1cc299 shipped them (checked)."""
    return release_sql(SECOND_RELEASE[dialect], dialect)


def release_sql(shipped: dict[str, str], dialect: str) -> list[str]:
    """The migrations a release shipped, as this checkout has them (checked byte for byte)."""
    found = {name: sql for _version, name, sql in queries.migrations(dialect) if name in shipped}
    for name, digest in shipped.items():
        assert hashlib.sha256(found[name].encode()).hexdigest() == digest, (
            f"{dialect}/{name} was edited after it shipped: add a new numbered migration instead"
        )
    return [found[name] for name in sorted(shipped)]


def use_as_the_second_release(store: Store, statements: list[str]) -> None:
    """What a1cc299 writes: listings, a mark, and (in that release's own SQL, which today's
    code no longer speaks) a push of the pace, a mute and an answered event."""
    record_as_the_first_release(store)
    # A mark as that release made it (its rows had no chat column, which today's mark asks)
    if isinstance(store, PostgresStore):
        store._execute(f"SELECT hunter_mark('a:1', 'applied', '{T0.isoformat()}')")
    else:
        assert isinstance(store, SQLiteStore)
        with store.tx() as db:
            db.execute(
                "INSERT INTO hunter_marks (job_id, mark, listing, marked_at) SELECT job_id, "
                "'applied', listing, ? FROM hunter_seen_jobs WHERE job_id = 'a:1'",
                (T0.isoformat(),),
            )
    for statement in statements:
        if isinstance(store, PostgresStore):
            store._execute(statement)
        else:
            assert isinstance(store, SQLiteStore)
            with store.tx() as db:
                db.execute(statement)


def still_known_after_the_second(store: Store) -> None:
    still_known(store)
    state = store.pace.state()
    assert state is not None and state.pushes == 1
    assert set(store.chat.mutes(T0)) == {"django"}
    assert [m.job_id for m in store.chat.marks("applied")] == ["a:1"]
    later = T0 + timedelta(minutes=5)
    # The event a1cc299 answered is neither answered again nor accepted as new.
    assert store.chat.take_stranded("w", later, later, 10) == []
    assert store.chat.accept([("E-old", "U1", {"webhookEventId": "E-old"})], "w", T0) == set()


def test_postgres_from_the_second_release(pg_url: str, second_pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        for sql in second_release_sql("postgres"):
            db.execute(sql.encode())
    with PostgresStore(pg_url) as old:  # no migrate: the second release's schema as it is
        use_as_the_second_release(
            old,
            [
                "SELECT * FROM hunter_claim_push('2026-11', 100, 10, 50, 5, false, now())",
                "SELECT hunter_mute('django', now() + interval '30 days', now())",
                "SELECT hunter_claim_event('E-old', now())",
            ],
        )
    upgrades_as_fresh_postgres(pg_url, second_pg_url, still_known_after_the_second)


def test_sqlite_from_the_second_release(tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    with sqlite3.connect(old_path) as db:
        for sql in second_release_sql("sqlite"):
            for statement in _statements(sql):
                db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '3')")
    with SQLiteStore(old_path) as old:
        use_as_the_second_release(
            old,
            [
                "INSERT INTO hunter_pace (id, month, tat, pushes, updated_at) "
                "VALUES (1, '2026-11', 110, 1, '2026-11-01T09:00:00.000000Z')",
                "INSERT INTO hunter_mutes (word, until, muted_at) "
                "VALUES ('django', '2026-12-01T09:00:00.000000Z', '2026-11-01T09:00:00.000000Z')",
                "INSERT INTO hunter_events (event_id, received_at) "
                "VALUES ('E-old', '2026-11-01T09:00:00.000000Z')",
            ],
        )
    upgrades_as_fresh_sqlite(old_path, fresh_path, still_known_after_the_second)


def still_tuned_after_the_third(store: Store) -> None:
    """cdd37b2's tuning survives, and from now on the command said last wins: an older one
    (a replica late with it) changes nothing, a newer one does."""
    still_known(store)
    owner = store.chat.rules(T0)[""]
    assert (owner.added, owner.min_budget, owner.paused) == (("django",), 5000, True)
    store.chat.tune_settings("", T0 - timedelta(hours=1), min_budget=1000)  # said before
    store.chat.tune_word("", "django", "remove", T0 - timedelta(hours=1), 100)
    assert store.chat.rules(T0)[""].min_budget == 5000
    assert store.chat.rules(T0)[""].added == ("django",)
    store.chat.tune_settings("", T0 + timedelta(hours=1), min_budget=2000, paused=False)
    owner = store.chat.rules(T0)[""]
    assert (owner.min_budget, owner.paused) == (2000, False)


def test_postgres_from_the_third_release(pg_url: str, second_pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        for sql in release_sql(THIRD_RELEASE["postgres"], "postgres"):
            db.execute(sql.encode())
    with PostgresStore(pg_url) as old:  # cdd37b2's functions, as that release called them
        record_as_the_first_release(old)
        old._execute("SELECT hunter_tune_word('', 'django', 'add', '2026-11-01 09:00+00')")
        old._execute("SELECT hunter_tune_settings('', 5000, true, '2026-11-01 09:00+00')")
    upgrades_as_fresh_postgres(pg_url, second_pg_url, still_tuned_after_the_third)


def test_sqlite_from_the_third_release(tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    with sqlite3.connect(old_path) as db:
        for sql in release_sql(THIRD_RELEASE["sqlite"], "sqlite"):
            for statement in _statements(sql):
                db.execute(statement)
        db.execute("INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '7')")
        at = "2026-11-01T09:00:00.000000Z"
        db.execute(f"INSERT INTO hunter_tuning VALUES ('', 'django', 'add', '{at}')")
        db.execute(f"INSERT INTO hunter_chat_settings VALUES ('', 5000, 1, '{at}')")
    with SQLiteStore(old_path) as old:
        record_as_the_first_release(old)
    upgrades_as_fresh_sqlite(old_path, fresh_path, still_tuned_after_the_third)


def test_the_previous_hunter_still_reads_and_notes_its_sources_after_the_upgrade(
    pg_url: str,
) -> None:
    """A deploy runs the old hunter beside the new one for a while: after migration 13, the
    calls the old one makes (its rows of the sources, a note without a schedule) still
    answer, and its note keeps what the new one learned of the source."""
    with PostgresStore(pg_url) as store:
        store.migrate()
        learned = {"counts": [1.0] * 24, "watched": [2.0] * 24, "mark": None, "at": 1.7e9}
        store.sources.note([SourceNote("a", 3, good=True, cadence=learned)], T0, 3)
    old_note = {"name": "a", "count": 4, "error": None, "good": True, "not_before": None}
    with psycopg.connect(pg_url, autocommit=True) as db:
        [(name, count)] = db.execute("SELECT name, last_count FROM hunter_sources_all()").fetchall()
        assert (name, count) == ("a", 3)
        db.execute(
            "SELECT * FROM hunter_note_sources(%s::jsonb, %s, 3)",
            (json.dumps([old_note]), T0),
        )
    with PostgresStore(pg_url) as store:
        state = store.sources.states()["a"]
    assert state.cadence == learned


def test_a_hunter_before_schema_29_still_joins_a_chat_during_a_deploy(migrated_pg_url: str) -> None:
    """Replicas overlap on a deploy: the hunter before schema 29 calls hunter_subscriber_join
    with its five arguments. It still joins, and no name is kept (issue 62, low 7)."""
    with psycopg.connect(migrated_pg_url, autocommit=True) as db:
        said = db.execute(
            "SELECT hunter_subscriber_join(p_chat => %s, p_asked => true, p_most => 10, "
            "p_now => now(), p_by => %s)",
            ("telegram:5", "5"),
        ).fetchone()
        named = db.execute("SELECT count(*) FROM hunter_asker_names()").fetchone()
    assert said is not None and said[0] == "asked"
    assert named is not None and named[0] == 0
