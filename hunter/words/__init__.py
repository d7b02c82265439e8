"""What hunter says to a person in words beside the listings: its own notices to the owner
(notices.py: a source stopped working, a flood, the month's quota, who asks to join), what a
listing's card says beside its title and the buttons under it (details.py), and counts said
as a person says them (`plural`). Pure: no I/O."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 message", "2 messages", "1 reply", "3 replies" (`many` where "+s" is wrong)."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
