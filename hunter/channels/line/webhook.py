"""LINE's webhook requests -> `ChatEvent`s, once line-bot-sdk has checked their signature.

LINE signs every request body with the channel secret (HMAC-SHA256, base64, in
`x-line-signature`). Anything unsigned, wrongly signed or not LINE's JSON is refused with
`BadRequest` before a single byte of it is believed; the server answers 400 and changes
nothing. In a signed body each event is read on its own: one that the SDK cannot read (a
kind newer than the SDK, a field missing) is skipped, and the events beside it still count.
The events are flattened into the port's `ChatEvent`s (deliver/channel.py), so that nothing
past this module touches the SDK's models.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from functools import cache
from typing import Any

from hunter.channels.line.ids import HOOK_PATH, NAME
from hunter.deliver.channel import ChatEvent, Headers, NotEvents, Webhook
from hunter.sources.extract import storable_json

log = logging.getLogger("hunter")


PATH = HOOK_PATH


class BadRequest(NotEvents):
    """A webhook request hunter refuses (400): bad signature, or not LINE's JSON."""


def webhook(secret: str) -> Webhook:
    """LINE's webhook: no x-line-signature is a 400 before the body is read (LINE signs every
    request), a wrong signature a 400 after it."""

    def admit(headers: Headers) -> tuple[int, str] | None:
        if not headers.get(b"x-line-signature"):
            return 400, "no x-line-signature header"
        return None

    def events(body: bytes, headers: Headers) -> list[ChatEvent]:
        signature = headers.get(b"x-line-signature", b"").decode("ascii", "replace")
        return parse(body, signature, secret)

    return Webhook(NAME, PATH, admit, events)


def restore(payload: object) -> ChatEvent | None:
    """A kept event of LINE's read back (None: another channel's)."""
    if not isinstance(payload, dict) or "webhookEventId" not in payload:
        return None
    return from_payload(payload)


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
    if not webhook.SignatureValidator(secret).validate(text, signature):
        raise BadRequest("the signature does not match the channel secret")
    try:
        document = json.loads(text)
        events = document["events"]
        if not isinstance(events, list):
            raise TypeError("events is not a list")
    except (ValueError, KeyError, TypeError) as exc:  # signed, yet not the JSON LINE sends
        raise BadRequest(f"signed but unreadable ({type(exc).__name__})") from None
    read = [from_payload(storable_json(event)) for event in events]
    return [event for event in read if event is not None]


ANSWERED = frozenset(["message", "postback", "follow", "join"])  # the kinds hunter answers


def from_payload(payload: object) -> ChatEvent | None:
    """One event as LINE sent it (or as the store kept it); None when it cannot be read."""
    _webhook, models = _sdk()
    if not isinstance(payload, dict):
        return None
    try:
        event = models.Event.from_dict(payload)
    except Exception as exc:  # a kind newer than the SDK, or a field it insists on is missing
        kind, event_id = payload.get("type"), payload.get("webhookEventId")
        # A kind hunter answers that the SDK cannot read is LINE's format changed: said, at
        # warning (a new user's find: such events went unanswered without a word); a kind
        # newer than the SDK, which hunter would not answer anyway, at info
        said = log.warning if kind in ANSWERED else log.info
        said(
            "a LINE webhook event of type %r is not answered: the SDK cannot read it (%s)",
            str(kind)[:40], type(exc).__name__,
        )  # fmt: skip
        if isinstance(kind, str) and isinstance(event_id, str) and event_id:
            return ChatEvent(event_id, kind, None, None, raw=payload)  # kept, never answered
        return None
    return flatten(event, payload)


def flatten(event: Any, payload: dict[str, Any] | None = None) -> ChatEvent:
    """A ChatEvent from one of the SDK's event models (or its UnknownEvent)."""
    _webhook, models = _sdk()
    source = getattr(event, "source", None)
    chat_id = None
    group = isinstance(source, models.GroupSource | models.RoomSource)
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
        kind, data = "tap", event.postback.data
    elif isinstance(event, models.FollowEvent):
        kind = "follow"
    elif isinstance(event, models.JoinEvent):
        kind = "join"
    else:
        kind = str(getattr(event, "type", None) or "unknown")
    context = getattr(event, "delivery_context", None)
    timestamp = getattr(event, "timestamp", None)
    at = None
    if isinstance(timestamp, int) and 0 <= timestamp < 10**14:
        at = datetime.fromtimestamp(timestamp / 1000, UTC)
    return ChatEvent(
        event_id=str(getattr(event, "webhook_event_id", "") or ""),
        kind=kind,
        chat_id=chat_id,
        answer_token=getattr(event, "reply_token", None),
        text=text,
        data=data,
        redelivery=bool(getattr(context, "is_redelivery", False)),
        at=at,
        raw=payload or {},
        in_group=group,
    )
