"""The environment -> one validated `Environment`: the store's keys. Each channel's keys are
its own folder's (hunter/channels/<name>/settings.py), read from `Environment.values`.

Every value hunter reads goes through `cleaned` first: people paste tokens, ids and URLs from
dashboards and password managers, which bring a line end, spaces or quotes around them. What
surrounds a value is taken off; what is left inside that no token, id or URL holds (a line
break, an invisible character, a space) stops hunter with one line naming the variable.

Every secret is registered with `redact` the moment it is read, so no log line or error can
show it. Which store is used: DATABASE_URL, else SUPABASE_URL, else SQLite at HUNTER_DB.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import ssl
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from hunter import redact
from hunter.errors import ConfigError
from hunter.network import proxy_refused


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


# The variables hunter reads for itself (its own, the store's, what a host tells it); each
# channel's are its KIND's `keys`, cleaned as these are. "<NAME>" stands for any ending.
KEYS = (
    "HUNTER_<NAME>",
    "DATABASE_URL",
    "SUPABASE_<NAME>",
    "PORT",
    "RENDER_EXTERNAL_URL",
    "RAILWAY_PUBLIC_DOMAIN",
)
# Of which these are secrets: no space inside one either. Another value's own check names
# what it must be ("LINE_TO must be a user, group or room ID, not a display name").
SECRETS = ("DATABASE_URL", "SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_KEY", "HUNTER_STATUS_TOKEN")
# Supabase's keys, legacy (a JWT) and new, hidden wherever they show
for _shape in (r"()\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}", r"()\bsb_secret_[\w-]{8,}"):
    redact.register_shape("a Supabase key", "SUPABASE_SERVICE_ROLE_KEY", _shape)
# Around a pasted value: white space of any kind (str.strip), the invisible characters a web
# page or a word processor leaves (zero-width spaces and joiners, a byte-order mark), and one
# pair of quotes (a dashboard's value field typed as a .env file's "...").
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


def cleaned(
    environ: Mapping[str, str], keys: Iterable[str], secrets: Iterable[str] = ()
) -> dict[str, str]:
    """The environment with each variable of `keys` (a name, or a prefix before "<NAME>") as
    hunter reads it: without what a paste brings around it; the rest as they are. ConfigError
    naming the variable (never its value) when what is left holds a line break, a tab or an
    invisible character, or a secret of `secrets` a space."""
    read, secret = _names(keys), _names(secrets)  # each parsed once, not once a variable
    values = dict(environ)
    for name, raw in environ.items():
        if _is(name, read):
            values[name] = _clean(name, raw, _is(name, secret))
    return values


def reads(name: str, keys: Iterable[str]) -> bool:
    """Whether `name` is one of `keys` (a name, or a prefix before "<NAME>")."""
    return _is(name, _names(keys))


def _is(name: str, parsed: tuple[set[str], tuple[str, ...]]) -> bool:
    names, prefixes = parsed
    return name in names or name.startswith(prefixes)


def _names(keys: Iterable[str]) -> tuple[set[str], tuple[str, ...]]:
    """`keys` as (whole names, prefixes before "<NAME>")."""
    keys = list(keys)
    names = {key for key in keys if not key.endswith("<NAME>")}
    return names, tuple(key.removesuffix("<NAME>") for key in keys if key.endswith("<NAME>"))


def _clean(name: str, raw: str, secret: bool) -> str:
    value = raw.strip().strip(_INVISIBLE).strip()
    if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
        value = value[1:-1].strip()
    for at, char in enumerate(value):
        if char in "\r\n\u2028\u2029":
            what = "a line break"
        elif char == "\t" or unicodedata.category(char) in ("Cc", "Cf"):
            what = f"an invisible character (U+{ord(char):04X})"
        elif char.isspace() and secret and value[:at].casefold() in ("bearer", "bot"):
            raise ConfigError(  # an Authorization header's value, pasted whole
                f'{name} starts with "{value[:at]} ", as an HTTP header says it: set it to '
                "what follows, the token alone"
            )
        elif char.isspace() and secret:
            what = "a space"
        elif not char.isascii() and secret and name != "DATABASE_URL":  # a header's: ASCII
            what = f"a character no token, key or URL has (U+{ord(char):04X})"
        else:
            continue
        raise ConfigError(
            f"{name} holds {what} inside it, after its first {at} characters: no token, id or "
            f"URL does; set {name} again, pasted as one line with nothing inside it"
        )
    return value


def value(environ: Mapping[str, str], name: str, default: str = "") -> str:
    """One variable as `cleaned` reads it, for what is read before the environment is checked
    (the log's level and format): without what surrounds it; `default` where what is left
    would be refused (read again, and named, by `cleaned`)."""
    try:
        return _clean(name, environ.get(name) or "", secret=False) or default
    except ConfigError:
        return default


def read_environment(environ: Mapping[str, str]) -> Environment:
    """The environment hunter uses, validated; secrets are registered for redaction. Every
    value is read as `cleaned` reads it; ConfigError names a variable that cannot be."""
    environ = cleaned(environ, KEYS, SECRETS)
    database_url = environ.get("DATABASE_URL") or None
    supabase_url = (environ.get("SUPABASE_URL") or "").rstrip("/") or None
    supabase_key = environ.get("SUPABASE_SERVICE_ROLE_KEY") or environ.get("SUPABASE_KEY") or None
    status_token = environ.get("HUNTER_STATUS_TOKEN") or None
    redact.register(database_url, _password_of(database_url), supabase_key, status_token)
    if status_token and not re.fullmatch(r"[A-Za-z0-9_-]{24,256}", status_token):
        raise ConfigError(
            "HUNTER_STATUS_TOKEN must be 24 to 256 of A-Z, a-z, 0-9, _ and - (it is all that "
            "keeps the status page to you); make one with "
            "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    if supabase_url and not database_url:
        _check_supabase(supabase_url, supabase_key)
    if supabase_key and not supabase_url and not database_url:
        # Else the local SQLite file stood in, which knows nothing the project's database sent
        named = (
            "SUPABASE_SERVICE_ROLE_KEY"
            if environ.get("SUPABASE_SERVICE_ROLE_KEY")
            else "SUPABASE_KEY"
        )
        raise ConfigError(
            f"{named} is set but SUPABASE_URL is not; set SUPABASE_URL to the project's URL "
            "(https://<project>.supabase.co, Project Settings -> API)"
        )
    if said := proxy_refused(environ) or _certificates_refused(environ):
        raise ConfigError(said)  # else a source's or a channel's first call fails with it
    if database_url and not database_url.startswith(("postgres://", "postgresql://")):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:5432/db); "
            "unset it to use SQLite"
        )
    if database_url and (unsafe := _unencoded(database_url)):
        # libpq splits at the first "@" and names the rest as the host: a password's end shown
        raise ConfigError(
            f'DATABASE_URL\'s user or password holds "{unsafe}" as it is: write it '
            "percent-encoded (@ as %40, / as %2F, # as %23, ? as %3F, : in a user as %3A), "
            "or copy the URL your database's dashboard gives"
        )
    return Environment(
        database_url=database_url,
        sqlite_path=environ.get("HUNTER_DB") or "hunter.db",
        supabase_url=supabase_url,
        supabase_key=supabase_key,
        values=dict(environ),
        status_token=status_token,
    )


def _certificates_refused(environ: Mapping[str, str]) -> str | None:
    """What is wrong with the certificates SSL_CERT_FILE or SSL_CERT_DIR name for every TLS
    connection (httpx reads them: a company proxy's CA): no such file or folder, or a file
    that holds no certificate. Each connection failed with a bare FileNotFoundError."""
    bundle, folder = environ.get("SSL_CERT_FILE", "").strip(), environ.get("SSL_CERT_DIR", "")
    fix = "set it to the certificates to trust (PEM), or unset it for certifi's"
    if bundle and not os.path.isfile(bundle):
        return f"SSL_CERT_FILE names {bundle!r}, which is no file here: {fix}"
    if bundle:
        try:
            ssl.create_default_context(cafile=bundle)
        except (ssl.SSLError, OSError, ValueError):
            return (
                f"SSL_CERT_FILE names {bundle!r}, which holds no certificate hunter can read: {fix}"
            )
    if folder.strip() and not all(os.path.isdir(f) for f in folder.split(os.pathsep) if f):
        return f"SSL_CERT_DIR names {folder.strip()!r}, which is no folder here: {fix}"
    return None


def api_url(environ: Mapping[str, str], name: str, default: str) -> str:
    """An API's base address, overridable for tests and self-hosted servers."""
    url = (environ.get(name) or default).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{name} must start with http:// or https://")
    return url


_DASHBOARD = re.compile(r"https?://(?:app\.)?supabase\.com/dashboard/project/([a-z0-9]+)")


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
    if dashboard := _DASHBOARD.match(url):  # the address bar's, not the project's API
        raise ConfigError(
            "SUPABASE_URL is the dashboard's address; set it to the project's URL, "
            f"https://{dashboard[1]}.supabase.co (Project Settings -> API)"
        )
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


# What a URL libpq reads as meant may hold after its authority: a path (the database) and a
# query of key=value pairs; no fragment, no "@" outside a value
_REST = re.compile(r"(?:/[^?#@]*)?(?:\?[^=&#@]+=[^&#]*(?:&[^=&#@]+=[^&#]*)*)?")


def _unencoded(url: str) -> str:
    """A character a URL's user or password cannot hold as it is ("@", "/", "#", "?"); "" when
    none. A URL whose authority holds one "@" at most and whose rest is a path and a query is
    read as meant; else the user or password is what comes before its last "@", and the
    first of those characters in it is named ("a@b?TAIL@host": libpq read "?TAIL@host" as
    the query and said it back, the password's end with it)."""
    after = url.split("://", 1)[1]
    authority = urlsplit(url).netloc
    if authority.count("@") <= 1 and _REST.fullmatch(after[len(authority) :]):
        return ""
    userinfo = after.rpartition("@")[0]
    return next((char for char in "@/#?" if char in userinfo), "")


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
