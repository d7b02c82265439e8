"""The Supabase adapter: the same functions as the PostgreSQL adapter, called over HTTPS with
supabase-py's `rpc`, so it works from IPv4-only hosts (Render, Railway) where Supabase's
direct database address is IPv6-only.

Every operation is one rpc call (one round trip), whatever the number of listings: lists
travel in the JSON body, never in a URL. The schema cannot be created over the Data API:
`hunter schema` prints the SQL to paste into Supabase's SQL editor, and this adapter checks
that the version in the database is the one it expects.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import httpx
from postgrest.exceptions import APIError
from supabase import create_client
from supabase.lib.client_options import SyncClientOptions

from hunter.errors import SchemaError, StoreError, StoreRefused
from hunter.network import unreached
from hunter.store import queries
from hunter.store.columns import whole_number
from hunter.store.functions import Document, FunctionStore, JsonText

TIMEOUT_SECONDS = 20
SCHEMA_FIX = (
    "run `hunter schema`, paste its output into the SQL editor of your Supabase project "
    "(Database -> SQL editor -> New query) and run it"
)


def _json(value: Any) -> Any:
    """A value as the Data API's JSON body carries it."""
    if isinstance(value, Document):
        # The Data API's body is one JSON document: written text goes in as what it says
        return json.loads(value.value) if isinstance(value.value, JsonText) else value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, timedelta):
        return f"{value.total_seconds():.0f} seconds"
    return value


class SupabaseStore(FunctionStore):
    def __init__(self, url: str, key: str) -> None:
        super().__init__()
        self._http = httpx.Client(timeout=TIMEOUT_SECONDS)
        options = SyncClientOptions(
            httpx_client=self._http, auto_refresh_token=False, persist_session=False
        )
        self._client = create_client(url, key, options=options)

    def close(self) -> None:
        self._http.close()

    def _call(self, function: str, rows: bool, **params: Any) -> object:
        body = {f"p_{name}": _json(value) for name, value in params.items()}
        try:
            return self._client.rpc(function, body).execute().data
        except APIError as exc:
            if exc.code == "PGRST202":
                raise SchemaError(
                    f"hunter's functions are not in this Supabase project ({function} is "
                    f"missing, or the key may not call it); {SCHEMA_FIX}"
                ) from exc
            if exc.code == "42501":
                raise StoreError(
                    "Supabase refused hunter's key access to its tables: use the secret "
                    "(service_role) key, and run `hunter schema` again to set the grants"
                ) from exc
            said = f"Supabase ({function}): {exc.message or exc.code}"
            if _refused(exc.code):
                raise StoreRefused(said) from exc
            raise StoreError(said) from exc
        except httpx.HTTPError as exc:
            raise StoreError(
                f"cannot reach Supabase: {unreached(exc)}; check SUPABASE_URL and that the "
                "project is not paused"
            ) from exc

    def schema_version(self) -> int:
        return whole_number(self._call("hunter_schema_version", False) or 0, "schema version")

    def migrate(self) -> None:
        """Check the schema and its functions, in one call: the Data API cannot create them."""
        latest = queries.latest_version("postgres")
        try:
            said = self._call("hunter_schema_state", True)
        except SchemaError:  # pasted before the functions had a folder of their own
            said = [{"version": self.schema_version(), "functions": ""}]
        state = said[0] if isinstance(said, list) and said and isinstance(said[0], dict) else {}
        current = whole_number(state.get("version") or 0, "schema version")
        functions = state.get("functions") or ""
        if current == latest and functions != queries.functions_digest():
            raise SchemaError(
                "the functions in Supabase are not this hunter's (it was upgraded since "
                f"`hunter schema` was last run there); {SCHEMA_FIX}"
            )
        if current < latest:
            raise SchemaError(
                f"the hunter schema in Supabase is version {current}, this hunter "
                f"needs {latest}; {SCHEMA_FIX}"
            )
        if current > latest:
            raise SchemaError(
                f"the hunter schema in Supabase is version {current}, newer than "
                f"this hunter ({latest}); upgrade hunter"
            )


def _refused(code: str | None) -> bool:
    """Whether PostgREST passed on PostgreSQL refusing the statement (a SQLSTATE), rather than
    failing to reach it (its own PGRST codes) or the database being away (classes 08, 53, 57
    and 58)."""
    return code is not None and len(code) == 5 and code[:2] not in ("08", "53", "57", "58")
