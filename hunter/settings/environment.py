"""The environment -> one validated `Environment`: the store's keys. Each channel's keys are
its own folder's (hunter/channels/<name>/settings.py), read from `Environment.values`.

Every secret is registered with `redact` the moment it is read, so no log line or error can
show it. Which store is used: DATABASE_URL, else SUPABASE_URL, else SQLite at HUNTER_DB.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from hunter import redact
from hunter.errors import ConfigError


@dataclass(frozen=True)
class Environment:
    """What hunter reads from the environment for itself: where its store is. Each channel
    reads its own keys from `values` (hunter/channels/<name>/settings.py), checked once at
    start by the channels' registry."""

    # repr=False: printing an Environment (a debugger, a stray log line) shows no secret.
    database_url: str | None = field(default=None, repr=False)
    sqlite_path: str = "hunter.db"
    supabase_url: str | None = None
    supabase_key: str | None = field(default=None, repr=False)
    values: Mapping[str, str] = field(default_factory=dict, repr=False)  # the environment
    # HUNTER_STATUS_TOKEN: with PORT, the status page (GET /status, /status.json) answers
    # whoever shows it; None: the page is off (404).
    status_token: str | None = field(default=None, repr=False)


def read_environment(environ: Mapping[str, str]) -> Environment:
    """The environment hunter uses, validated; secrets are registered for redaction."""
    database_url = environ.get("DATABASE_URL") or None
    supabase_url = (environ.get("SUPABASE_URL") or "").rstrip("/") or None
    supabase_key = environ.get("SUPABASE_SERVICE_ROLE_KEY") or environ.get("SUPABASE_KEY") or None
    status_token = (environ.get("HUNTER_STATUS_TOKEN") or "").strip() or None
    redact.register(database_url, _password_of(database_url), supabase_key, status_token)
    if status_token and not re.fullmatch(r"[A-Za-z0-9_-]{24,256}", status_token):
        raise ConfigError(
            "HUNTER_STATUS_TOKEN must be 24 to 256 of A-Z, a-z, 0-9, _ and - (it is all that "
            "keeps the status page to you); make one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    if supabase_url and not database_url:
        _check_supabase(supabase_url, supabase_key)
    if database_url and not database_url.startswith(("postgres://", "postgresql://")):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:5432/db); "
            "unset it to use SQLite"
        )
    return Environment(
        database_url=database_url,
        sqlite_path=environ.get("HUNTER_DB") or "hunter.db",
        supabase_url=supabase_url,
        supabase_key=supabase_key,
        values=dict(environ),
        status_token=status_token,
    )


def api_url(environ: Mapping[str, str], name: str, default: str) -> str:
    """An API's base address, overridable for tests and self-hosted servers."""
    url = (environ.get(name) or default).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{name} must start with http:// or https://")
    return url


def supabase_key_role(key: str) -> str | None:
    """The role a Supabase API key acts as: new-style keys by prefix, legacy JWTs by claim."""
    if key.startswith("sb_secret_"):
        return "service_role"
    if key.startswith("sb_publishable_"):
        return "anon"
    parts = key.split(".")
    if len(parts) != 3:
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error):
        return None
    role = payload.get("role") if isinstance(payload, dict) else None
    return role if isinstance(role, str) else None


def _check_supabase(url: str, key: str | None) -> None:
    if not url.startswith(("https://", "http://")):
        raise ConfigError("SUPABASE_URL must look like https://<project>.supabase.co")
    if not key:
        raise ConfigError(
            "SUPABASE_URL is set but SUPABASE_SERVICE_ROLE_KEY is not; set it to the project's "
            "secret key (Project Settings -> API keys)"
        )
    role = supabase_key_role(key)
    if role == "service_role":
        return
    kind = (
        "a publishable (anon) key"
        if role == "anon"
        else (f"a key for the role {role!r}" if role else "not a Supabase API key")
    )
    raise ConfigError(
        f"SUPABASE_SERVICE_ROLE_KEY is {kind}: row level security would hide every row from "
        "it; use the secret key (sb_secret_..., or the legacy service_role key)"
    )


def _password_of(url: str | None) -> str | None:
    if not url or "@" not in url or "://" not in url:
        return None
    userinfo = url.split("://", 1)[1].rsplit("@", 1)[0]
    return userinfo.split(":", 1)[1] if ":" in userinfo else None


def describe_store(env: Environment) -> str:
    """Which store is in use, without secrets: for start-up lines and `hunter check`."""
    if env.database_url:
        also = "; SUPABASE_URL is set too and not used" if env.supabase_url else ""
        return f"PostgreSQL (DATABASE_URL{also})"
    if env.supabase_url:
        return f"Supabase ({env.supabase_url}, over HTTPS)"
    return f"SQLite ({os.path.abspath(env.sqlite_path)})"
