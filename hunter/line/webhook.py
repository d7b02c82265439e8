"""LINE's webhook requests -> `ChatEvent`s, after line-bot-sdk has checked their signature.

LINE signs every request body with the channel secret (HMAC-SHA256, base64, in
`x-line-signature`). Anything unsigned, wrongly signed or unreadable is refused with
`BadRequest` before a single byte of it is believed; the server answers 400 and changes
nothing. The events are flattened into what hunter/chat.py needs, so that nothing past this
module touches the SDK's models.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

MAX_BODY = 1024 * 1024  # LINE's webhook bodies are a few KB; the server reads no more


class BadRequest(Exception):
    """A webhook request hunter refuses (400): bad signature, or not LINE's JSON."""


@dataclass(frozen=True)
class ChatEvent:
    """One webhook event, as hunter uses it."""

    event_id: str  # webhookEventId: the same on every redelivery
    kind: str  # message, postback, follow, join, or LINE's name for another kind
    chat_id: str | None  # where it happened: the user (U...), group (C...) or room (R...)
    reply_token: str | None
    text: str = ""  # a text message's text
    data: str = ""  # a postback's data
    redelivery: bool = False


@cache
def _sdk() -> Any:  # the SDK ships no type information
    import linebot.v3.webhook as webhook
    import linebot.v3.webhooks as models

    return webhook, models


def warm_up() -> None:
    """Import the SDK's webhook models now, before LINE's first call has to wait for it."""
    _sdk()


def parse(body: bytes, signature: str | None, secret: str) -> list[ChatEvent]:
    """The events of one webhook request; BadRequest when it is not LINE's, signed."""
    if not signature:
        raise BadRequest("no x-line-signature header")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8") from None
    webhook, _models = _sdk()
    parser = webhook.WebhookParser(secret)
    try:
        events = parser.parse(text, signature)
    except webhook.InvalidSignatureError:
        raise BadRequest("the signature does not match the channel secret") from None
    except Exception as exc:  # signed, yet not the JSON LINE sends
        raise BadRequest(f"signed but unreadable ({type(exc).__name__})") from None
    return [flatten(event) for event in events]


def flatten(event: Any) -> ChatEvent:
    """A ChatEvent from one of the SDK's event models (or its UnknownEvent)."""
    _webhook, models = _sdk()
    source = getattr(event, "source", None)
    chat_id = None
    if isinstance(source, models.GroupSource):
        chat_id = source.group_id
    elif isinstance(source, models.RoomSource):
        chat_id = source.room_id
    elif isinstance(source, models.UserSource):
        chat_id = source.user_id
    text = data = ""
    if isinstance(event, models.MessageEvent):
        kind = "message"
        if isinstance(event.message, models.TextMessageContent):
            text = event.message.text
    elif isinstance(event, models.PostbackEvent):
        kind, data = "postback", event.postback.data
    elif isinstance(event, models.FollowEvent):
        kind = "follow"
    elif isinstance(event, models.JoinEvent):
        kind = "join"
    else:
        kind = str(getattr(event, "type", None) or "unknown")
    context = getattr(event, "delivery_context", None)
    return ChatEvent(
        event_id=str(getattr(event, "webhook_event_id", "") or ""),
        kind=kind,
        chat_id=chat_id,
        reply_token=getattr(event, "reply_token", None),
        text=text,
        data=data,
        redelivery=bool(getattr(context, "is_redelivery", False)),
    )
