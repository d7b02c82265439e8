"""A database made by each later release (d9d92cb, cb26bb9, 41f876e, 085005c, 2a262fd: schema
10, 13, 26, 28 and 29) upgrades to exactly what a fresh install creates, on PostgreSQL and
SQLite, and keeps every listing it knew. The functions are repeatable now
(hunter/store/sql/postgres/functions/): the upgrade applies their current text after the
numbered migrations, and a fresh database holds the same.

Each release's database is made from the numbered migrations as this checkout has them, after
checking that each file is, byte for byte, what the releases shipped (hashed below from
`git show 2a262fd:<file>`; no file changed between these releases): a migration is never
edited, a change is always a new numbered file. The first three releases have their own tests in
test_migrations.py.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import psycopg
import pytest

from hunter.store import queries
from hunter.store.postgres import PostgresStore
from hunter.store.sqlite import SQLiteStore
from hunter.store.sqlite.database import _statements
from tests.contract.test_migrations import (
    record_as_the_first_release,
    still_known,
    upgrades_as_fresh_postgres,
    upgrades_as_fresh_sqlite,
)
from tests.support import postgres

RELEASES = {"d9d92cb": 10, "cb26bb9": 13, "41f876e": 26, "085005c": 28, "2a262fd": 29}
# `git show 2a262fd:hunter/store/sql/<dialect>/<file> | sha256sum`, its first 32 digits
SHIPPED = {
    "postgres": {
        "001_init.sql": "5804c854b235e1f6f5d610e72cba4bbe",
        "002_pace.sql": "af27102dfa2d917ed2cb7d2ff166e624",
        "003_chat.sql": "21c3d4189bfb54806a73667ca1ca9b21",
        "004_inbox.sql": "cb807212f6fd5649c4d96dec8769a167",
        "005_chats.sql": "41451bc50eeb42cf70d5d697c42f1d09",
        "006_tuning.sql": "761743972200dce517add42d4d732fac",
        "007_chat_floors.sql": "65d486a40b754fb97058d6f5f756fbc0",
        "008_chat_order.sql": "8d4c654d848cefd2f6df8f9d4545623e",
        "009_source_shape.sql": "bff46b237ba9ddf06566b4d4cc171bf2",
        "010_sent_by_chat.sql": "271ad809a7ec2b41e247bf40fcf56f69",
        "011_marks_by_chat.sql": "b3aadf8a15721205f0ccbc7b2751edbc",
        "012_reads.sql": "2730292d7c6f85ad2c6186d1bf38802e",
        "013_schedule.sql": "0a5efd0265ad80a409e658bcd9541e3d",
        "014_bursts.sql": "b86a8c449f8674f502c7ed154ff2a652",
        "015_chat_key.sql": "faf9fd343f2130293a079ae1e7dd5f05",
        "016_reads_by_day.sql": "aed6856ae68edd976224aa78986e2fd0",
        "017_outbox_chats.sql": "7377e8204cfe0f43aac5872c42c6ee05",
        "018_outbox_look.sql": "52ee69e0db77b29f4c0f5d80c37c18a5",
        "019_subscribers.sql": "71f2330565b79d41e85cef7643e5ab75",
        "020_likeness.sql": "7da44c69679828f047f5b3778b3d5629",
        "021_reads_merged.sql": "f72217f6e2926d613311737766606b56",
        "022_likeness_fresh.sql": "96417b56b1598dbfa8d3bb39fde5ef2a",
        "023_chat_rows_compact.sql": "c73883f12b4a24d5360385336e817bb8",
        "024_also_on.sql": "996bf3f8d41ed91427de7fa982c9028b",
        "025_likeness_by_employer.sql": "7f7cf97823f47bbc08c1e6dba136b96c",
        "026_send_slots.sql": "3be597c08d562a94860f3182a76505e6",
        "027_turns.sql": "98d460a730cae862f75ad8fed53d0737",
        "028_places.sql": "5d276bbc22ed6a0d055278ca51c3fa17",
        "029_asker_names.sql": "53bc9fe36b4452a48397d54dd0b49c0c",
    },
    "sqlite": {
        "001_init.sql": "e27baee7208151fb2cdc87e198f5d6d4",
        "002_pace.sql": "8c50cd642998e183647c4ec17f25d93d",
        "003_chat.sql": "386782824d4a5508460103fe67e93842",
        "004_inbox.sql": "7c3de1c58c557d91341ae76aba6650e1",
        "005_chats.sql": "f7cf6a231b47bb408c2de0e3871eeeaf",
        "006_tuning.sql": "9b03a6edc921ea1c7a5cc9c596870514",
        "007_chat_floors.sql": "2249bd74020352957c96ba023a780aa3",
        "008_chat_order.sql": "d30aadbc2f00b048661d435e948b5034",
        "009_source_shape.sql": "f69429481dbf8f1cedc3bc7db53acbee",
        "010_sent_by_chat.sql": "31de7b3ffb318e913d717ab9ebe6081f",
        "011_marks_by_chat.sql": "bef1896c2978fe9f0c104cfb5e80d721",
        "012_reads.sql": "005d84a653dfbca7a23d100901a1144e",
        "013_schedule.sql": "62ac110d76d356bf1aba7567eb9b9634",
        "014_bursts.sql": "ecd6a474ba7697883d108948fc210079",
        "015_chat_key.sql": "80905674af549722161369f2e6bda8a7",
        "016_reads_by_day.sql": "8cfa9fd947620760115eca6ffafddcda",
        "017_outbox_chats.sql": "ce5cf0c4d4da8e56cbbbc4fb01b3bf4b",
        "018_outbox_look.sql": "b18e674785c76d248e9a62771d9255a9",
        "019_subscribers.sql": "468d41de716fa90bd738f8c0662d0dbe",
        "020_likeness.sql": "2a43ea54f1665ad1c4100326e9d857a8",
        "021_reads_merged.sql": "9ae7066bfff4014e4f45287affa1e768",
        "022_likeness_fresh.sql": "fd87c7d1453690e2e223984444494d49",
        "023_chat_rows_compact.sql": "b8a334d4b900dbc84def4a413b439df7",
        "024_also_on.sql": "886d22d3b63736439586dfafb447aa02",
        "025_likeness_by_employer.sql": "fdb621bb476351686c40de07f9175fcd",
        "026_send_slots.sql": "94b8efb555b9e89566d07c9be13393c7",
        "027_turns.sql": "60496c552e8290574871b30e60d35169",
        "028_places.sql": "8976f9479b026c33d5ebb1bdeb6d60a9",
        "029_asker_names.sql": "37f6c58a63479ee931600d4ff629f902",
    },
}


def shipped(dialect: str, version: int) -> list[str]:
    """Migrations 001 to `version`, as this checkout has them: each byte as it shipped."""
    found = [(v, name, sql) for v, name, sql in queries.migrations(dialect) if v <= version]
    for _version, name, sql in found:
        assert hashlib.sha256(sql.encode()).hexdigest()[:32] == SHIPPED[dialect][name], (
            f"{dialect}/{name} was edited after it shipped: a change is a new numbered migration"
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
    upgrades_as_fresh_postgres(pg_url, fresh_pg_url, still_known)


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
    upgrades_as_fresh_sqlite(old_path, fresh_path, still_known)
