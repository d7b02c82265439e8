"""What a source sends with its requests: its headers (`headers = { Referer = "..." }`),
checked as HTTP takes them, and the credentials in them or in its url. A header or a url query
parameter that carries one (an API key, a token, a cookie), and a password in the url, are
registered as secrets, so that they never show in a log line or an error, even one a site
echoes back."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from hunter import redact
from hunter.errors import ConfigError

_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP token (RFC 9110)
_CREDENTIAL = re.compile(r"auth|token|key|secret|cookie|session|password", re.IGNORECASE)


def source_headers(raw: Mapping[str, Any], where: str) -> dict[str, str]:
    """Request headers a source sends: HTTP tokens as names, printable ASCII as values."""
    headers = raw.get("headers", {})
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        raise ConfigError(
            f'{where}: headers must be a table of strings, e.g. {{ Referer = "..." }}'
        )
    for name, value in headers.items():
        if not _HEADER_NAME.match(name):
            raise ConfigError(
                f"{where}: header name {name!r} is not valid in HTTP; use letters, digits and '-'"
            )
        if not (value.isascii() and value.isprintable()):
            raise ConfigError(
                f"{where}: header {name} must be printable ASCII; percent-encode other "
                "characters, as the site expects them"
            )
        if _CREDENTIAL.search(name):
            redact.register(value)  # an API key or token: never in a log line or an error
    return dict(headers)


def register_url_secrets(url: str) -> None:
    """Keep a source url's password and its credential-like query values out of every line."""
    parts = urlsplit(url)
    redact.register(parts.password)
    for name, value in parse_qsl(parts.query):
        if _CREDENTIAL.search(name):
            redact.register(value)
