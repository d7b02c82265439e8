"""Listings -> LINE message objects that LINE always accepts, whatever the listing holds.

Limits (LINE's documentation; the spec does not encode them): at most 5 messages per push;
a Flex carousel holds at most 12 bubbles and 50 KB, a bubble 30 KB; altText at most 400
characters, text messages 5,000 (counted in UTF-16 units); a URI action at most 1,000
characters with an http, https, line or tel scheme; the whole body at most 2 MB. Every field
here is cut to a fixed size, so one bubble stays under 3 KB and a full carousel under 40 KB.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from hunter.channels.line import ids
from hunter.channels.line.answers import RETRY_KEY_WINDOW_SECONDS
from hunter.deliver.channel import ChatEvent, Recipient
from hunter.deliver.outcome import Kind, PushResult
from hunter.rules.listing import Listing
from hunter.words.details import ALSO_ON, LIKE, also_on, buttons, details, money, pays
from hunter.words.notices import SOURCE as NOTICE_SOURCE

MAX_MESSAGES = 5
MAX_BUBBLES = 12
# Four carousels of listings; the fifth message is kept for a note ("12 more wait").
MAX_PER_PUSH = (MAX_MESSAGES - 1) * MAX_BUBBLES
ALT_TEXT_MAX = 400
TEXT_MAX = 5000
URI_MAX = 1000
TITLE_MAX = 160
SUMMARY_MAX = 240
SOURCE_MAX = 40
DETAIL_MAX = 120
POSTBACK_DATA_MAX = 300
LIKE_ID_MAX = 100  # a card's 👍 only under a listing whose id is at most this long
# A reply token works once, within about a minute of its event (LINE's reply API): an event
# handled later (taken over after a restart) still acts, but no longer answers.
REPLY_WINDOW = timedelta(seconds=50)
# Postback data: "<verb> <argument>" (words/details.buttons), read back by hunter/chat/answers.py.


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` UTF-16 units, ending in "…" when it was cut."""
    if utf16_len(text) <= limit:
        return text
    out, used = [], 0
    for char in text:
        size = 2 if ord(char) > 0xFFFF else 1
        if used + size > limit - 1:
            break
        out.append(char)
        used += size
    return "".join(out).rstrip() + "…"


def safe_uri(url: str) -> str | None:
    """The whole http(s) link as a URI action takes it (LINE: at most 1,000 characters), or
    None: other schemes are dropped (javascript:, data:), and so is a link too long for an
    action, never cut to its path, which is another page (Indeed's pagead/clk/dl
    without its query shows no job); `long_link` carries it instead."""
    whole = _encoded(url)
    return whole if whole is not None and len(whole) <= URI_MAX else None


def _encoded(url: str) -> str | None:
    """An http(s) link in ASCII with nothing a chat would stop a link at (spaces, Thai letters
    percent-encoded, the host in IDNA), or None when it is no http(s) link."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    if url.isascii() and " " not in url:
        return url
    path = quote(parts.path, safe="/%:@!$&'()*+,;=-._~")
    query = quote(parts.query, safe="=&%:@!$'()*+,;/?-._~")
    host = parts.netloc.encode("idna").decode("ascii")
    return urlunsplit((parts.scheme, host, path, query, parts.fragment and quote(parts.fragment)))


def long_links(listings: Sequence[Listing], room: int = TEXT_MAX) -> str:
    """A text message's lines for the listings whose link no button can hold: LINE makes a
    link of an address in a text message (up to 5,000 characters), so each still opens. A
    link that would not fit there either (in `room` UTF-16 units) is left out, never cut."""
    lines, used = [], 0
    for listing in listings:
        whole = _encoded(listing.url) if listing.url else None
        if whole is None or len(whole) <= URI_MAX:
            continue
        line = f"🔗 {cut(listing.title, 60)}\n{whole}"
        if used + utf16_len(line) + 2 > room:
            continue
        lines.append(line)
        used += utf16_len(line) + 2
    return "\n\n".join(lines)


def bubble(listing: Listing, actions: bool = False) -> dict[str, Any]:
    body: list[dict[str, Any]] = [
        {
            "type": "text",
            "text": cut(listing.title, TITLE_MAX) or "(untitled)",
            "weight": "bold",
            "wrap": True,
            "maxLines": 3,
        },
    ]
    if pays(listing):  # a notice of hunter's own has none
        body.append(
            {
                "type": "text",
                "text": cut(money(listing), DETAIL_MAX),
                "size": "sm",
                "color": "#1DB446" if listing.budget is not None else "#999999",
            }
        )
    if line := details(listing):
        body.append(
            {
                "type": "text",
                "text": cut(line, DETAIL_MAX),
                "size": "xs",
                "color": "#555555",
                "wrap": True,
                "maxLines": 2,
            }
        )
    if listing.summary:
        body.append(
            {
                "type": "text",
                "text": cut(listing.summary, SUMMARY_MAX),
                "size": "xs",
                "color": "#666666",
                "wrap": True,
                "maxLines": 4,
            }
        )
    body.append(
        {
            "type": "text",
            "text": cut(listing.source, SOURCE_MAX) or "-",
            "size": "xxs",
            "color": "#999999",
        }
    )
    for board, url in also_on(listing):  # copies of the job merged into it
        where: dict[str, Any] = {
            "type": "text",
            "text": cut(f"{ALSO_ON} {board}", DETAIL_MAX),
            "size": "xxs",
            "color": "#1E6FD9" if safe_uri(url) else "#999999",
        }
        if uri := safe_uri(url):
            where["action"] = {"type": "uri", "label": cut(board, 20) or "Open", "uri": uri}
        body.append(where)
    container: dict[str, Any] = {
        "type": "bubble",
        "size": "kilo",
        "body": {"type": "box", "layout": "vertical", "spacing": "sm", "contents": body},
    }
    footer: list[dict[str, Any]] = []
    uri = safe_uri(listing.url)
    if uri:
        footer.append(
            {
                "type": "button",
                "style": "primary",
                "height": "sm",
                "action": {"type": "uri", "label": "Open", "uri": uri},
            }
        )
    if actions and listing.source != NOTICE_SOURCE and (buttons := action_buttons(listing)):
        for i in range(0, len(buttons), 2):  # two a row: four in one are cut on a phone
            footer.append({"type": "box", "layout": "horizontal", "contents": buttons[i : i + 2]})
    if footer:
        container["footer"] = {"type": "box", "layout": "vertical", "contents": footer}
    return container


def action_buttons(listing: Listing) -> list[dict[str, Any]]:
    """The card's answers for the chat (postbacks, handled by hunter's webhook): 👍, 👎 (not
    interested), mute the keyword that matched, applied. A datum LINE would refuse is left out;
    so is the 👍 of a listing whose id is over LIKE_ID_MAX (a board's id of hundreds of Thai
    letters: twelve such cards with four buttons each would pass a carousel's 50 KB; its
    "applied" still counts as a 👍)."""
    long_id = utf16_len(listing.job_id) > LIKE_ID_MAX
    return [
        {
            "type": "button",
            "style": "link",
            "height": "sm",
            "action": {"type": "postback", "label": label, "data": data},
        }
        for label, data in buttons(listing)
        if utf16_len(data) <= POSTBACK_DATA_MAX and not (long_id and data.startswith(f"{LIKE} "))
    ]


def alt_text(listings: list[Listing]) -> str:
    """What a phone's notification shows: the count and the first titles."""
    head = "New job" if len(listings) == 1 else f"{len(listings)} new jobs"
    titles = " · ".join(cut(listing.title, 80) for listing in listings)
    return cut(f"{head}: {titles}", ALT_TEXT_MAX)


def messages(
    listings: list[Listing], note: str | None = None, actions: bool = False
) -> list[dict[str, Any]]:
    """Flex messages of at most 12 bubbles each, in the listings' order, then the note."""
    if not 0 <= len(listings) <= MAX_PER_PUSH or not (listings or note):
        raise ValueError(f"one push holds 1 to {MAX_PER_PUSH} listings, not {len(listings)}")
    out = []
    for start in range(0, len(listings), MAX_BUBBLES):
        chunk = listings[start : start + MAX_BUBBLES]
        contents: dict[str, Any] = (
            bubble(chunk[0], actions)
            if len(chunk) == 1
            else {"type": "carousel", "contents": [bubble(item, actions) for item in chunk]}
        )
        out.append({"type": "flex", "altText": alt_text(chunk), "contents": contents})
    links = long_links(listings, TEXT_MAX - (utf16_len(note) + 2 if note else 0))
    if links:  # their cards have no Open button: their links come as text, each whole
        note = f"{note}\n\n{links}" if note else links
    if note:
        out.append(text_message(note))
    return out


QUICK_MAX = 13  # quick-reply buttons under one message (LINE's QuickReply.items)
QUICK_LABEL_MAX = 20  # characters of a button's label (LINE's message action)


def text_message(text: str, quick: Sequence[str] = ()) -> dict[str, Any]:
    """A text message; `quick`: words offered as buttons under it, each sending itself."""
    message: dict[str, Any] = {"type": "text", "text": cut(text, TEXT_MAX) or "-"}
    if quick:
        message["quickReply"] = {
            "items": [
                {
                    "type": "action",
                    "action": {
                        "type": "message",
                        "label": cut(word, QUICK_LABEL_MAX),
                        "text": word,
                    },
                }
                for word in list(dict.fromkeys(quick))[:QUICK_MAX]
            ]
        }
    return message


def plain_lines(messages: list[dict[str, Any]]) -> list[str]:
    """What LINE would show of these messages, as terminal lines: each card's title (after a
    bell), its other lines indented, and its link; a text message after a megaphone."""
    out = []
    for message in messages:
        if message.get("type") == "text":
            out.append(f"📣 {message.get('text', '')}")
            continue
        contents = message.get("contents", {})
        for card in (
            contents.get("contents", []) if contents.get("type") == "carousel" else [contents]
        ):
            texts = [c.get("text", "") for c in card.get("body", {}).get("contents", [])]
            out.append(f"🔔 {texts[0] if texts else ''}")
            out += [f"  {text}" for text in texts[1:]]
            for button in card.get("footer", {}).get("contents", []):
                out.append(f"  link: {button.get('action', {}).get('uri', '')}")
    return out


class LineCards:
    """Listings shown as LINE's Flex cards: the render half of a channel (deliver/channel.py)
    for LINE, and for the terminal, which prints what LINE would show; and how LINE's chat is
    answered (a reply, with the event's token), where LineSender's `reply` does it."""

    max_per_push = MAX_PER_PUSH
    digest_max = 0  # a push is already a carousel of cards
    max_recent = MAX_BUBBLES  # the last ones sent, shown again: one carousel
    paced = True  # LINE's monthly quota (the terminal, without one, is never held)
    dedupes = True  # X-Line-Retry-Key (the terminal resends nothing)
    retry_window: float | None = RETRY_KEY_WINDOW_SECONDS
    edits = False  # a LINE message, once sent, stays as it is
    words = ids.WORDS
    name = ids.NAME

    def edit(self, messages: list[dict[str, Any]], ref: str, to: str | None = None) -> PushResult:
        return PushResult(Kind.PERMANENT, None, f"{self.name} cannot edit a sent message")

    def recipient(self, to: str | None) -> Recipient:
        return ids.recipient(to, self.name)

    @property
    def quota_name(self) -> str:
        return self.name

    def restore(self, payload: object) -> ChatEvent | None:
        from hunter.channels.line.webhook import restore

        return restore(payload)

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        return messages(list(listings), note, actions)

    def digest(self, listings: Sequence[Listing], note: str | None) -> list[dict[str, Any]]:
        return self.render(listings, note, False)  # none: digest_max is 0

    def text(self, text: str, quick: Sequence[str] = ()) -> dict[str, Any]:
        return text_message(text, quick)

    def can_answer(self, event: ChatEvent, now: datetime) -> bool:
        """A reply token works once, within about a minute of its event (LINE's reply API);
        unfollow, leave and the like come without one."""
        if not event.answer_token:
            return False
        return event.at is None or now - event.at <= REPLY_WINDOW

    def answer(self, event: ChatEvent, messages: list[dict[str, Any]]) -> PushResult:
        return self.reply(event.answer_token or "", messages)

    def is_admin(self, chat_id: str, sender: str) -> bool:
        """LINE says nothing of who runs a group: only who started it changes it."""
        return False

    def acknowledge(self, event: ChatEvent) -> None:
        """Nothing: LINE waits for no answer to a postback."""

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        """A reply to a token, free (LineSender's); the terminal has no chat to reply in."""
        return PushResult(Kind.PERMANENT, None, "no LINE chat to reply in")
