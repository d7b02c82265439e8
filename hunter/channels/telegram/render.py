"""A listing as Telegram shows it: one message of HTML text (title, pay and what it is, in
the words of LINE's cards: words/details.py; a short summary, its source), an "Open" button
under it, and, when the chat can answer them, the card's buttons (not interested, mute the
keyword, applied) as callback buttons.

Telegram's limits (core.telegram.org/bots/api, sendMessage): at most 4,096 characters of text
after its entities are parsed, a button's `callback_data` at most 64 bytes (a button whose
data would be longer, a long job id or keyword, is left out, as LINE's card leaves out a
postback past 300 characters). One listing per push: a push is one sendMessage, so that it is
delivered whole or not at all (a Bot API call has no retry key to make a second try safe).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from hunter.rules.listing import Listing
from hunter.words.details import ALSO_ON, SAY, also_on, buttons, details, money, pays, why_short

TEXT_MAX = 4096
# Each part is cut to a size, so a message stays far under TEXT_MAX (about 2,000 UTF-16 units
# at most, counted as Telegram does: after its HTML is parsed, an emoji two units).
TITLE_MAX, SUMMARY_MAX, NOTE_MAX, DETAILS_MAX = 300, 600, 500, 300
CALLBACK_DATA_MAX = 64  # bytes
QUICK_MAX, QUICK_PER_ROW = 9, 3  # words offered under an answer
# A digest: 20 lines of at most ~170 characters (a title, its pay, its source) and a note:
# about 4,000 at the very most, within TEXT_MAX.
DIGEST_MAX, DIGEST_TITLE_MAX = 20, 110
DIGEST_TITLE_LEAST = 30  # UTF-16 units a digest line's title keeps, whatever is beside it


def message(listing: Listing, note: str | None, actions: bool = False) -> dict[str, Any]:
    """sendMessage's fields for one listing (all but chat_id), within Telegram's limits."""
    lines = [f"<b>{_html(_cut(listing.title, TITLE_MAX))}</b>"]
    lines += [f"💰 {_html(money(listing))}"] if pays(listing) else []
    lines += [
        _html(text)
        for text in (_cut(details(listing), DETAILS_MAX), _cut(listing.summary, SUMMARY_MAX))
        if text
    ]
    lines += ["", f"📍 {_html(listing.source)}"]
    if listing.also_on:  # copies of the job merged into this alert since
        boards = [_link(board, url) for board, url in also_on(listing)]
        lines.append(f"{ALSO_ON}: {', '.join(boards)}")
    if note:
        lines.append(f"<i>{_html(_cut(note, NOTE_MAX))}</i>")
    fields: dict[str, Any] = {
        "text": "\n".join(lines),
        "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True},
    }
    rows = [[{"text": "เปิด · Open", "url": listing.url}]] if listing.url else []
    if actions:
        keys = [
            {"text": label, "callback_data": data}
            for label, data in buttons(listing)
            if len(data.encode()) <= CALLBACK_DATA_MAX
        ]
        rows += [keys[i : i + 2] for i in range(0, len(keys), 2)]  # 👍 👎, then the others
    if rows:
        fields["reply_markup"] = {"inline_keyboard": rows}
    return fields


def digest(listings: Sequence[Listing], note: str | None) -> dict[str, Any]:
    """Many listings as one message (a subscriber with many waiting): a line each,
    its title a link, its pay, and the boards a copy of it was merged from (never
    hidden), within TEXT_MAX as Telegram counts it: the text after its HTML is parsed (a
    link's address is not counted), in UTF-16 units (an emoji is two). Each line has its
    share of the message, so every listing of the batch is shown: a long title is cut."""
    head = f"📬 {len(listings)} งานใหม่ · new listings"
    tail = _cut(note, NOTE_MAX) if note else ""
    room = TEXT_MAX - _units(head) - 2 - (_units(tail) + 2 if tail else 0)
    share = room // max(min(len(listings), DIGEST_MAX), 1) - 1  # a line and its newline
    lines = [f"<b>{_html(head)}</b>", ""]
    for listing in listings[:DIGEST_MAX]:
        pay = f" · {money(listing)}" if listing.budget or listing.budget_max else ""
        if why := why_short(listing):  # not the chat's words: every line says why it came
            pay += f" · {why}"
        source = _cut(listing.source, 30)
        boards = [(_cut(board, 24), url) for board, url in also_on(listing)]
        while boards and _units(_rest(pay, source, boards)) > share - DIGEST_TITLE_LEAST:
            boards.pop()  # the rest are still named by /why
        most = min(DIGEST_TITLE_MAX, share - _units(_rest(pay, source, boards)))
        title = _cut(listing.title, max(most, DIGEST_TITLE_LEAST))
        shown = (
            f'<a href="{escape(listing.url)}">{_html(title)}</a>' if listing.url else _html(title)
        )
        also = [_link(board, url) for board, url in boards]
        elsewhere = f" · {ALSO_ON}: {', '.join(also)}" if also else ""
        lines.append(f"• {shown}{_html(pay)} · {_html(source)}{elsewhere}")
    if tail:
        lines += ["", f"<i>{_html(tail)}</i>"]
    return {
        "text": "\n".join(lines),
        "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True},
    }


def _rest(pay: str, source: str, boards: list[tuple[str, str]]) -> str:
    """What a digest line shows beside its title (as a reader sees it)."""
    also = f" · {ALSO_ON}: {', '.join(board for board, _url in boards)}" if boards else ""
    return f"• {pay} · {source}{also}"


def _units(text: str) -> int:
    """`text`'s length as Telegram counts it: UTF-16 units."""
    return len(text.encode("utf-16-le")) // 2


def text_message(text: str, quick: Sequence[str] = ()) -> dict[str, Any]:
    """A plain text message (at most TEXT_MAX characters); `quick`: words offered as buttons
    under it, each saying its word when tapped ("say <word>", answered as if typed)."""
    fields: dict[str, Any] = {"text": _cut(text, TEXT_MAX) or "-"}
    offered = [
        {"text": word, "callback_data": f"{SAY} {word}"}
        for word in list(dict.fromkeys(quick))
        if len(f"{SAY} {word}".encode()) <= CALLBACK_DATA_MAX
    ][:QUICK_MAX]
    if offered:
        rows = [offered[i : i + QUICK_PER_ROW] for i in range(0, len(offered), QUICK_PER_ROW)]
        fields["reply_markup"] = {"inline_keyboard": rows}
    return fields


def _cut(text: str, limit: int) -> str:
    """`text` in at most `limit` UTF-16 units, as Telegram counts a message's length."""
    units = text.encode("utf-16-le")
    if len(units) <= limit * 2:
        return text
    return units[: (limit - 1) * 2].decode("utf-16-le", "ignore") + "…"


def _link(text: str, url: str) -> str:
    """`text` as a link to `url` (an http(s) address), else as text."""
    if url.startswith(("https://", "http://")):
        return f'<a href="{escape(url)}">{_html(text[:DIGEST_TITLE_MAX])}</a>'
    return _html(text[:DIGEST_TITLE_MAX])


def _html(text: str) -> str:
    return escape(text, quote=False)


class TelegramMessages:
    """The render half of the Telegram channel: one listing, one message; `note` goes with the
    last one (or alone, without listings)."""

    max_per_push = 1
    digest_max = DIGEST_MAX
    max_recent = 3  # the last ones sent, shown again: three messages

    def digest(self, listings: Sequence[Listing], note: str | None) -> list[dict[str, Any]]:
        return [digest(listings, note)]

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        if not listings:
            return [text_message(note or "-")]
        last = len(listings) - 1
        return [
            message(listing, note if n == last else None, actions)
            for n, listing in enumerate(listings)
        ]

    def text(self, text: str, quick: Sequence[str] = ()) -> dict[str, Any]:
        return text_message(text, quick)
