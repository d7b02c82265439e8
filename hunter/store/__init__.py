"""Where hunter remembers what it has seen and sent: one port, one adapter per database."""

from __future__ import annotations

from hunter.errors import NotMadeYet, SchemaError
from hunter.settings.environment import Environment
from hunter.settings.hosts import refuse_ephemeral_sqlite
from hunter.store import moved
from hunter.store.base import Store
from hunter.store.records import Claimed, SourceNote, StatusReport


def open_store(env: Environment, create: bool = True) -> Store:
    """The store the environment names: DATABASE_URL (PostgreSQL, applies its own migrations),
    else SUPABASE_URL (over HTTPS; checks the schema `hunter schema` set up), else SQLite.
    With `create` False (commands that only look or fix a row), nothing is created or
    upgraded: the database must already hold this hunter's schema."""
    store: Store
    if env.database_url:
        from hunter.store.postgres import PostgresStore

        store = PostgresStore(env.database_url)
    elif env.supabase_url:
        from hunter.store.supabase import SupabaseStore

        store = SupabaseStore(env.supabase_url, env.supabase_key or "")
    else:
        refuse_ephemeral_sqlite(env.values)
        from hunter.store.sqlite import SQLiteStore

        store = SQLiteStore(env.sqlite_path, create=create)
    try:
        if create or (not env.database_url and env.supabase_url):  # Supabase's only checks
            store.migrate()
        else:
            require_schema(store)
        if store.dialect == "sqlite":
            moved.refuse_if_left(store, env)
        elif create:  # a run's or prime's; `check` and `status` change nothing
            moved.mark_left(env)
    except BaseException:
        store.close()
        raise
    return store


def require_schema(store: Store) -> None:
    """Stop unless the database holds exactly this hunter's schema."""
    from hunter.store import queries

    current, latest = store.schema_version(), queries.latest_version(store.dialect)
    if current == 0:
        raise NotMadeYet(
            "hunter's tables are not in this database yet; `hunter run` or `hunter prime` "
            "creates them"
        )
    if current < latest:
        raise NotMadeYet(
            f"the database holds hunter schema {current}, this hunter uses {latest}; "
            "`hunter run` upgrades it"
        )
    if current != latest:
        raise SchemaError(
            f"the database holds hunter schema {current}, this hunter uses {latest}; upgrade hunter"
        )


__all__ = ["Claimed", "SourceNote", "StatusReport", "Store", "open_store"]


def schema_sql() -> str:
    """Everything `hunter schema` prints: the PostgreSQL schema with Supabase's access rules,
    every migration in order, each safe to run again, then the functions as they are now
    and their digest."""
    from hunter.store import queries

    parts = [
        f"-- hunter schema, version {queries.latest_version('postgres')}: paste into "
        "Supabase's SQL editor and run.\n"
    ]
    parts += [f"-- {name}\n{sql}" for _version, name, sql in queries.migrations("postgres")]
    parts.append(queries.functions())
    parts.append(
        "INSERT INTO hunter_meta (key, value) VALUES ('functions', "
        f"'{queries.functions_digest()}')\n"
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value;\n"
    )
    return "\n".join(parts)
