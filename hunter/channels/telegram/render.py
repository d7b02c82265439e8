"""A listing as Telegram shows it: one message of HTML text (title, pay, what it is, a short
summary, its source and link) and an "Open" button under it.

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
from hunter.rules.pay import pay_text

TEXT_MAX = 4096
SUMMARY_MAX = 600
NOT_STATED = "งบไม่ระบุ · budget not stated"


def message(listing: Listing, note: str | None) -> dict[str, Any]:
    """sendMessage's fields for one listing (all but chat_id), within Telegram's limits."""
    pay = (
        pay_text(
            listing.budget, listing.budget_max, listing.currency, listing.period, listing.bound
        )
        if listing.budget is not None
        else NOT_STATED
    )
    about = " · ".join(
        part
        for part in (
            listing.category,
            listing.engagement,
            f"{listing.offers} offers" if listing.offers is not None else "",
            f"deadline {listing.deadline}" if listing.deadline else "",
        )
        if part
    )
    head = [f"<b>{escape(listing.title[:300], quote=False)}</b>", f"💰 {escape(pay, quote=False)}"]
    if about:
        head.append(escape(about, quote=False))
    tail = [f"📍 {escape(listing.source, quote=False)}"]
    if note:
        tail.append(f"<i>{escape(note[:500], quote=False)}</i>")
    room = TEXT_MAX - len("\n\n".join(["\n".join(head), "", "\n".join(tail)])) - 1
    summary = listing.summary[: max(0, min(SUMMARY_MAX, room))]
    body = [*head, escape(summary, quote=False)] if summary else head
    fields: dict[str, Any] = {
        "text": "\n".join(body) + "\n\n" + "\n".join(tail),
        "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True},
    }
    if listing.url:
        fields["reply_markup"] = {"inline_keyboard": [[{"text": "เปิด · Open", "url": listing.url}]]}
    return fields


class TelegramMessages:
    """The render half of the Telegram channel: one listing, one message."""

    max_per_push = 1

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        if len(listings) != 1:
            raise ValueError(f"a Telegram push carries one listing, not {len(listings)}")
        return [message(listings[0], note)]
