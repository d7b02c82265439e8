"""A database made by each later release (d9d92cb, cb26bb9, 41f876e, 085005c, 2a262fd: schema
10, 13, 26, 28 and 29) upgrades to exactly what a fresh install creates, on PostgreSQL and
SQLite, and keeps every listing it knew. The functions are repeatable now
(hunter/store/sql/postgres/functions/): the upgrade applies their current text after the
numbered migrations, and a fresh database holds the same.

Each release's database is made from the numbered migrations as this checkout has them, after
checking that their statements are the ones the releases shipped: each file's SQL, its `--`
comments left out (the code's history moved to git, so comments naming the tracker's issues
were taken out; nothing that runs changed), hashed below from `git show 2a262fd:<file>`. No
file changed between these releases. The first three releases have their own tests in
test_migrations.py.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

import psycopg
import pytest

from hunter.store import queries
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements
from tests.contract.test_migrations import record_as_the_first_release, still_known
from tests.support import postgres
from tests.support.schema import pg_shape, sqlite_shape

RELEASES = {"d9d92cb": 10, "cb26bb9": 13, "41f876e": 26, "085005c": 28, "2a262fd": 29}
# `git show 2a262fd:hunter/store/sql/<dialect>/<file>`, without its comments: sha256, 16 digits
SHIPPED = {
    "postgres": {
        "001_init.sql": "2c7d8b295ccb43f2",
        "002_pace.sql": "da2957a1cd915eb9",
        "003_chat.sql": "0ac870e4fd65229e",
        "004_inbox.sql": "bfa09ac781983075",
        "005_chats.sql": "9956aa1cce1f8d06",
        "006_tuning.sql": "6737384807af9b51",
        "007_chat_floors.sql": "4d6eecc764f5c02d",
        "008_chat_order.sql": "61b63dcae2b10650",
        "009_source_shape.sql": "ebc2e61f3ae056aa",
        "010_sent_by_chat.sql": "a69ff6edd68906c0",
        "011_marks_by_chat.sql": "5969e29ef37af960",
        "012_reads.sql": "5748748f77a596e3",
        "013_schedule.sql": "a2492d1fba6175b5",
        "014_bursts.sql": "262e0659b1e706b9",
        "015_chat_key.sql": "35ae2bd1f2d42527",
        "016_reads_by_day.sql": "1e7ce3ded51e274a",
        "017_outbox_chats.sql": "75f807c3a21493c8",
        "018_outbox_look.sql": "2397c00fbe0355cc",
        "019_subscribers.sql": "ab6dd11f0e0ac78c",
        "020_likeness.sql": "79169697dc8f05c6",
        "021_reads_merged.sql": "e72c5cd3545acd8e",
        "022_likeness_fresh.sql": "4cca15795ff6f6a7",
        "023_chat_rows_compact.sql": "02c4b358070d9f19",
        "024_also_on.sql": "f2802f41caa5c812",
        "025_likeness_by_employer.sql": "6e67b718ee533585",
        "026_send_slots.sql": "98c436688685b3bd",
        "027_turns.sql": "ae8231ba7f5eceb8",
        "028_places.sql": "acd7c4c58dcf918b",
        "029_asker_names.sql": "4772bd8f8f1d36f8",
    },
    "sqlite": {
        "001_init.sql": "c4ccdfdbdcad9fe8",
        "002_pace.sql": "3fed310459860e9a",
        "003_chat.sql": "ca107313bbc10633",
        "004_inbox.sql": "7557ca3ba54f590a",
        "005_chats.sql": "c078e4288244ef5b",
        "006_tuning.sql": "e80f646112744078",
        "007_chat_floors.sql": "ea60f8ea39207bf8",
        "008_chat_order.sql": "bc36feb1e55e3ad1",
        "009_source_shape.sql": "4bb98c6dfb26e001",
        "010_sent_by_chat.sql": "ccd5957b3c86237f",
        "011_marks_by_chat.sql": "0915fbd6fca6b63a",
        "012_reads.sql": "3c7b0f5a46f24143",
        "013_schedule.sql": "727e2bba5c4e3b98",
        "014_bursts.sql": "17db4fd369edb924",
        "015_chat_key.sql": "314df7b226989645",
        "016_reads_by_day.sql": "17db4fd369edb924",
        "017_outbox_chats.sql": "17db4fd369edb924",
        "018_outbox_look.sql": "17db4fd369edb924",
        "019_subscribers.sql": "b96e44ab61574151",
        "020_likeness.sql": "439d940a8fada3d0",
        "021_reads_merged.sql": "574fdf31bfe9c348",
        "022_likeness_fresh.sql": "17db4fd369edb924",
        "023_chat_rows_compact.sql": "17db4fd369edb924",
        "024_also_on.sql": "c252bbba06493f6f",
        "025_likeness_by_employer.sql": "17db4fd369edb924",
        "026_send_slots.sql": "10e60a272bb13426",
        "027_turns.sql": "64be91f7e12dd759",
        "028_places.sql": "92bc0d0b2c334994",
        "029_asker_names.sql": "4616e296b2ff2ff5",
    },
}


def statements_digest(text: str) -> str:
    """A migration's SQL as it runs: its lines without `--` comments, hashed."""
    lines = [re.sub(r"--.*$", "", line).rstrip() for line in text.splitlines()]
    return hashlib.sha256("\n".join(x for x in lines if x.strip()).encode()).hexdigest()[:16]


def shipped(dialect: str, version: int) -> list[str]:
    """Migrations 001 to `version`, as this checkout has them: each runs what it shipped."""
    found = [(v, name, sql) for v, name, sql in queries.migrations(dialect) if v <= version]
    for _version, name, sql in found:
        assert statements_digest(sql) == SHIPPED[dialect][name], (
            f"{dialect}/{name} runs other statements than it shipped with: a change is a new "
            "numbered migration"
        )
    return [sql for _version, _name, sql in found]


@pytest.fixture
def fresh_pg_url() -> object:
    name, url = postgres.fresh_database()
    yield url
    postgres.drop_database(name)


@pytest.mark.parametrize("release", RELEASES, ids=RELEASES)
def test_postgres_from_a_later_release(release: str, pg_url: str, fresh_pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        for sql in shipped("postgres", RELEASES[release]):
            db.execute(sql.encode())
    with PostgresStore(pg_url) as old:  # no migrate: that release's functions do the writing
        record_as_the_first_release(old)
    with PostgresStore(pg_url) as upgraded:
        upgraded.migrate()
        still_known(upgraded)
    with PostgresStore(fresh_pg_url) as fresh:
        fresh.migrate()
    assert pg_shape(pg_url) == pg_shape(fresh_pg_url)


@pytest.mark.parametrize("release", RELEASES, ids=RELEASES)
def test_sqlite_from_a_later_release(release: str, tmp_path: Path) -> None:
    old_path, fresh_path = tmp_path / "old.db", tmp_path / "fresh.db"
    version = RELEASES[release]
    with sqlite3.connect(old_path) as db:
        for sql in shipped("sqlite", version):
            for statement in _statements(sql):
                db.execute(statement)
        db.execute(
            "INSERT INTO hunter_meta (key, value) VALUES ('schema_version', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(version),),
        )
    with SQLiteStore(old_path) as old:
        record_as_the_first_release(old)
    with SQLiteStore(old_path) as upgraded:
        upgraded.migrate()
        still_known(upgraded)
    with SQLiteStore(fresh_path) as fresh:
        fresh.migrate()
    assert sqlite_shape(old_path) == sqlite_shape(fresh_path)
