"""What a chat's places, languages and taps held back (nothing hidden without a
trace): a keyword hit of a chat left out because it is elsewhere, in a language the chat does
not read, or like a listing it 👎'd. The poll counts them per chat (rules/fanout.py, the
poller), the store adds them up over a week at most (028_places.sql), and `hunter status` and
the status page say them for each chat; /why says it for one listing."""

from __future__ import annotations

from datetime import timedelta

LAYERS = ("place", "language", "taps")
WINDOW = timedelta(days=7)  # counts older than this start again from nothing
_REASONS = {"place read as": "place", "written in": "language", "held back": "taps"}


def layer_of(reason: str) -> str:
    """The layer a verdict's reason names ("" when it is none of them: a keyword's, a floor's)."""
    return next((layer for head, layer in _REASONS.items() if reason.startswith(head)), "")
