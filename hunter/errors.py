"""Every error hunter raises on purpose, in one tree.

    HunterError                 a problem hunter can explain in one line
    ├── ConfigError             bad hunter.toml, environment or command line   -> exit 2
    └── RunError                the run itself failed                          -> exit 1
        ├── StoreError          the database cannot be reached or refused a statement
        │   ├── StoreRefused    the database answered, and refused this statement's values
        │   ├── NotMadeYet      no hunter database there yet, or an older one: `run` makes it
        │   ├── SchemaError     the database holds an older or newer schema than this hunter
        │   └── StoreGone       the SQLite file was deleted or replaced under a running hunter
        ├── SourceError         one source could not be fetched or parsed (the others go on)
        └── ChannelError        a channel could not be reached for a check (each channel's
            │                   folder has its own: LineError, TelegramError, DiscordError)
            ├── ChatGone        the channel says a chat is not there for the bot (it left)
            └── TokenRefused    the channel refused hunter's token (401) during a run

Library errors (httpx, psycopg, sqlite3, line-bot-sdk) are wrapped at the boundary with
``raise ... from exc`` so the CLI prints one sentence, never a traceback, and never a secret.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection


class HunterError(Exception):
    """A problem hunter can explain in one line: what went wrong and what to do."""

    exit_code = 1


class ConfigError(HunterError):
    """The configuration, the environment or the command line is wrong. Exit code 2."""

    exit_code = 2


class RunError(HunterError):
    """Something hunter depends on failed while running. Exit code 1."""


class StoreError(RunError):
    """The database could not be reached or refused a statement."""


class StoreRefused(StoreError):
    """The database was reached and refused the statement for what it carries (a value it
    cannot store, a key past its size): the same statement will be refused again, while the
    others still go through."""


class NotMadeYet(StoreError):
    """A command that only looks found no hunter database yet (no SQLite file, or no tables),
    or one of an older hunter: `hunter run` or `hunter prime` makes or upgrades it. For
    `hunter check`, a note, not a failure."""


class SchemaError(StoreError):
    """The database's hunter schema is not the one this hunter expects."""


class StoreGone(StoreError):
    """The SQLite file hunter opened is no longer the one at its path: stop, do not go on."""


class SourceError(RunError):
    """A source could not be fetched or parsed."""


class ChannelError(RunError):
    """A channel could not be reached, or refused a check."""


class ChatGone(ChannelError):
    """The channel answers that the bot is not in a chat: LINE's 404 or 403 to a group's
    member count (the bot left or was removed), Telegram's 403 ("bot was blocked by the
    user", "bot was kicked") or "chat not found". Its pushes would all be refused, so its
    rows wait."""


class TokenRefused(ChannelError):
    """The channel refused hunter's token (a 401) to a check made while delivering (a chat's
    members, whether it is still there). Not a chat's trouble: every chat of the channel
    meets it, and its push writes the fix on its rows (outcome: auth)."""


def meant(key: str, allowed: Collection[str]) -> str:
    """What an error adds when `key` is a near miss of one allowed key (a letter doubled or
    dropped, a plural): " (did you mean 'interval_minutes'?)"; else ""."""
    close = difflib.get_close_matches(key.strip().lower(), list(allowed), n=1, cutoff=0.8)
    return f" (did you mean {close[0]!r}?)" if close else ""
