"""Listings as Discord shows them: one message of up to 10 embeds, one per listing (its title
linking to it, pay and what it is and a short summary in the description, the source in the
footer), and the batch's note as the message's text.

Discord's limits (discord.com/developers/docs/resources/message#embed-object-embed-limits and
execute webhook; the same in ../shared/contracts/discord-openapi.json): content at most 2,000
characters; at most 10 embeds, each title at most 256, description 4,096, footer 2,048; the
text of all embeds together at most 6,000. Each part is cut to a size here, so 10 embeds stay
under 5,500 characters. `allowed_mentions` with an empty `parse` always: "@everyone", "@here"
or "<@&role>" in a listing's text pings nobody. A listing's text is shown as written: Discord
reads Markdown in an embed ("[a board's words](https://elsewhere)" would show as a masked
link to elsewhere), so every character it reads as markup is escaped (its Markdown, as
simple-markdown's escape rule: a backslash before any punctuation shows it as it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hunter.rules.listing import Listing
from hunter.words.details import ALSO_ON, also_on, details, money, pays

CONTENT_MAX = 2000
MAX_EMBEDS = 10
EMBEDS_TOTAL_MAX = 6000
TITLE_MAX, DESCRIPTION_MAX, FOOTER_MAX = 200, 300, 40
FIELD_MAX = 1024  # an embed field's value; 5 boards' links stay far under it
URL_MAX = 2048
COLOR = 0x2ECC71
NOTICE_COLOR = 0xE67E22
NO_MENTIONS: dict[str, list[str]] = {"parse": []}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_MARKUP = frozenset("\\*_~`|>[]()#<@-")


def _plain(text: str, limit: int) -> str:
    """A board's text with each character Discord reads as markup escaped, at most `limit`
    characters in all (cut between whole characters, never inside an escape)."""
    pieces = ["\\" + char if char in _MARKUP else char for char in text]
    if sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    shown, size = [], 0
    for piece in pieces:
        if size + len(piece) > limit - 1:
            break
        shown.append(piece)
        size += len(piece)
    return "".join(shown) + "…"


def embed(listing: Listing) -> dict[str, Any]:
    lines = [f"💰 {money(listing)}" if pays(listing) else "", details(listing), listing.summary]
    card: dict[str, Any] = {
        "title": _plain(listing.title or "-", TITLE_MAX),
        "description": _plain("\n".join(line for line in lines if line), DESCRIPTION_MAX),
        "footer": {"text": _cut(f"📍 {listing.source}", FOOTER_MAX)},
        "color": COLOR if pays(listing) else NOTICE_COLOR,  # hunter's own words: no job
    }
    if (
        listing.url
        and listing.url.startswith(("https://", "http://"))
        and len(listing.url) <= URL_MAX
    ):
        card["url"] = listing.url
    if listing.also_on:  # copies of the job merged into this alert since
        boards = [_link(board, url) for board, url in also_on(listing)]
        card["fields"] = [{"name": ALSO_ON, "value": _cut(" · ".join(boards), FIELD_MAX)}]
    return card


def _link(board: str, url: str) -> str:
    """A board's name (escaped) as a masked link to `url` where it is a short http(s) one."""
    name = _plain(board, 40)
    if url.startswith(("https://", "http://")) and len(url) <= 150 and ")" not in url:
        return f"[{name}]({url})"
    return name


def message(listings: Sequence[Listing], note: str | None) -> dict[str, Any]:
    """One execute-webhook body: the listings' embeds and `note` as its text."""
    embeds = [embed(listing) for listing in listings[:MAX_EMBEDS]]
    # Without "also on" 10 embeds stay under 5,500 characters; with it, the last ones' lines
    # go first until all of them fit Discord's 6,000.
    for card in reversed(embeds):
        if _size(embeds) <= EMBEDS_TOTAL_MAX:
            break
        card.pop("fields", None)
    body: dict[str, Any] = {"embeds": embeds, "allowed_mentions": NO_MENTIONS}
    if note or not listings:
        body["content"] = _cut(note or "-", CONTENT_MAX)
    return body


def _size(embeds: Sequence[dict[str, Any]]) -> int:
    """The characters Discord counts against EMBEDS_TOTAL_MAX: titles, descriptions,
    footers, fields' names and values."""
    total = 0
    for card in embeds:
        total += len(card.get("title", "")) + len(card.get("description", ""))
        total += len(card.get("footer", {}).get("text", ""))
        total += sum(len(f["name"]) + len(f["value"]) for f in card.get("fields", ()))
    return total


def text_message(text: str) -> dict[str, Any]:
    return {"content": _cut(text or "-", CONTENT_MAX), "allowed_mentions": NO_MENTIONS}


class DiscordMessages:
    """The render half of the Discord channel: a batch is one message."""

    max_per_push = MAX_EMBEDS
    digest_max = 0  # a push is already one message of up to MAX_EMBEDS listings

    def digest(self, listings: Sequence[Listing], note: str | None) -> list[dict[str, Any]]:
        return self.render(listings, note, False)  # none: digest_max is 0

    def render(
        self, listings: Sequence[Listing], note: str | None, actions: bool
    ) -> list[dict[str, Any]]:
        return [message(listings, note)]  # no buttons: a webhook has no chat to answer them
