"""A stand-in for Telegram's Bot API on 127.0.0.1, answering as core.telegram.org/bots/api
documents it, so that hunter's Telegram channel is tested against the service's own rules:

- POST /bot<token>/<method>, a JSON body; every answer is {"ok": true, "result": ...} or
  {"ok": false, "error_code", "description"[, "parameters"]}. A wrong token is 401
  "Unauthorized", an unknown method 404 "Not Found".
- sendMessage: `chat_id` of a known chat (else 400 "Bad Request: chat not found"); a user who
  blocked the bot, or a group that kicked it, 403 "Forbidden: bot was blocked by the user" /
  "Forbidden: bot was kicked from the group chat"; a person who never pressed Start in the
  bot's chat (`strangers`: a bot may not write first) 403 "Forbidden: bot can't initiate
  conversation with a user", and getChat of one "chat not found"; a group upgraded to a
  supergroup, 400 with
  `parameters.migrate_to_chat_id`. `text` 1-4,096 characters after entities are parsed (400
  "Bad Request: message is too long" / "message text is empty"); with parse_mode HTML only
  Telegram's tags, balanced (400 "Bad Request: can't parse entities: ..."); inline buttons
  each with a text and one of url (http, https or tg) or callback_data of 1-64 bytes (400
  "Bad Request: BUTTON_DATA_INVALID" / "BUTTON_URL_INVALID").
- Telegram's pace (its FAQ, "My bot is hitting limits"): more than 20 messages a minute in a
  group, or 30 a second in all, answer 429 "Too Many Requests: retry after N" with
  `parameters.retry_after`; a private chat may burst a little (3 a second here).
- editMessageText (chat_id and message_id): the text checked as sendMessage's; a message not
  sent to that chat, or deleted by the person (`deleted`), 400 "Bad Request: message to edit
  not found"; the same text and buttons
  as now 400 "Bad Request: message is not modified: ..."; at the same pace as messages; the
  edited Message (with `edit_date`) answered. `edited` keeps each edit.
- getChat answers the chat, or the same errors; getMe the bot.
- setWebhook: an HTTPS `url` on port 443, 80, 88 or 8443 (400 "Bad Request: bad webhook: An
  HTTPS URL must be provided for webhook" / "... Webhook can be set up only on ports 80, 88,
  443 or 8443"), `secret_token` 1-256 of A-Z, a-z, 0-9, _ and - (400 "Bad Request: secret
  token contains unallowed characters"), `max_connections` 1-100; getWebhookInfo reads it back.
- answerCallbackQuery: the id of a callback query this stand-in sent, answered once, `text`
  at most 200 characters (400 "Bad Request: query is too old and response timeout expired or
  query ID is invalid").
- The webhook's side: `update` POSTs one Update to hunter as Telegram does (update_id in
  order, the secret in X-Telegram-Bot-Api-Secret-Token), to `hunter_url`, the local address
  standing for the HTTPS one set (the tests have no TLS); `resend` sends one again, as
  Telegram does when an answer is not a 2xx.

Every request is read against its method in Telegram's API as data (telegram_spec): a method
the Bot API lacks is 404, a required parameter left out 400 "Bad Request: <name> is empty" (as
Telegram words it for chat_id), and a parameter the method does not take, or of another type,
is kept in `violations` (Telegram ignores an unknown one; the test fails). Every answer and
update this stand-in sends is built with the fields its type requires and checked against it.

`script` makes the next sendMessage calls misbehave: "500" (Internal Server Error), "400:WHY"
("Bad Request: WHY"), "429:N" (retry after N s), "lost" (delivered, then the connection closes
unanswered), "hold" (delivered, then no answer until the stand-in closes: a kill -9
mid-send). `delivered` keeps what reached each chat.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import httpx

from tests.support import telegram_spec
from tests.support.local_server import LocalServer, QuietHandler

TOKEN = "123456789:AAHtest-token-for-the-stand-in_0123456"
TEXT_MAX = 4096
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
BOT = {"id": 123456789, "is_bot": True, "first_name": "hunter test"}  # the bot, as a User
# A ChatMember's status -> its type in the Bot API
MEMBER = {"creator": "ChatMemberOwner", "administrator": "ChatMemberAdministrator",
          "member": "ChatMemberMember", "restricted": "ChatMemberRestricted",
          "left": "ChatMemberLeft", "kicked": "ChatMemberBanned"}  # fmt: skip
TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
        "tg-spoiler", "span", "blockquote", "tg-emoji"}  # fmt: skip


@dataclass
class Sent:
    chat_id: int
    text: str  # as the reader sees it: entities parsed
    fields: dict[str, Any]
    at: datetime  # by the stand-in's clock


class _Entities(HTMLParser):
    """Telegram's HTML: its tags only, balanced; what remains is the text a reader sees."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.text: list[str] = []
        self.problem = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.problem = self.problem or f'unsupported start tag "{tag}"'
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.problem = self.problem or f'unexpected end tag "{tag}"'

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@dataclass
class TelegramStandIn:
    users: set[int] = field(default_factory=lambda: {111})
    groups: set[int] = field(default_factory=lambda: {-100222})
    blocked: set[int] = field(default_factory=set)  # users who blocked the bot, kicked groups
    # A group's administrators (group id -> user ids), its first its creator: getChatMember
    # answers "creator", "administrator" or "member" for them and anyone else (issue 55).
    admins: dict[int, list[int]] = field(default_factory=dict)
    # What setMyCommands set, by language_code ("" everyone's): (command, description) each;
    # and setMyDescription's and setMyShortDescription's, by (field, language_code).
    menus: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    profile: dict[tuple[str, str], str] = field(default_factory=dict)
    # People on Telegram who never pressed Start in the bot's chat: a bot may not write first.
    strangers: set[int] = field(default_factory=set)
    migrated: dict[int, int] = field(default_factory=dict)  # old group id -> supergroup id
    script: deque[str] = field(default_factory=deque)
    # Chats whose every message is answered 429 "retry after N" (chat id -> N): Telegram's
    # flood control holds a chat that was sent too much, and the bot's other chats are served.
    refusing: dict[int, int] = field(default_factory=dict)
    delivered: list[Sent] = field(default_factory=list)  # a message's id is its place here + 1
    edited: list[Sent] = field(default_factory=list)  # each editMessageText made, as it shows
    # Message ids the person deleted from the chat: an edit of one is answered as Telegram
    # answers it, 400 "Bad Request: message to edit not found" (issue 55).
    deleted: set[int] = field(default_factory=set)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    webhook: dict[str, Any] = field(default_factory=dict)  # what setWebhook set
    hunter_url: str = ""  # where `update` posts: hunter's /telegram/webhook on 127.0.0.1
    queries: dict[str, bool] = field(default_factory=dict)  # callback query id -> answered
    sent_updates: list[dict[str, Any]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)  # requests and answers off the spec
    too_fast: int = 0  # 429s answered because the client broke Telegram's pace
    # Telegram's time: its pace and each Sent's `at` (a benchmark's fake month replaces it).
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def __post_init__(self) -> None:
        self.check_spec = telegram_spec.spec_available()
        if self.check_spec:  # parsed before the first request, which hunter times
            telegram_spec.api()
        stand_in = self
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._times: dict[int, list[float]] = {}

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(size) or b"{}")
                except ValueError:
                    body = None
                try:
                    stand_in._answer(self, self.path, body)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client went away (a kill -9): fine

        self._server = LocalServer(Handler)
        self.url = self._server.url

    def env(self) -> dict[str, str]:
        return {"TELEGRAM_BOT_TOKEN": TOKEN, "HUNTER_TELEGRAM_API_URL": self.url}

    def close(self) -> None:
        self._closed.set()  # a held answer ends, unsent, with the test
        self._server.close()

    def texts(self, chat_id: int) -> list[str]:
        return [sent.text for sent in self.delivered if sent.chat_id == chat_id]

    def _answer(self, handler: QuietHandler, path: str, body: Any) -> None:
        token, _, called = path.removeprefix("/bot").partition("/")
        if token != TOKEN:
            return _error(handler, 401, "Unauthorized")
        if not isinstance(body, dict):
            return _error(handler, 400, "Bad Request: invalid JSON")
        method = self._method(called)
        if method is None:
            return _error(handler, 404, "Not Found")
        self.calls.append((method, body))
        if self.check_spec:
            with self._lock:
                self.violations.extend(telegram_spec.request_problems(method, body))
            left_out = telegram_spec.missing(method, body)
            if left_out == ["text"] and method == "sendMessage":
                return _error(handler, 400, "Bad Request: message text is empty")
            if left_out:
                return _error(handler, 400, f"Bad Request: {left_out[0]} is empty")
        if method == "getMe":
            bot = {**BOT, "username": "hunter_test_bot", "can_join_groups": True}
            return self._result(handler, method, "User", bot)
        if method == "setWebhook":
            return self._set_webhook(handler, body)
        if method == "getWebhookInfo":
            info = {"url": self.webhook.get("url", ""), "has_custom_certificate": False,
                    "pending_update_count": 0}  # fmt: skip
            info |= {k: v for k, v in self.webhook.items() if k in ("max_connections",
                     "allowed_updates")}  # fmt: skip
            return self._result(handler, method, "WebhookInfo", info)
        if method == "answerCallbackQuery":
            return self._answer_query(handler, body)
        if method in ("setMyCommands", "setMyDescription", "setMyShortDescription"):
            return self._set_profile(handler, method, body)
        if method not in ("sendMessage", "getChat", "editMessageText", "getChatMember"):
            with self._lock:
                self.violations.append(f"{method}: a Bot API method this stand-in does not model")
            return _error(handler, 404, "Not Found")
        chat = body.get("chat_id")
        refused = self._refuse_chat(chat, method)
        if refused:
            return _error(handler, *refused)
        if method == "getChat":
            return self._result(handler, method, "ChatFullInfo", self._chat(chat))
        if method == "getChatMember":
            return self._chat_member(handler, chat, body.get("user_id"))
        if method == "editMessageText":
            return self._edit_message(handler, chat, body)
        return self._send_message(handler, chat, body)

    def _chat_member(self, handler: QuietHandler, chat: int, user: Any) -> None:
        """getChatMember: a group's creator, its administrators, anyone else a member (the
        Bot API's ChatMemberOwner, ChatMemberAdministrator, ChatMemberMember)."""
        if not isinstance(user, int):
            return _error(handler, 400, "Bad Request: invalid user_id specified")
        admins = self.admins.get(chat, [])
        status = "member"
        if admins and admins[0] == user:
            status = "creator"
        elif user in admins:
            status = "administrator"
        person = {"id": user, "is_bot": False, "first_name": "Member"}
        kind = MEMBER.get(status, "ChatMemberMember")
        return self._result(handler, "getChatMember", kind, {"status": status, "user": person})

    def _chat(self, chat: int) -> dict[str, Any]:
        """A known chat as a Chat: a user's is private, a group here is a supergroup."""
        return {"id": chat, "type": "private" if chat in self.users else "supergroup"}

    def _filled(self, kind: str, given: Any) -> Any:
        """`given` with the fields a `kind` must have (as it is when the spec is absent)."""
        if self.check_spec and isinstance(given, dict):
            return telegram_spec.fill(kind, given)
        return given

    def _method(self, called: str) -> str | None:
        """The method's name as the Bot API spells it (Telegram reads any case); None when
        there is no such method."""
        if not self.check_spec:
            return called
        found = telegram_spec.method(called)
        return found["name"] if found else None

    def _result(self, handler: QuietHandler, method: str, kind: str, result: Any) -> None:
        """Answer `result`, a `kind`: with the fields it must have, and checked."""
        if self.check_spec:
            result = self._filled(kind, result)
            with self._lock:
                self.violations.extend(
                    f"the stand-in's answer: {p}"
                    for p in telegram_spec.object_problems(kind, result, f"{method} result")
                )
        return handler.send_json(200, {"ok": True, "result": result})

    def _refuse_chat(self, chat: Any, method: str) -> tuple[int, str, dict[str, Any]] | None:
        if chat in self.migrated:
            why = "Bad Request: group chat was upgraded to a supergroup chat"
            return 400, why, {"migrate_to_chat_id": self.migrated[chat]}
        if chat in self.strangers and method == "sendMessage":
            return 403, "Forbidden: bot can't initiate conversation with a user", {}
        if chat not in self.users and chat not in self.groups:
            return 400, "Bad Request: chat not found", {}  # getChat of a stranger too
        if chat in self.blocked:
            if chat in self.users:
                return 403, "Forbidden: bot was blocked by the user", {}
            return 403, "Forbidden: bot was kicked from the group chat", {}
        return None

    def _text_refused(self, body: dict[str, Any]) -> tuple[str, str]:
        """(the text as a reader sees it, "") or ("", Telegram's refusal of the text)."""
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            return "", "message text is empty"
        shown = text
        if body.get("parse_mode") == "HTML":
            parser = _Entities()
            parser.feed(text)
            parser.close()
            if parser.problem or parser.open:
                problem = parser.problem or f'unclosed start tag "{parser.open[-1]}"'
                return "", f"can't parse entities: {problem}"
            shown = "".join(parser.text)
        # Telegram counts a text's length in UTF-16 units, as its entities' offsets (Bot API,
        # "MessageEntity": "offset in UTF-16 code units"): an emoji is two (issue 55).
        if len(shown.encode("utf-16-le")) // 2 > TEXT_MAX:
            return "", "message is too long"
        return shown, _bad_button(body.get("reply_markup"))

    def _wait(self, chat: int) -> int:
        """Seconds a message to `chat` must wait now (a 429), 0 when it may go."""
        wait = self.refusing.get(chat) or self._too_fast(chat)
        if wait and chat not in self.refusing:
            self.too_fast += 1  # the client broke Telegram's pace
        return wait

    def _edit_message(self, handler: QuietHandler, chat: int, body: dict[str, Any]) -> None:
        shown, refused = self._text_refused(body)
        if refused:
            return _error(handler, 400, f"Bad Request: {refused}")
        number = body.get("message_id")
        with self._lock:
            known = isinstance(number, int) and 0 < number <= len(self.delivered)
            known = known and number not in self.deleted
            sent = self.delivered[number - 1] if known else None
        if sent is None or sent.chat_id != chat:
            return _error(handler, 400, "Bad Request: message to edit not found")
        if sent.text == shown and sent.fields.get("reply_markup") == body.get("reply_markup"):
            return _error(handler, 400, NOT_MODIFIED)
        wait = self._wait(chat)
        if wait:
            return _error(
                handler, 429, f"Too Many Requests: retry after {wait}", {"retry_after": wait}
            )
        now = self.clock()
        edited = Sent(chat, shown, {**sent.fields, **body}, sent.at)
        with self._lock:
            self.delivered[number - 1] = edited
            self.edited.append(edited)
        result = {"message_id": number, "chat": self._chat(chat), "date": int(sent.at.timestamp()),
                  "edit_date": int(now.timestamp()), "text": shown}  # fmt: skip
        return self._result(handler, "editMessageText", "Message", result)

    def _send_message(self, handler: QuietHandler, chat: int, body: dict[str, Any]) -> None:
        shown, refused = self._text_refused(body)
        if refused:
            return _error(handler, 400, f"Bad Request: {refused}")
        wait = self._wait(chat)
        if wait:
            return _error(
                handler, 429, f"Too Many Requests: retry after {wait}", {"retry_after": wait}
            )
        step = self.script.popleft() if self.script else "ok"
        if step == "500":
            return _error(handler, 500, "Internal Server Error")
        if step.startswith("400:"):  # a refusal the checks here do not make
            return _error(handler, 400, f"Bad Request: {step[4:]}")
        if step.startswith("429:"):
            after = int(step[4:])
            return _error(
                handler, 429, f"Too Many Requests: retry after {after}", {"retry_after": after}
            )
        with self._lock:
            # The parser above turned the entities into text once: "&amp;" is shown as "&",
            # and "&amp;lt;" as "&lt;", as Telegram shows them (issue 37: it was done twice).
            self.delivered.append(Sent(chat, shown, body, self.clock()))
            message_id = len(self.delivered)
        if step == "lost":  # delivered, and the answer never comes: the connection drops
            handler.close_connection = True
            handler.connection.shutdown(2)
            return None
        if step == "hold":  # no answer while the test runs: the client is killed meanwhile
            self._closed.wait(60)
            handler.close_connection = True
            return None
        result = {"message_id": message_id, "chat": self._chat(chat), "date": int(time.time()),
                  "text": shown}  # fmt: skip
        return self._result(handler, "sendMessage", "Message", result)

    def _set_webhook(self, handler: QuietHandler, body: dict[str, Any]) -> None:
        url = urlsplit(str(body.get("url", "")))
        if url.scheme != "https" or not url.hostname:
            return _error(handler, 400, "Bad Request: bad webhook: An HTTPS URL must be provided "
                          "for webhook")  # fmt: skip
        if (url.port or 443) not in (443, 80, 88, 8443):
            return _error(handler, 400, "Bad Request: bad webhook: Webhook can be set up only on "
                          "ports 80, 88, 443 or 8443")  # fmt: skip
        secret = body.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            return _error(handler, 400, "Bad Request: secret token contains unallowed characters")
        connections = body.get("max_connections", 40)
        if not isinstance(connections, int) or not 1 <= connections <= 100:
            return _error(handler, 400, "Bad Request: invalid max_connections")
        self.webhook = dict(body)
        return handler.send_json(200, {"ok": True, "result": True,
                                       "description": "Webhook was set"})  # fmt: skip

    def _answer_query(self, handler: QuietHandler, body: dict[str, Any]) -> None:
        query = body.get("callback_query_id")
        text = body.get("text", "")
        if not isinstance(text, str) or len(text) > 200:
            return _error(handler, 400, "Bad Request: MESSAGE_TOO_LONG")
        with self._lock:
            if self.queries.get(str(query), True):  # unknown, or answered already
                return _error(handler, 400, "Bad Request: query is too old and response "
                              "timeout expired or query ID is invalid")  # fmt: skip
            self.queries[str(query)] = True
        return self._result(handler, "answerCallbackQuery", "Boolean", True)

    def _set_profile(self, handler: QuietHandler, method: str, body: dict[str, Any]) -> None:
        """setMyCommands, setMyDescription, setMyShortDescription, each per language_code
        ("" for every user without one of their own), as the Bot API limits them: at most
        100 commands, each 1-32 of a-z, 0-9 and _ with a description of 1-256 characters;
        a description 0-512 characters, a short one 0-120 (400 "Bad Request: ..." else)."""
        language = body.get("language_code", "")
        if method == "setMyCommands":
            commands = body.get("commands")
            if not isinstance(commands, list) or len(commands) > 100:
                return _error(handler, 400, "Bad Request: too many commands specified")
            for command in commands:
                name = command.get("command") if isinstance(command, dict) else None
                about = command.get("description") if isinstance(command, dict) else None
                if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                    return _error(handler, 400, "Bad Request: BOT_COMMAND_INVALID")
                if not isinstance(about, str) or not 1 <= len(about) <= 256:
                    return _error(handler, 400, "Bad Request: command description is invalid")
            self.menus[language] = [(c["command"], c["description"]) for c in commands]
        else:
            key, most = (
                ("description", 512) if method == "setMyDescription" else ("short_description", 120)
            )
            text = body.get(key, "")
            if not isinstance(text, str) or len(text.encode("utf-16-le")) // 2 > most:
                return _error(handler, 400, f"Bad Request: {key} is too long")
            self.profile[(key, language)] = text
        return self._result(handler, method, "Boolean", True)

    # -- Telegram calling hunter ------------------------------------------------------------
    def message(self, chat: int, text: str, sender: int | None = None) -> dict[str, Any]:
        """An Update: `text` said in `chat` (by `sender`, the chat's user by default)."""
        kind = "private" if chat > 0 else "supergroup"
        return self._new_update("message", {
            "message_id": len(self.sent_updates) + 1,
            "from": {"id": sender or abs(chat), "is_bot": False, "first_name": "Somchai"},
            "chat": {"id": chat, "type": kind},
            "date": int(time.time()),
            "text": text,
        })  # fmt: skip

    def tap(self, chat: int, data: str, sender: int | None = None) -> dict[str, Any]:
        """An Update: a button with `data` tapped under a message of the bot in `chat` (by
        `sender`, the chat's user by default)."""
        query = f"q{len(self.queries) + 1}"
        self.queries[query] = False
        kind = "private" if chat > 0 else "supergroup"
        return self._new_update("callback_query", {
            "id": query,
            "from": {"id": sender or abs(chat), "is_bot": False, "first_name": "Somchai"},
            "message": {"message_id": 1, "chat": {"id": chat, "type": kind},
                        "date": int(time.time()) - 60, "text": "a job"},
            "chat_instance": "-1234",
            "data": data,
        })  # fmt: skip

    def tap_inline(self, user: int, data: str) -> dict[str, Any]:
        """An Update: a button tapped under an inline message (sent via the bot in another
        chat): the query has an inline_message_id and no `message`."""
        query = f"q{len(self.queries) + 1}"
        self.queries[query] = False
        return self._new_update("callback_query", {
            "id": query,
            "from": {"id": user, "is_bot": False, "first_name": "Somchai"},
            "inline_message_id": "AAAAAgAAAA",
            "chat_instance": "-1234",
            "data": data,
        })  # fmt: skip

    def added(self, chat: int, status: str = "member") -> dict[str, Any]:
        """An Update: the bot's membership in `chat` changed (added: member; removed: left)."""
        return self._new_update("my_chat_member", {
            "chat": {"id": chat, "type": "supergroup"},
            "from": {"id": 111, "is_bot": False, "first_name": "Somchai"},
            "date": int(time.time()),
            "old_chat_member": {"status": "left", "user": BOT},
            "new_chat_member": self._filled(MEMBER.get(status, "ChatMemberMember"),
                                            {"status": status, "user": BOT}),
        })  # fmt: skip

    def _new_update(self, key: str, value: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            update = {"update_id": 700_000 + len(self.sent_updates), key: value}
            self.sent_updates.append(update)
        if self.check_spec:  # what Telegram would send, or the test proves nothing
            problems = telegram_spec.object_problems("Update", update)
            assert not problems, f"the stand-in's update is not Telegram's: {problems}"
        return update

    def update(self, update: dict[str, Any], secret: str | None = "set") -> int:
        """POST `update` to hunter as Telegram does; hunter's status. `secret`: "set" sends
        the one setWebhook was given, None none, any other text that text."""
        token = self.webhook.get("secret_token") if secret == "set" else secret
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["X-Telegram-Bot-Api-Secret-Token"] = str(token)
        answer = httpx.post(self.hunter_url, content=json.dumps(update), headers=headers)
        return answer.status_code

    def _too_fast(self, chat: int) -> int:
        """Seconds to wait when this message would break Telegram's pace; 0 when it does not."""
        now = self.clock().timestamp()
        with self._lock:
            mine = [t for t in self._times.get(chat, []) if now - t < 60]
            every = [t for times in self._times.values() for t in times if now - t < 1]
            if len(every) >= 30:
                return 1
            if chat < 0 and len(mine) >= 20:
                return int(60 - (now - mine[-20])) + 1
            if chat > 0 and len([t for t in mine if now - t < 1]) >= 3:
                return 1
            self._times[chat] = [*mine, now]
        return 0


def _bad_button(markup: Any) -> str:
    if markup is None:
        return ""
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list):
        return 'field "inline_keyboard" must be an Array'
    for row in rows:
        for button in row if isinstance(row, list) else [None]:
            if not isinstance(button, dict) or not button.get("text"):
                return "can't parse inline keyboard button: Text buttons are unallowed"
            data, url = button.get("callback_data"), button.get("url")
            if (data is None) == (url is None):
                return "can't parse inline keyboard button: exactly one action is needed"
            if data is not None and not 1 <= len(str(data).encode()) <= 64:
                return "BUTTON_DATA_INVALID"
            if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
                return "BUTTON_URL_INVALID"
    return ""


def _error(
    handler: QuietHandler, code: int, description: str, parameters: dict[str, Any] | None = None
) -> None:
    answer: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        answer["parameters"] = parameters
    handler.send_json(code, answer)
