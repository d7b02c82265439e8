"""LINE's webhook events as hunter reads them (hunter/channels/line/webhook.py), through the
real line-bot-sdk's models."""

from __future__ import annotations

import logging

import pytest

from hunter.channels.line.webhook import from_payload

SOURCE = {"type": "user", "userId": "U" + "0" * 32}


def event(kind: str, **fields: object) -> dict[str, object]:
    return {
        "type": kind,
        "webhookEventId": "01HX",
        "timestamp": 1_700_000_000_000,
        "mode": "active",
        "source": SOURCE,
        "replyToken": "r",
        "deliveryContext": {"isRedelivery": False},
        **fields,
    }


def test_an_event_of_a_kind_hunter_answers_that_the_sdk_cannot_read_is_said(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A new user's find: a text message without its quoteToken (which LINE's spec gives every
    text message, and the SDK insists on) went unanswered without a word, at any log level.
    It is kept (handled once) and the log says it was not answered, and why."""
    caplog.set_level(logging.INFO)
    message = {"type": "text", "id": "1", "text": "สถานะ"}
    kept = from_payload(event("message", message=message))
    assert kept is not None and kept.chat_id is None  # kept, never answered
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert any(
        level == logging.WARNING and "type 'message' is not answered" in message
        for level, message in said
    ), said
    read = from_payload(event("message", message={**message, "quoteToken": "q"}))
    assert read is not None and read.text == "สถานะ"
