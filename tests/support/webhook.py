"""LINE's webhook calls, as a test makes them: events shaped as ../shared/contracts/
line-webhook.yml describes them (and checked against it when it is there), signed with the
channel secret the way LINE signs them (HMAC-SHA256 of the body, base64, x-line-signature)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from typing import Any

import httpx

from hunter.channels.line.webhook import webhook as line_webhook
from hunter.chat import Inbox
from hunter.chat.hooks import hook as serve
from tests.support.line_spec import WEBHOOK_SPEC, spec_available, spec_errors
from tests.support.line_standin import TO

SECRET = "test-channel-secret-DO-NOT-LEAK-5b1e"
BOT = "U" + "0123456789abcdef" * 2  # the bot's own user id: the request's `destination`
STRANGER = "U" + "deadbeef" * 4


def event(kind: str, chat: str = TO, reply_token: str | None = None, **fields: Any) -> dict:
    """One webhook event of `kind` (message, postback, follow, join) in the chat `chat`."""
    source: dict[str, Any] = {"type": "user", "userId": chat}
    if chat.startswith("C"):
        source = {"type": "group", "groupId": chat, "userId": STRANGER}
    elif chat.startswith("R"):
        source = {"type": "room", "roomId": chat, "userId": STRANGER}
    body: dict[str, Any] = {
        "type": kind,
        "mode": "active",
        "timestamp": int(time.time() * 1000),
        "source": source,
        "webhookEventId": fields.pop("event_id", None) or uuid.uuid4().hex.upper()[:26],
        "deliveryContext": {"isRedelivery": fields.pop("redelivery", False)},
    }
    if reply_token:
        body["replyToken"] = reply_token
    if kind == "message":
        text = fields.pop("text")
        body["message"] = {
            "type": "text",
            "id": str(int(time.time() * 1e6)),
            "text": text,
            "quoteToken": "q-" + uuid.uuid4().hex,
        }
    elif kind == "postback":
        body["postback"] = {"data": fields.pop("data")}
    elif kind == "follow":
        body["follow"] = {"isUnblocked": False}
    body.update(fields)
    return body


def payload(*events: dict) -> bytes:
    document = {"destination": BOT, "events": list(events)}
    if spec_available(WEBHOOK_SPEC):
        problems = spec_errors("CallbackRequest", document, WEBHOOK_SPEC)
        assert not problems, f"the test's own webhook body breaks LINE's schema: {problems}"
    return json.dumps(document, ensure_ascii=False).encode()


def signature(body: bytes, secret: str = SECRET) -> str:
    return base64.b64encode(hmac.new(secret.encode(), body, hashlib.sha256).digest()).decode()


def post(url: str, body: bytes, sign: str | None = None, secret: str = SECRET) -> httpx.Response:
    """POST `body` to hunter's webhook as LINE would; `sign` overrides the signature."""
    headers = {"Content-Type": "application/json"}
    value = signature(body, secret) if sign is None else sign
    if value:
        headers["x-line-signature"] = value
    return httpx.post(f"{url}/line/webhook", content=body, headers=headers, timeout=10)


def receive(inbox: Inbox, body: bytes, sign: str | None) -> int:
    """The status hunter's LINE webhook answers a request of `body` signed `sign`, without
    the HTTP side (tests/integration/web/ has that): the head's check, then the body's."""
    hook = serve(line_webhook(SECRET), inbox)
    headers = {b"x-line-signature": sign.encode()} if sign else {}
    refused = hook.admit(headers)
    return refused[0] if refused else hook.receive(body, headers)
