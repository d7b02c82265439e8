"""The PostgreSQL adapter (psycopg 3): Render, Railway, Neon, Supabase's pooler, local.

Each operation is one call of a function from the schema (sql/postgres/, chosen in
functions/), in autocommit: the database decides every claim. No prepared statements, so
Supabase's pooler in transaction mode (port 6543) works too.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg
import psycopg.errors
import psycopg.rows
from psycopg.types.json import Jsonb

from hunter.errors import SchemaError, StoreError, StoreRefused
from hunter.redact import redact
from hunter.store import queries
from hunter.store.columns import Row, integer
from hunter.store.functions import Document, FunctionStore, JsonText

_MIGRATION_LOCK = 0x68756E74  # "hunt": one migrator at a time when instances start together


class PostgresStore(FunctionStore):
    def __init__(self, url: str, connect_timeout: int = 10) -> None:
        super().__init__()
        self._url = url
        self._timeout = connect_timeout
        self._db: psycopg.Connection[Any] | None = None
        self._connect()

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            self._db = psycopg.connect(
                self._url,
                autocommit=True,
                prepare_threshold=None,
                connect_timeout=self._timeout,
                application_name="hunter",
            )
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot reach PostgreSQL (DATABASE_URL): {_reason(exc)}; check the URL and "
                "that the database is running and reachable from here"
            ) from exc
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def _execute(self, sql: str, params: dict[str, Any] | None = None) -> list[Row]:
        db = self._db if self._db is not None and not self._db.closed else self._connect()
        try:
            with db.cursor(row_factory=psycopg.rows.dict_row) as cursor:
                cursor.execute(sql.encode(), params)
                return list(cursor.fetchall()) if cursor.description else []
        except psycopg.Error as exc:
            if isinstance(exc, psycopg.OperationalError):
                db.close()  # the connection may be gone (restart, failover): reconnect next
            if _unreachable(exc.sqlstate):
                raise StoreError(f"PostgreSQL: {_reason(exc)}") from exc
            raise StoreRefused(f"PostgreSQL refused a statement: {_reason(exc)}") from exc

    def migrate(self) -> None:
        """Apply each migration the database lacks, one transaction each, in order, under an
        advisory lock: instances starting together migrate one after the other; then the
        functions (sql/postgres/functions/), when the database holds another text of them. A
        current schema costs one statement (every `run --once` opens the store)."""
        latest, digest = queries.latest_version(self.dialect), queries.functions_digest()
        db = self._db if self._db is not None and not self._db.closed else self._connect()
        try:
            state = self._state_at_once(db)
            if state == (latest, digest):
                return
            self._migrations(db, latest, state[0])
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                held = db.execute("SELECT value FROM hunter_meta WHERE key = 'functions'")
                if held.fetchone() != (digest,):
                    db.execute(queries.functions().encode())
                    db.execute(
                        "INSERT INTO hunter_meta (key, value) VALUES ('functions', %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        (digest,),
                    )
        except psycopg.Error as exc:
            raise StoreError(
                f"PostgreSQL: creating hunter's tables failed: {_reason(exc)}"
            ) from exc

    def _migrations(self, db: psycopg.Connection[Any], latest: int, held: int) -> None:
        """Each numbered migration the database lacks (it held `held` a moment ago), in order,
        one transaction each."""
        for version, _name, sql in queries.migrations(self.dialect):
            if version <= held <= latest:
                continue  # no newer one can have gone back
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                current = self._version(db)
                if current > latest:
                    raise SchemaError(
                        f"the database holds hunter schema {current}, newer than this "
                        f"hunter ({latest}); upgrade hunter"
                    )
                if version <= current:
                    continue
                db.execute(sql.encode())
                db.execute(
                    "INSERT INTO hunter_meta (key, value) VALUES ('schema_version', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(version),),
                )

    def schema_version(self) -> int:
        db = self._db if self._db is not None and not self._db.closed else self._connect()
        try:
            return self._version(db)
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL: {_reason(exc)}") from exc

    @staticmethod
    def _state_at_once(db: psycopg.Connection[Any]) -> tuple[int, str]:
        """The schema's version and its functions' digest, in one statement (autocommit: a
        missing table spoils nothing)."""
        try:
            rows = db.execute(
                "SELECT key, value FROM hunter_meta WHERE key IN ('schema_version', 'functions')"
            ).fetchall()
        except psycopg.errors.UndefinedTable:
            return 0, ""
        held = dict(rows)
        return int(held.get("schema_version") or 0), str(held.get("functions") or "")

    @staticmethod
    def _version(db: psycopg.Connection[Any]) -> int:
        with db.cursor(row_factory=psycopg.rows.dict_row) as cursor:
            cursor.execute("SELECT to_regclass('hunter_meta') IS NOT NULL AS present")
            found = cursor.fetchone()
            if not found or not found["present"]:
                return 0
            cursor.execute("SELECT value FROM hunter_meta WHERE key = 'schema_version'")
            row = cursor.fetchone()
        return integer(row, "value") if row else 0

    def _call(self, function: str, rows: bool, **params: Any) -> object:
        arguments = ", ".join(f"p_{name} => %({name})s" for name in params)
        values = {name: _adapt(value) for name, value in params.items()}
        if rows:
            return self._execute(f"SELECT * FROM {function}({arguments})", values)
        return self._execute(f"SELECT {function}({arguments}) AS value", values)[0]["value"]


def _adapt(value: Any) -> Any:
    if not isinstance(value, Document):
        return value
    if isinstance(value.value, JsonText):
        return Jsonb(value.value, dumps=str)  # written already: sent as it is
    return Jsonb(value.value)


def _unreachable(sqlstate: str | None) -> bool:
    """Whether an error says the database could not be used at all (no answer, the
    connection lost, out of resources, shutting down), not that it refused this statement.
    SQLSTATE classes: 08 connection, 53 insufficient resources, 57 operator intervention,
    58 system error."""
    return sqlstate is None or sqlstate[:2] in ("08", "53", "57", "58")


def _reason(exc: BaseException) -> str:
    """The driver's message, first line only, secrets removed; a name that does not resolve
    said as network.py says it of a source, with what it often is here."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    if (unresolved := _UNRESOLVED.search(first)) is not None:
        name = unresolved[1] or unresolved[2]
        if name.startswith("db.") and name.endswith(".supabase.co"):
            # Supabase's direct address has only an IPv6 address (docs/deploy.md)
            return redact(
                f"the name {name} does not resolve here: Supabase's direct address is IPv6 "
                "only; use its pooler's connection string (Connect, Session pooler) as "
                "DATABASE_URL, or SUPABASE_URL over HTTPS"
            )
        return redact(
            f"the name {name} does not resolve (a typo in the address, no DNS here, or a name "
            "only the host's own services know: from your machine, use Render's External "
            "Database URL)"
        )
    return redact(first)


# psycopg's and libpq's words for a host name that does not resolve
_UNRESOLVED = re.compile(
    r"failed to resolve host '([^']+)'|could not translate host name \"([^\"]+)\" to address"
)
