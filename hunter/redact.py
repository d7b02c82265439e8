"""Keep secrets out of every line hunter prints or logs.

Secrets are registered once, when the environment is read (`register`), and every log record
and every error line goes through `redact`. Database URLs are also scrubbed by shape, so a
password in a URL that was never registered (say, one quoted back inside a driver's error) is
hidden too; and so are the secrets each channel and store knows by their shape
(`register_shape`: a Telegram bot token, a Discord webhook's token, a Supabase key), wherever
a user pasted them.
"""

from __future__ import annotations

import logging
import re

_SECRETS: set[str] = set()
_URL_PASSWORD = re.compile(
    r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^:/@\s]*):(?P<pw>[^@/\s]+)@"
)
_PASSWORD_KV = re.compile(r"(?i)(password\s*=\s*)(\S+)")
_BEARER = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}")
# Secrets known by their shape, hidden even where nothing registered them (pasted into
# hunter.toml as a chat's id, say): what each is, the variable it belongs in, its pattern (its
# first group, the part before the secret's own, is kept: a webhook's address says its
# service). Each channel and store registers its own (register_shape).
_SHAPES: list[tuple[str, str, re.Pattern[str]]] = []


def register(*secrets: str | None) -> None:
    """Remember values that must never be shown (tokens, keys, passwords)."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            _SECRETS.add(secret)


def register_shape(what: str, variable: str, pattern: str) -> None:
    """Know a secret by its shape: `what` it is ("a Telegram bot token"), the `variable` it
    belongs in, and a `pattern` whose first group is kept."""
    if not any(p.pattern == pattern for _w, _v, p in _SHAPES):
        _SHAPES.append((what, variable, re.compile(pattern)))


def redact(text: str) -> str:
    """`text` with every known secret, URL password and bearer token replaced by ***."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(secret, "***")
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text)
    text = _PASSWORD_KV.sub(r"\1***", text)
    for _what, _variable, shape in _SHAPES:
        text = shape.sub(r"\1***", text)
    return _BEARER.sub(r"\1***", text)


def secret_shape(text: str) -> tuple[str, str] | None:
    """(what secret `text` holds, the variable it belongs in) when it has a secret's shape."""
    return next(((what, var) for what, var, shape in _SHAPES if shape.search(text)), None)


def clip(text: str, most: int) -> str:
    """`text` redacted, then cut to `most` characters: cut first, a secret would no longer be
    found whole, and its first part would show."""
    return redact(text)[:most]


class RedactingFilter(logging.Filter):
    """A logging filter that renders each record once and redacts the result."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info:
            # The traceback is kept (it is what a bug report needs), redacted: a frame's line
            # or the exception's text could quote a secret.
            record.exc_text = redact(_TRACEBACK.formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_TRACEBACK = logging.Formatter()
