"""A small stand-in for Supabase's Data API (PostgREST), backed by the test PostgreSQL.

What it emulates, faithfully enough for hunter:
- POST /rest/v1/rpc/<function> with a JSON object of named arguments; set-returning and
  TABLE functions answer a JSON array of objects, scalar ones the bare JSON value, void ones
  204 No Content;
- the role of each request from its key, as Supabase's gateway does: `sb_secret_...` and a
  JWT whose role is service_role act as service_role, `sb_publishable_...` and anon JWTs as
  anon; the statement runs under `SET LOCAL ROLE`, so grants and row level security apply;
- PostgREST's error shape {code, message, details, hint} and status codes: PGRST202 (404) for
  a function that is missing or not executable by the role, 42501 as 401 (anon) or 403,
  PGRST301 (401) for a bad JWT.
What it does not: table endpoints, filters, embedding, GET rpc, schema cache reloads, counts.
"""

from __future__ import annotations

import contextlib
import json
import queue
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jwt
import psycopg
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from tests.support.local_server import LocalServer, QuietHandler

JWT_SECRET = "test-jwt-secret-at-least-32-characters-long"
SECRET_KEY = "sb_secret_hunterTestKeyDoNotLeak0123456789"
PUBLISHABLE_KEY = "sb_publishable_hunterTestKey0123456789"
POOL = 10  # connections kept, as PostgREST's db-pool default


def legacy_key(role: str) -> str:
    """A legacy Supabase API key: an HS256 JWT naming its role."""
    return jwt.encode(
        {"role": role, "iss": "supabase", "iat": 1700000000}, JWT_SECRET, algorithm="HS256"
    )


def ensure_roles(server_url: str) -> None:
    """Supabase's API roles, cluster-wide: anon, authenticated, service_role (bypasses RLS)."""
    with psycopg.connect(server_url, autocommit=True) as db:
        for role, extra in (("anon", ""), ("authenticated", ""), ("service_role", " BYPASSRLS")):
            if not db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
                db.execute(f"CREATE ROLE {role} NOLOGIN{extra}")


class PostgREST:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.calls: Counter[str] = Counter()
        # PostgREST keeps a pool of connections (db-pool, 10 by default): a new connection
        # for each call, as this stand-in made, cost a PostgreSQL backend's start each time.
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        stand_in = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                prefix = "/rest/v1/rpc/"
                if not self.path.startswith(prefix):
                    return self.send_json(404, _error("PGRST125", f"Invalid path {self.path}"))
                function = self.path[len(prefix) :].split("?", 1)[0]
                stand_in.calls[function] += 1
                status, body = stand_in.call(function, self.headers, raw)
                return self.send_json(status, body)

        self._server = LocalServer(Handler)
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()
        while not self._idle.empty():
            self._idle.get_nowait().close()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in autocommit (each call's own transaction is explicit);
        one left in a transaction or broken is closed, not pooled."""
        try:
            db = self._idle.get_nowait()
        except queue.Empty:
            db = psycopg.connect(self.database_url, autocommit=True)
        try:
            yield db
        finally:
            if db.closed or db.info.transaction_status != TransactionStatus.IDLE:
                db.close()
            elif self._idle.qsize() < POOL:
                self._idle.put(db)
            else:
                db.close()

    @staticmethod
    def role_of(headers: Any) -> str | None:
        key = headers.get("apikey") or ""
        bearer = (headers.get("Authorization") or "").removeprefix("Bearer ").strip()
        token = bearer or key
        if token == SECRET_KEY:
            return "service_role"
        if token == PUBLISHABLE_KEY:
            return "anon"
        try:
            return str(jwt.decode(token, JWT_SECRET, algorithms=["HS256"])["role"])
        except (jwt.PyJWTError, KeyError):
            return None

    def call(self, function: str, headers: Any, raw: bytes) -> tuple[int, Any]:
        role = self.role_of(headers)
        if role is None:
            return 401, _error("PGRST301", "JWT could not be decoded")
        try:
            args = json.loads(raw or b"{}")
        except ValueError:
            return 400, _error("PGRST102", "Empty or invalid json")
        with self._connection() as db:
            found = db.execute(
                "SELECT p.oid, p.proretset, p.prorettype::regtype::text, "
                "coalesce(p.proargnames, '{}'), "
                "array(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t), "
                "(SELECT count(*) FROM pg_attribute a WHERE a.attrelid = "
                " (SELECT typrelid FROM pg_type WHERE oid = p.prorettype) AND a.attnum > 0), "
                "has_function_privilege(%s, p.oid, 'EXECUTE') "
                "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = 'public' AND p.proname = %s",
                (role, function),
            ).fetchall()
            if not found or not found[0][6]:
                return 404, _error(
                    "PGRST202",
                    f"Could not find the function public.{function} in the schema cache",
                    hint="Perhaps you meant to call another function",
                )
            _oid, returns_set, returns, names, types, columns, _ok = found[0]
            given = dict(zip(names, types, strict=False))
            unknown = set(args) - set(given)
            if unknown:
                return 404, _error(
                    "PGRST202",
                    f"Could not find the function public.{function}"
                    f"({', '.join(sorted(args))}) in the schema cache",
                )
            call = ", ".join(f"{name} => %s::{given[name]}" for name in args)
            values = [_param(args[name], given[name]) for name in args]
            if returns_set or columns:
                sql = (
                    f"SELECT coalesce(json_agg(t), '[]'::json) "
                    f"FROM (SELECT * FROM public.{function}({call})) t"
                )
            else:
                sql = f"SELECT to_json(public.{function}({call}))"
            try:
                with db.transaction():
                    db.execute(f"SET LOCAL ROLE {role}")
                    result = db.execute(sql, values).fetchone()[0]  # type: ignore[index]
            except psycopg.Error as exc:
                return _status(exc.sqlstate or "", role), _error(
                    exc.sqlstate or "XX000", str(exc).splitlines()[0]
                )
        if returns == "void":
            return 204, None
        return 200, result


def _param(value: Any, type_name: str) -> Any:
    if value is None:
        return None
    if type_name in ("json", "jsonb"):
        return Jsonb(value)
    if type_name.endswith("[]"):
        return list(value)
    if isinstance(value, bool | int | float):
        return value
    return str(value)


def _status(sqlstate: str, role: str) -> int:
    if sqlstate == "42501":
        return 401 if role == "anon" else 403
    if sqlstate == "42883":
        return 404
    if sqlstate.startswith("08") or sqlstate.startswith("53"):
        return 503
    if sqlstate.startswith(("40", "XX", "25")):
        return 500
    if sqlstate in ("23505", "23503"):
        return 409
    return 400


def _error(code: str, message: str, hint: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": None, "hint": hint}
