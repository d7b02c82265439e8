"""How a chat is named where people read it (notices, logs): the owner's is "owner", or,
without an owner, the first [[chats]], where its rows go."""

from __future__ import annotations

import pytest

from hunter.rules.destinations import OWNER, ChatConfig, Destinations

ME = ChatConfig("me", "telegram:111", {})
TEAM = ChatConfig("team", "telegram:-100222", {})
LINE_USER = "U" + "0" * 32


@pytest.mark.parametrize(
    ("owner", "chats", "chat", "label", "goes_to"),
    [
        (LINE_USER, (ME, TEAM), OWNER, "owner", LINE_USER),
        (None, (ME, TEAM), OWNER, "me", "telegram:111"),  # Telegram alone: no LINE_TO at all
        (None, (), OWNER, "owner", None),  # the terminal
        (None, (ME, TEAM), "team", "team", "telegram:-100222"),
        (LINE_USER, (ME,), "me", "me", "telegram:111"),
    ],
)
def test_a_chat_is_named_as_the_chat_its_rows_go_to(
    owner: str | None, chats: tuple[ChatConfig, ...], chat: str, label: str, goes_to: str | None
) -> None:
    destinations = Destinations(owner, chats)
    assert (destinations.label(chat), destinations.to_of(chat)) == (label, goes_to)
