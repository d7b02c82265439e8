"""The SQLite adapter: a local file, the embedded default.

SQLite has one writer at a time: every multi-step operation runs in a BEGIN IMMEDIATE
transaction, so two processes on one file still split the work and never send a row twice.
The rooms (outbox.py, sources.py, pace.py, chat.py) run their statements through `tx` and
`rows`; the statements are in sql/sqlite/queries.sql.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hunter.errors import NotMadeYet, SchemaError, StoreError, StoreGone, StoreRefused
from hunter.store import queries
from hunter.store.base import Store
from hunter.store.columns import Row, integer

Q = queries.load("sqlite")


def ts(value: datetime | None) -> str | None:
    """Fixed-width UTC text, so that times compare correctly as strings."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class SQLiteDatabase(Store):
    """The file, its connection and its transactions: what the rooms run their statements
    on. SQLiteStore (the package) adds the rooms."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        if not create and not os.path.exists(self.path):
            raise NotMadeYet(
                f"there is no hunter database at {self.path} yet (HUNTER_DB); `hunter run` or "
                "`hunter prime` creates it"
            )
        try:
            self._db = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.row_factory = _named
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=30000")
            self._file = SameFile(self.path)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the SQLite file {self.path}: {exc}; check HUNTER_DB"
            ) from exc

    def close(self) -> None:
        # Under the lock: another thread (the chat's) may be inside a statement, and sqlite3
        # freeing the connection under it crashes the process. After this, a use is an error.
        with self._lock:
            self._db.close()

    def check(self) -> None:
        """Raise StoreGone unless the file opened is still the one at its path."""
        self._file.check()

    def schema_version(self) -> int:
        with self.tx() as db:
            return _schema_version(db)

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One BEGIN IMMEDIATE transaction: SQLite's write lock first, then the work. One
        thread at a time on this connection (the chat's threads share it)."""
        with self._lock:
            self.check()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise _wrapped(exc, self.path) from exc

    def rows(self, name: str, **params: Any) -> list[Row]:
        # A list travels as JSON text (the queries read it with json_each).
        params = {k: json.dumps(v) if isinstance(v, list) else v for k, v in params.items()}
        with self._lock:
            self.check()
            try:
                return list(self._db.execute(Q[name], params).fetchall())
            except sqlite3.Error as exc:
                raise _wrapped(exc, self.path) from exc

    def param_time(self, value: datetime) -> object:
        return ts(value)

    def migrate(self) -> None:
        """Apply each migration this file lacks, one transaction each, in order. BEGIN
        IMMEDIATE takes SQLite's write lock first, so two processes starting together
        migrate one after the other, and the second finds nothing left to do. A current
        schema costs one transaction (every `run --once` opens the store)."""
        if self.schema_version() == queries.latest_version(self.dialect):
            return
        for version, _name, sql in queries.migrations(self.dialect):
            with self.tx() as db:
                _migrate(db, self.path, version, sql)


def _named(cursor: sqlite3.Cursor, values: tuple[object, ...]) -> dict[str, object]:
    """sqlite3's row factory: every row read by column name, as the other adapters do."""
    return {column[0]: value for column, value in zip(cursor.description, values, strict=True)}


class SameFile:
    """Whether the file at a path is still the one opened (one stat, before every read and
    write). Deleted or replaced under a running hunter (a cleanup, a restore, a second
    checkout), hunter would write to a file nobody sees and, restarted, forget what it sent:
    better to stop and say so."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._identity = self._at_path()

    def _at_path(self) -> tuple[int, int]:
        status = os.stat(self.path)
        return status.st_dev, status.st_ino

    def check(self) -> None:
        try:
            same = self._at_path() == self._identity
        except OSError:
            same = False
        if not same:
            raise StoreGone(
                f"the SQLite file {self.path} was deleted or replaced while hunter ran; "
                "stopping so that no listing is alerted twice or missed: put the file back "
                "(or accept a fresh start) and start hunter again"
            )


def _wrapped(exc: sqlite3.Error, path: str) -> StoreError:
    """A constraint or a value SQLite refuses is this statement's (StoreRefused); a locked,
    full or broken file is the database's."""
    refused = isinstance(exc, sqlite3.IntegrityError | sqlite3.DataError | sqlite3.ProgrammingError)
    return (StoreRefused if refused else StoreError)(f"SQLite ({path}): {exc}")


def _migrate(db: sqlite3.Connection, path: str, version: int, sql: str) -> None:
    """Apply migration `version` unless the file has it (inside its transaction)."""
    current, latest = _schema_version(db), queries.latest_version("sqlite")
    if current > latest:
        raise SchemaError(
            f"{path} holds hunter schema {current}, newer than this hunter ({latest}); "
            "upgrade hunter"
        )
    if version <= current:
        return
    for statement in _statements(sql):
        db.execute(statement)
    db.execute(Q["set_schema_version"], {"version": str(version)})


def _schema_version(db: sqlite3.Connection) -> int:
    if not db.execute(Q["meta_exists"]).fetchone():
        return 0
    row = db.execute(Q["schema_version"]).fetchone()
    return integer(row, "value") if row else 0


def _statements(script: str) -> list[str]:
    """Split a migration on `;` at line ends (the schema files hold no triggers)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";")]
