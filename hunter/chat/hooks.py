"""The chats' webhooks on hunter's HTTP side: what each one's head must show, and how its body
becomes events kept in the inbox.

    POST /line/webhook       LINE signs every body (x-line-signature, HMAC-SHA256 with the
                             channel secret): no header is a 400 before the body is read, a
                             wrong signature a 400 after it (channels/line/webhook.py).
    POST /telegram/webhook   Telegram sends the secret given to setWebhook in
                             X-Telegram-Bot-Api-Secret-Token: without it 401, a wrong one 403,
                             either before a byte of the body is read.

Whatever passes is kept by the inbox (inbox.py) before the 200, and answered once. Refusals
are logged at a rate: a stranger's junk must not write a log line per request.
"""

from __future__ import annotations

import hmac
import logging

from hunter.channels.line.webhook import BadRequest, parse
from hunter.channels.telegram import updates
from hunter.chat.inbox import Inbox
from hunter.web.limits import Throttled
from hunter.web.routes import Headers, Hook

log = logging.getLogger("hunter")

LINE_PATH = "/line/webhook"
TELEGRAM_PATH = "/telegram/webhook"
TELEGRAM_SECRET_HEADER = b"x-telegram-bot-api-secret-token"


def line_hook(secret: str, inbox: Inbox) -> Hook:
    """LINE's webhook: signed bodies' events into `inbox`."""
    refused = Throttled(log)

    def admit(headers: Headers) -> tuple[int, str] | None:
        if not headers.get(b"x-line-signature"):  # LINE signs every request
            return 400, "no x-line-signature header"
        return None

    def receive(body: bytes, headers: Headers) -> int:
        signature = headers.get(b"x-line-signature", b"").decode("ascii", "replace")
        try:
            events = parse(body, signature, secret)
        except BadRequest as exc:
            refused.warning(f"LINE webhook request refused (400): {exc}")
            return 400
        return inbox.keep(events)

    return Hook(LINE_PATH, admit, receive)


def telegram_hook(secret: str, inbox: Inbox) -> Hook:
    """Telegram's webhook: the update of each request that carries `secret`, into `inbox`."""
    expected = secret.encode("ascii")
    refused = Throttled(log)

    def admit(headers: Headers) -> tuple[int, str] | None:
        given = headers.get(TELEGRAM_SECRET_HEADER)
        if not given:
            return 401, "no X-Telegram-Bot-Api-Secret-Token header"
        if not hmac.compare_digest(given, expected):  # in constant time: no guessing by timing
            return 403, "a wrong X-Telegram-Bot-Api-Secret-Token"
        return None

    def receive(body: bytes, headers: Headers) -> int:
        try:
            event = updates.parse(body)
        except updates.BadUpdate as exc:
            refused.warning(f"Telegram webhook request refused (400): {exc}")
            return 400
        return inbox.keep([event]) if event is not None else 200

    return Hook(TELEGRAM_PATH, admit, receive)
