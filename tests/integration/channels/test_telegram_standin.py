"""The Telegram stand-in is only as good as what it rejects: it reads every request, answer and
update against Telegram's Bot API as data (tests/support/telegram_spec.py)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hunter.channels.telegram.render import TelegramMessages
from hunter.rules.listing import Listing
from tests.support import telegram_spec
from tests.support.telegram_standin import TOKEN, TelegramStandIn

needs_spec = pytest.mark.skipif(
    not telegram_spec.spec_available(),
    reason="../shared/contracts (Telegram's Bot API as data) is not here; CI has it",
)
pytestmark = needs_spec


@pytest.fixture
def standin() -> Iterator[TelegramStandIn]:
    stand_in = TelegramStandIn()  # not the shared fixture: these tests break the spec on purpose
    yield stand_in
    stand_in.close()


def call(stand_in: TelegramStandIn, method: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{stand_in.url}/bot{TOKEN}/{method}", json=body)
    result: dict[str, Any] = answer.json()
    assert answer.status_code == result.get("error_code", 200)
    return result


def alert() -> dict[str, Any]:
    """sendMessage's body as hunter sends a listing: text, HTML, buttons, no preview."""
    listing = Listing("b:1", "b", "Python bot", "https://b.test/1", 9000, "needs a bot")
    (fields,) = TelegramMessages().render([listing], None, actions=True)
    return {"chat_id": 111, **fields}


def button(body: dict[str, Any]) -> dict[str, Any]:
    first: dict[str, Any] = body["reply_markup"]["inline_keyboard"][0][0]
    return first


def test_hunters_alert_is_a_sendmessage_of_the_bot_api() -> None:
    assert telegram_spec.request_problems("sendMessage", alert()) == []


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (lambda b: b.update(disable_web_page_preview=True), "'disable_web_page_preview'"),
        (lambda b: b.update(chat_id=[111]), "sendMessage.chat_id"),
        (lambda b: b["link_preview_options"].update(is_disabled="yes"), "is not a Boolean"),
        (lambda b: button(b).update(colour="red"), "no field 'colour'"),
        (lambda b: b["reply_markup"].update(inline_keyboard=[{"text": "x"}]), "not an array"),
        (lambda b: button(b).pop("text"), "needs 'text'"),
    ],
    ids=["removed-parameter", "chat-id-type", "nested-boolean", "unknown-field", "rows", "text"],
)  # fmt: skip
def test_the_spec_finds_what_telegram_would_not_take(change: Any, found: str) -> None:
    body = copy.deepcopy(alert())
    change(body)
    problems = telegram_spec.request_problems("sendMessage", body)
    assert any(found in p for p in problems), problems


def test_a_parameter_telegram_ignores_is_served_and_kept_as_a_violation(
    standin: TelegramStandIn,
) -> None:
    answer = call(standin, "sendMessage", {**alert(), "disable_notifications": True})  # typo
    assert answer["ok"] is True  # Telegram ignores it, and the setting silently does nothing
    assert standin.violations == [
        "sendMessage: no parameter 'disable_notifications' in Bot API 10.1"
    ]


@pytest.mark.parametrize(
    ("method", "body", "description"),
    [
        ("sendMessage", {"text": "hi"}, "Bad Request: chat_id is empty"),
        ("sendMessage", {"chat_id": 111}, "Bad Request: message text is empty"),
        ("getChat", {}, "Bad Request: chat_id is empty"),
        ("answerCallbackQuery", {}, "Bad Request: callback_query_id is empty"),
    ],
)
def test_a_required_parameter_left_out_is_refused(
    standin: TelegramStandIn, method: str, body: dict[str, Any], description: str
) -> None:
    answer = call(standin, method, body)
    assert (answer["ok"], answer["error_code"], answer["description"]) == (False, 400, description)


def test_methods_are_read_in_any_case_and_unknown_ones_are_404(standin: TelegramStandIn) -> None:
    assert call(standin, "GETME", {})["result"]["username"] == "hunter_test_bot"
    assert call(standin, "sendmessage", alert())["ok"] is True
    assert call(standin, "sendMessages", alert())["description"] == "Not Found"
    assert [method for method, _ in standin.calls] == ["getMe", "sendMessage"]
    assert standin.violations == []


def test_answers_have_what_their_type_requires(standin: TelegramStandIn) -> None:
    sent = call(standin, "sendMessage", alert())["result"]
    assert telegram_spec.object_problems("Message", sent) == []
    assert sent["chat"] == {"id": 111, "type": "private"}
    chat = call(standin, "getChat", {"chat_id": -100222})["result"]
    assert telegram_spec.object_problems("ChatFullInfo", chat) == []
    assert (chat["type"], chat["accepted_gift_types"]["unique_gifts"]) == ("supergroup", False)
    info = call(standin, "getWebhookInfo", {})["result"]
    assert (info["url"], info["pending_update_count"]) == ("", 0)
    assert standin.violations == []


def test_updates_sent_to_hunter_are_telegrams_own_shapes(standin: TelegramStandIn) -> None:
    updates = [
        standin.message(111, "hello"),
        standin.tap(111, "say python"),
        standin.tap_inline(111, "say python"),
        standin.added(-100222),
        standin.added(-100222, "left"),
        standin.added(-100222, "kicked"),
    ]
    for update in updates:
        assert telegram_spec.object_problems("Update", update) == []
    banned = updates[-1]["my_chat_member"]["new_chat_member"]
    assert (banned["status"], banned["until_date"]) == ("kicked", 0)
    # ChatMember's six types differ by `status` alone, which the spec words as 'always "…"'.
    assert telegram_spec.object_problems("ChatMemberLeft", {**banned, "status": "member"})
