"""What each channel's answers mean, one table per channel, and the words a person reads of
them: each names its own channel (issue 35: a listing Telegram refused was shown as LINE's)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hunter.channels.discord import send as discord
from hunter.channels.line import answers as line
from hunter.channels.telegram import send as telegram
from hunter.deliver.outcome import Kind, Scope, decide


@pytest.mark.parametrize(
    ("status", "message", "kind"),
    [
        (200, "", Kind.SENT),
        (409, "The retry key is already accepted", Kind.SENT),
        (400, "The request body has 1 error(s)", Kind.REJECTED),
        (401, "Authentication failed", Kind.AUTH),
        (403, "Not authorized", Kind.AUTH),
        (404, "Not found", Kind.PERMANENT),
        (413, "Too large", Kind.PERMANENT),
        (408, "Request timeout", Kind.TRANSIENT),
        (429, "The API rate limit has been exceeded. Try again later.", Kind.TRANSIENT),
        (429, "You have reached your monthly limit.", Kind.QUOTA),
        (500, "An error occurred in the backend server", Kind.TRANSIENT),
        (502, "", Kind.TRANSIENT),
        (503, "", Kind.TRANSIENT),
        (None, "ReadTimeoutError", Kind.TRANSIENT),  # no answer: timeout, reset, refused
    ],
)
def test_line(status: int | None, message: str, kind: Kind) -> None:
    assert line.classify(status, message) is kind


def _telegram(code: int, description: str, **parameters: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return body


@pytest.mark.parametrize(
    ("status", "body", "kind", "retry_after"),
    [
        (200, {"ok": True, "result": {"message_id": 1}}, Kind.SENT, None),
        (429, _telegram(429, "Too Many Requests: retry after 7", retry_after=7), Kind.TRANSIENT, 7),
        (403, _telegram(403, "Forbidden: bot was blocked by the user"), Kind.GONE, None),
        (400, _telegram(400, "Bad Request: chat not found"), Kind.GONE, None),
        (400, _telegram(400, "Bad Request: group chat was upgraded to a supergroup chat",
                        migrate_to_chat_id=-1001), Kind.PERMANENT, None),
        (400, _telegram(400, "Bad Request: can't parse entities"), Kind.REJECTED, None),
        (401, _telegram(401, "Unauthorized"), Kind.AUTH, None),
        (502, None, Kind.TRANSIENT, None),  # a proxy's page, not the Bot API's JSON
        (500, _telegram(500, "Internal Server Error"), Kind.TRANSIENT, None),
    ],
)  # fmt: skip
def test_telegram(status: int, body: Any, kind: Kind, retry_after: float | None) -> None:
    answer = httpx.Response(status, json=body) if body else httpx.Response(status, text="<html>")
    result = telegram._result(answer)
    assert (result.kind, result.retry_after) == (kind, retry_after)


@pytest.mark.parametrize(
    ("status", "body", "headers", "kind", "retry_after"),
    [
        (200, {"id": "1", "content": ""}, {}, Kind.SENT, None),
        (204, None, {}, Kind.SENT, None),
        (429, {"message": "You are being rate limited.", "retry_after": 0.75, "global": False},
         {"Retry-After": "1"}, Kind.TRANSIENT, 0.75),
        (404, {"message": "Unknown Webhook", "code": 10015}, {}, Kind.GONE, None),
        # an edit's message someone deleted: that edit is given up, the webhook still works
        (404, {"message": "Unknown Message", "code": 10008}, {}, Kind.PERMANENT, None),
        # a token cut short when pasted: a setting to mend, not a chat gone
        (401, {"message": "Invalid Webhook Token", "code": 50027}, {}, Kind.AUTH, None),
        (403, {"message": "Missing Access", "code": 50001}, {}, Kind.GONE, None),
        (400, {"message": "Invalid Form Body", "code": 50035}, {}, Kind.REJECTED, None),
        (502, None, {}, Kind.TRANSIENT, None),
        (503, {"message": "upstream connect error", "code": 0}, {}, Kind.TRANSIENT, None),
    ],
)  # fmt: skip
def test_discord(
    status: int, body: Any, headers: dict[str, str], kind: Kind, retry_after: float | None
) -> None:
    if body is None:
        answer = httpx.Response(status, headers=headers)
    else:
        answer = httpx.Response(status, json=body, headers=headers)
    result = discord.result(answer)
    assert (result.kind, result.retry_after) == (kind, retry_after)


def test_a_taken_message_names_its_id_for_a_later_edit() -> None:
    """Issue 43: the id a push's answer gives is what an edit names (PushResult.ref)."""
    sent = {"ok": True, "result": {"message_id": 42, "date": 0, "chat": {"id": 1}}}
    assert telegram._result(httpx.Response(200, json=sent)).ref == "42"
    assert telegram._result(httpx.Response(200, json={"ok": True, "result": True})).ref is None
    assert discord.result(httpx.Response(200, json={"id": "1234567890"})).ref == "1234567890"
    assert discord.result(httpx.Response(204)).ref is None  # without wait=true: no message


LIMITED = {"message": "You are being rate limited.", "retry_after": 2.0, "global": False}


@pytest.mark.parametrize(
    ("body", "headers", "retry_after", "scope"),
    [
        # one webhook's bucket: that chat waits, every other chat is served
        (LIMITED, {}, 2.0, Scope.CHAT),
        (LIMITED, {"X-RateLimit-Scope": "shared"}, 2.0, Scope.CHAT),
        # the bot's global limit, in the body or in either header: every Discord chat waits
        ({**LIMITED, "global": True}, {}, 2.0, Scope.CHANNEL),
        (LIMITED, {"X-RateLimit-Global": "true"}, 2.0, Scope.CHANNEL),
        (LIMITED, {"X-RateLimit-Scope": "global"}, 2.0, Scope.CHANNEL),
        # a wait of days is kept (at most a day), never read as "5 s"
        ({**LIMITED, "retry_after": 200_000}, {}, 86_400.0, Scope.CHAT),
        ({**LIMITED, "retry_after": 90_000.5}, {}, 86_400.0, Scope.CHAT),
        # none in the body: the Retry-After header; neither: 5 s
        ({"message": "You are being rate limited."}, {"Retry-After": "9"}, 9.0, Scope.CHAT),
        ({"message": "You are being rate limited."}, {}, 5.0, Scope.CHAT),
    ],
)  # fmt: skip
def test_discords_429_says_how_long_and_whom(
    body: dict[str, Any], headers: dict[str, str], retry_after: float, scope: Scope
) -> None:
    result = discord.result(httpx.Response(429, json=body, headers=headers))
    assert (result.kind, result.retry_after, result.scope) == (Kind.TRANSIENT, retry_after, scope)


def test_lines_rate_limit_is_the_channels_and_telegrams_the_chats() -> None:
    """LINE limits a channel's requests (its "Rate limits"); Telegram's 429 is about the chat
    that was sent too much (its flood control), so the bot's other chats are served."""
    assert line.result(429, "The API rate limit has been exceeded.").scope is Scope.CHANNEL
    busy = _telegram(429, "Too Many Requests: retry after 7", retry_after=7)
    assert telegram._result(httpx.Response(429, json=busy)).scope is Scope.CHAT


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("LINE", line.result(400, "The request body has 1 error(s)")),
        ("Telegram", telegram._result(httpx.Response(400, json=_telegram(400, "Bad Request: x")))),
        ("Discord", discord.result(httpx.Response(400, json={"message": "Invalid Form Body"}))),
    ],
)
def test_a_refusal_is_told_in_the_words_of_its_channel(name: str, result: Any) -> None:
    error = decide(result, 0, 1, channel=name).error or ""
    assert error.startswith(f"{name} rejected this listing: ")
    assert all(other not in error for other in {"LINE", "Telegram", "Discord"} - {name})
