"""A listing as Telegram shows it: one message of HTML text (title, pay and what it is, in
the words of LINE's cards: rules/wording.py; a short summary, its source) and an "Open"
button under it.

Telegram's limits (core.telegram.org/bots/api, sendMessage): at most 4,096 characters of text
after its entities are parsed, a button's `callback_data` at most 64 bytes. One listing per
message: a batch is one sendMessage, so that a batch is delivered whole or not at all (a Bot
API call has no retry key to make a second try safe).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from hunter.rules.listing import Listing
from hunter.rules.wording import details, money

TEXT_MAX = 4096
# Each part is cut to a size, so a message stays far under TEXT_MAX (about 1,700 characters at
# most, counted as Telegram does: after its HTML is parsed).
TITLE_MAX, SUMMARY_MAX, NOTE_MAX = 300, 600, 500


def message(listing: Listing, note: str | None) -> dict[str, Any]:
    """sendMessage's fields for one listing (all but chat_id), within Telegram's limits."""
    lines = [f"<b>{_html(listing.title[:TITLE_MAX])}</b>", f"💰 {_html(money(listing))}"]
    lines += [_html(text) for text in (details(listing), listing.summary[:SUMMARY_MAX]) if text]
    lines += ["", f"📍 {_html(listing.source)}"]
    if note:
        lines.append(f"<i>{_html(note[:NOTE_MAX])}</i>")
    fields: dict[str, Any] = {
        "text": "\n".join(lines),
        "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True},
    }
    if listing.url:
        fields["reply_markup"] = {"inline_keyboard": [[{"text": "เปิด · Open", "url": listing.url}]]}
    return fields


def _html(text: str) -> str:
    return escape(text, quote=False)


class TelegramMessages:
    """The render half of the Telegram channel: one listing, one message."""

    max_per_push = 1

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        if len(listings) != 1:
            raise ValueError(f"a Telegram push carries one listing, not {len(listings)}")
        return [message(listings[0], note)]
