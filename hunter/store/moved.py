"""A folder's SQLite file left for a database: a run without the database's variable must not
use it.

A person tries hunter on a laptop with its SQLite file (hunter.db), then moves to PostgreSQL or
Supabase, the host's. A new terminal without DATABASE_URL would open the old file again: it
knows nothing of what the database sent since, and alerts it again (a new user's find: one
Telegram chat got one job twice). So a run on a database marks the folder's file, where there
is one, as left for it; a run on that file refuses while it is marked.
"""

from __future__ import annotations

import logging
import os
from urllib.parse import urlsplit

from hunter.errors import ConfigError, HunterError
from hunter.settings.environment import Environment
from hunter.store.base import Store

log = logging.getLogger("hunter")

LEFT_FOR = "left_for"  # hunter_meta's key: the database the file was left for, in words


def mark_left(env: Environment) -> None:
    """Mark the SQLite file HUNTER_DB names, if it exists, as left for the database `env`
    names. Never creates it; a file it cannot write is passed over (a read-only checkout)."""
    path = env.sqlite_path
    if not os.path.isfile(path):
        return
    from hunter.store.sqlite import SQLiteStore

    try:
        store = SQLiteStore(path, create=False)
    except HunterError:
        return
    where = said(env)
    try:
        if store.schema_version() and store.rows("meta_value", key=LEFT_FOR) != [{"value": where}]:
            store.rows("set_meta_value", key=LEFT_FOR, value=where)
    except HunterError as exc:
        log.debug("could not mark %s as left for the database: %s", path, exc)
    finally:
        store.close()


def refuse_if_left(store: Store, env: Environment) -> None:
    """Stop when the SQLite `store` was left for a database: its variable is missing here."""
    found = store.rows("meta_value", key=LEFT_FOR)
    if not found:
        return
    where = str(found[0]["value"])
    variable = "SUPABASE_URL" if where.startswith("Supabase") else "DATABASE_URL"
    raise ConfigError(
        f"{env.sqlite_path} was left for {where}, and {variable} is not set here: this file "
        f"has not seen what that database sent since, and would alert it again. Set "
        f"{variable} as on your host; or, to start this folder over on its own, delete "
        f"{env.sqlite_path}"
    )


def said(env: Environment) -> str:
    """The database, in words without secrets: "PostgreSQL at db.example.com"."""
    if env.database_url:
        try:
            host = urlsplit(env.database_url).hostname
        except ValueError:
            host = None
        return f"PostgreSQL at {host}" if host else "PostgreSQL"
    return f"Supabase at {env.supabase_url}"
