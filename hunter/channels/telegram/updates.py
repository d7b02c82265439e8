"""Telegram's webhook requests -> `ChatEvent`s (deliver/channel.py).

Telegram POSTs one Update per request (core.telegram.org/bots/api#update), with the secret
given to setWebhook in `X-Telegram-Bot-Api-Secret-Token`; the HTTP side has checked that
header before the body is read. What hunter asks for (`ALLOWED_UPDATES`) becomes:

    message with text "/new@bot x"   message "new x": a command, as typed on LINE
    message with text "/start x-y"   follow: the welcome, with the chat's id; its text is the
                                     start parameter's words ("x y": t.me/<bot>?start=x-y)
    message (other text, or none)    message
    callback_query (a button)        tap: its data; answer_token is the query's id
    my_chat_member                   join when the bot was added to a group, leave when it
                                     was removed or blocked

Anything else is kept under its own name and never answered. Every event's id is
"telegram:<chat id>:<update_id>" ("telegram:<update_id>" without a chat): Telegram numbers
updates in order and resends one whose request failed, and hunter keeps ids for 7 days; ids
restart at random after a week without updates.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from datetime import UTC, datetime
from typing import Any, TypeGuard

from hunter.channels.telegram.ids import HOOK_PATH, NAME, PREFIX
from hunter.deliver.channel import ChatEvent, Headers, NotEvents, Webhook
from hunter.sources.extract import storable_json
from hunter.words.notices import shown_name

log = logging.getLogger("hunter")

ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
JOINED = ("member", "administrator", "creator", "restricted")  # ChatMember's status
MOVED = "moved"  # an event's kind: its chat is another now (`data`: the new id)


PATH = HOOK_PATH
SECRET_HEADER = b"x-telegram-bot-api-secret-token"


def webhook(secret: str) -> Webhook:
    """Telegram's webhook: answered only with `secret` in X-Telegram-Bot-Api-Secret-Token
    (no header: 401, a wrong one: 403, either before a byte of the body is read)."""
    expected = secret.encode("ascii")

    def admit(headers: Headers) -> tuple[int, str] | None:
        given = headers.get(SECRET_HEADER)
        if not given:
            return 401, "no X-Telegram-Bot-Api-Secret-Token header"
        if not hmac.compare_digest(given, expected):  # in constant time: no guessing by timing
            return 403, "a wrong X-Telegram-Bot-Api-Secret-Token"
        return None

    def events(body: bytes, _headers: Headers) -> list[ChatEvent]:
        event = parse(body)
        return [event] if event is not None else []

    return Webhook(NAME, PATH, admit, events)


def restore(payload: object) -> ChatEvent | None:
    """A kept Update read back (None: another channel's)."""
    return from_update(payload) if is_update(payload) else None


class BadUpdate(NotEvents):
    """A request Telegram would not send (not JSON, or not an Update): 400."""


def parse(body: bytes) -> ChatEvent | None:
    """The event of one webhook request; None when it is an Update hunter does not use."""
    try:
        update = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadUpdate("the body is not JSON") from None
    if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
        raise BadUpdate("not a Telegram Update (no update_id)")
    return from_update(storable_json(update))


def is_update(payload: object) -> TypeGuard[dict[str, Any]]:
    """Whether a kept event's JSON is Telegram's (LINE's events have no update_id)."""
    return isinstance(payload, dict) and isinstance(payload.get("update_id"), int)


def from_update(update: dict[str, Any]) -> ChatEvent | None:
    """One Update as Telegram sent it (or as the store kept it)."""
    update_id = update.get("update_id")
    if not isinstance(update_id, int):
        return None
    message, callback, member = (
        _object(update, "message"),
        _object(update, "callback_query"),
        _object(update, "my_chat_member"),
    )
    # Keyed by chat and update: Telegram's ids are one bot's sequence, but two bots' (a second
    # token) or a stand-in's may meet, and one chat's must never hide another's.
    holder = message or _object(callback or {}, "message") or member or {}
    where = _chat(holder)
    event_id = f"{where}:{update_id}" if where else f"{PREFIX}{update_id}"
    if message is not None and (moved := _moved(message)) is not None:
        return ChatEvent(event_id, MOVED, moved[0], None, data=moved[1], raw=update)
    if message is not None:
        text = message.get("text")
        kind, said = _said(text if isinstance(text, str) else "")
        chat = _chat(message)
        return ChatEvent(
            event_id,
            kind,
            chat,
            None,
            text=said,
            at=_at(message),
            raw=update,
            in_group=_group(chat),
            who=_who(message),
            sender=_sender(message),
        )
    if callback is not None:
        data, query_id = callback.get("data"), callback.get("id")
        card = _object(callback, "message") or {}
        chat = _chat(card)
        return ChatEvent(
            event_id,
            "tap",
            chat,
            str(query_id) if isinstance(query_id, str) and query_id else None,
            data=data if isinstance(data, str) else "",
            raw=update,
            in_group=_group(chat),
            # A tap has no time of its own; its card's is the oldest it can be. A tap kept
            # past the inbox's 7-day memory and sent again is then ignored, whatever its age
            # (a replayed tap paused the chat).
            since=_at(card),
            sender=_sender(callback),
        )
    if member is not None:
        status = (_object(member, "new_chat_member") or {}).get("status")
        kind = "join" if status in JOINED else "leave"
        chat = _chat(member)
        return ChatEvent(
            event_id, kind, chat, None, at=_at(member), raw=update, in_group=_group(chat)
        )
    other = next((key for key in update if key != "update_id"), "unknown")
    return ChatEvent(event_id, str(other), None, None, raw=update)


def _said(text: str) -> tuple[str, str]:
    """(kind, text) of a message: a command's slash and @bot are dropped ("/add@hunter_bot
    rust" is "add rust"), and /start is Telegram's first hello."""
    if not text.startswith("/"):
        return "message", text
    first, _, rest = text[1:].partition(" ")
    word = first.split("@", 1)[0]
    if word.casefold() == "start":
        return "follow", _start_words(rest.strip())
    return "message", f"{word} {rest}".strip()


def _start_words(parameter: str) -> str:
    """A start parameter's words: Telegram allows A-Z, a-z, 0-9, _ and - (at most 64), and a
    link's words are joined by "-" ("python-react"); anything else is not a link's."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", parameter):
        return ""
    return " ".join(word for word in parameter.split("-") if word)


def _who(message: dict[str, Any]) -> str:
    """Who sent it, as the owner would recognise them: a first name and @username, or a
    group's title; cut short and on one line (it is the sender's to write)."""
    sender = _object(message, "from") or {}
    chat = _object(message, "chat") or {}
    parts = [sender.get("first_name"), f"@{sender['username']}" if sender.get("username") else None]
    if chat.get("type") in ("group", "supergroup"):
        parts = [chat.get("title")]
    said = " ".join(p for p in parts if isinstance(p, str) and p)
    return shown_name(said)[:64]


def _moved(message: dict[str, Any]) -> tuple[str, str] | None:
    """(old id, new id) of a group that became a supergroup: Telegram's service message in the
    old group (`migrate_to_chat_id`) or in the new one (`migrate_from_chat_id`)."""
    chat = _chat(message)
    to, since = message.get("migrate_to_chat_id"), message.get("migrate_from_chat_id")
    if chat and isinstance(to, int):
        return chat, f"{PREFIX}{to}"
    if chat and isinstance(since, int):
        return f"{PREFIX}{since}", chat
    return None


def _sender(holder: dict[str, Any]) -> str:
    """The id of the user who sent a message or tapped a button ("" when it names none)."""
    user_id = (_object(holder, "from") or {}).get("id")
    return str(user_id) if isinstance(user_id, int) else ""


def _object(parent: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = parent.get(key)
    return value if isinstance(value, dict) else None


def _chat(holder: dict[str, Any]) -> str | None:
    chat = _object(holder, "chat") or {}
    chat_id = chat.get("id")
    return f"{PREFIX}{chat_id}" if isinstance(chat_id, int) else None


def _group(chat: str | None) -> bool:
    """Groups and supergroups have negative ids."""
    return (chat or "").startswith(f"{PREFIX}-")


def _at(holder: dict[str, Any]) -> datetime | None:
    date = holder.get("date")
    if isinstance(date, int) and 0 <= date < 10**11:
        return datetime.fromtimestamp(date, UTC)
    return None
