"""The owner's card of the chats that ask to join (issue 55): one card names them all, its
buttons approve each, a /forget finds it by the chat's id, and a name shows as written, not
turned around by a bidirectional control."""

from __future__ import annotations

from datetime import UTC, datetime

from hunter.channels.telegram.updates import from_update
from hunter.words.details import buttons
from hunter.words.notices import askers, asks_to_join, rides_along_since, shown_name

NOW = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)


def test_one_asker_gets_approve_and_refuse() -> None:
    card = asks_to_join([("telegram:999", "Somchai")], NOW)
    assert card.title == "🙋 Somchai (telegram:999) asks to join hunter's alerts"
    assert askers(card) == ["telegram:999"]
    assert buttons(card) == [
        ("อนุมัติ · Approve", "say approve telegram:999"),
        ("ปฏิเสธ · Refuse", "say refuse telegram:999"),
    ]
    assert rides_along_since(card) == NOW.replace(microsecond=0)


def test_several_askers_are_one_card_each_named_and_found_by_its_id() -> None:
    chats = [(f"telegram:{n}", "") for n in range(12)] + [("Uabc", "Nok")]
    card = asks_to_join(chats, NOW)
    assert card.title == "🙋 13 chats ask to join hunter's alerts"
    assert "telegram:0, telegram:1" in card.summary and "and 3 more" in card.summary
    assert askers(card) == [f"telegram:{n}" for n in range(10)]  # the ones it names
    for chat, _name in chats[:10]:
        assert f":{chat}:" in card.job_id  # what a /forget of that chat deletes it by
    assert ":telegram:1:" in card.job_id and ":telegram:11:" not in card.job_id
    assert [b[1] for b in buttons(card)] == [f"say approve telegram:{n}" for n in range(3)]


def test_a_right_to_left_override_in_a_name_never_reaches_the_owner() -> None:
    """Issue 55, low 12."""
    evil = "Mallory\u202e\u2066gpj.exe\u200f"
    assert shown_name(evil) == "Mallorygpj.exe"
    card = asks_to_join([("telegram:7", evil)], NOW)
    assert not any(c in card.title for c in "\u202e\u2066\u200f")
    update = {
        "update_id": 5,
        "message": {
            "message_id": 1,
            "date": 1_790_000_000,
            "chat": {"id": 7, "type": "private"},
            "from": {"id": 7, "is_bot": False, "first_name": evil},
            "text": "/start",
        },
    }
    event = from_update(update)
    assert event is not None and event.who == "Mallorygpj.exe"
