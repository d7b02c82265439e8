"""Telegram's Updates -> ChatEvents, one table: what each kind of Update is to the chat."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.channels.telegram.updates import BadUpdate, parse

AT = 1_780_000_000  # a message's `date`, Unix time
USER = {"id": 111, "is_bot": False, "first_name": "Somchai"}
PRIVATE = {"id": 111, "type": "private"}
GROUP = {"id": -100222, "type": "supergroup"}
BOT = {"id": 42, "is_bot": True, "first_name": "hunter"}


def message(text: str | None, chat: dict[str, Any] = PRIVATE) -> dict[str, Any]:
    body: dict[str, Any] = {"message_id": 5, "from": USER, "chat": chat, "date": AT}
    if text is not None:
        body["text"] = text
    return {"update_id": 7, "message": body}


def tap(data: str) -> dict[str, Any]:
    shown = {"message_id": 4, "chat": GROUP, "date": AT - 600, "text": "a job"}
    query = {"id": "4411", "from": USER, "message": shown, "chat_instance": "-9", "data": data}
    return {"update_id": 8, "callback_query": query}


def member(status: str) -> dict[str, Any]:
    change = {
        "chat": GROUP,
        "from": USER,
        "date": AT,
        "old_chat_member": {"status": "left", "user": BOT},
        "new_chat_member": {"status": status, "user": BOT},
    }
    return {"update_id": 9, "my_chat_member": change}


CASES = [
    # (what, the Update, (kind, chat, answer_token, text, data))
    ("a message", message("งานใหม่"), ("message", "telegram:111", None, "งานใหม่", "")),
    ("a command", message("/new"), ("message", "telegram:111", None, "new", "")),
    (
        "a command to the bot by name, in a group",
        message("/add@hunter_bot rust lang", GROUP),
        ("message", "telegram:-100222", None, "add rust lang", ""),
    ),
    ("/start: the first hello", message("/start"), ("follow", "telegram:111", None, "", "")),
    # A link's start parameter is its words (issue 42: t.me/<bot>?start=python-react joins with
    # them); one Telegram would not send (a space, a "!") is no link's, and says nothing.
    ("/start with a deep link", message("/start abc"), ("follow", "telegram:111", None, "abc", "")),
    (
        "/start with a link's words",
        message("/start python-react_native"),
        ("follow", "telegram:111", None, "python react_native", ""),
    ),
    (
        "/start with no link's text",
        message("/start a b!"),
        ("follow", "telegram:111", None, "", ""),
    ),
    ("a photo (no text)", message(None), ("message", "telegram:111", None, "", "")),
    (
        "a button tapped",
        tap("dismiss board:1"),
        ("tap", "telegram:-100222", "4411", "", "dismiss board:1"),
    ),
    ("the bot added to a group", member("member"), ("join", "telegram:-100222", None, "", "")),
    ("made an admin there", member("administrator"), ("join", "telegram:-100222", None, "", "")),
    ("removed from it", member("kicked"), ("leave", "telegram:-100222", None, "", "")),
    (
        "a kind hunter does not ask for",
        {"update_id": 10, "edited_message": {"message_id": 1}},
        ("edited_message", None, None, "", ""),
    ),
]


@pytest.mark.parametrize(("what", "update", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_update_is_the_event_the_chat_needs(
    what: str, update: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    event = parse(json.dumps(update).encode())
    assert event is not None, what
    assert (event.kind, event.chat_id, event.answer_token, event.text, event.data) == expected
    # Keyed by its chat and its update (issue 37, low 6)
    assert event.event_id == f"{event.chat_id or 'telegram'}:{update['update_id']}"
    assert event.raw == update  # kept as sent: the sweeper reads it back


def test_a_message_is_dated_by_telegram_and_a_group_is_a_group() -> None:
    event = parse(json.dumps(message("hi", GROUP)).encode())
    assert event is not None and event.in_group
    assert event.at == datetime.fromtimestamp(AT, UTC)
    private = parse(json.dumps(message("hi")).encode())
    assert private is not None and not private.in_group


def test_characters_no_store_keeps_are_dropped() -> None:
    event = parse(json.dumps(message("py\u0000thon \ud800x")).encode())
    assert event is not None and event.text == "python x"


@pytest.mark.parametrize(
    "body", [b"<html>", b"[1, 2]", b'{"message": {}}', b'{"update_id": "7"}', b"\xff\xfe"]
)
def test_what_telegram_never_sends_is_refused(body: bytes) -> None:
    with pytest.raises(BadUpdate):
        parse(body)


def test_one_update_id_from_two_chats_is_two_events() -> None:
    """Issue 37, low 6: the same update_id from two chats (a second bot token, a stand-in)
    must not make the second chat's command "handled" already."""
    mine, theirs = message("/new"), message("/new", GROUP)
    theirs["update_id"] = mine["update_id"]
    first, second = parse(json.dumps(mine).encode()), parse(json.dumps(theirs).encode())
    assert first is not None and second is not None
    assert first.event_id != second.event_id
    again = parse(json.dumps(mine).encode())  # Telegram's resend of the same: the same event
    assert again is not None and again.event_id == first.event_id
