"""Telegram's Bot API (core.telegram.org/bots/api) as a channel: sendMessage for a push and
for an answer in the chat (with answerCallbackQuery when a button was tapped),
editMessageText when a later copy of a job is merged into its alert, getChat to
know a chat is still there, getMe for `hunter check`, setWebhook for `hunter telegram setup`.
Every answer is {"ok": true, "result": ...} or {"ok": false, "error_code", "description",
"parameters"}.

What an answer means here:
    ok                       delivered
    429                      too many requests: wait `parameters.retry_after` seconds
    403                      the bot was blocked by the user, or kicked from the group: gone
    400 "chat not found"     gone, as 403
    400 migrate_to_chat_id   the group became a supergroup: a new id (a subscriber moves to it;
                             a [[chats]] is stuck until its to is fixed)
    400 (other)              this message is refused, stuck with Telegram's words
    401                      the token is wrong: stuck, delivery stops
    5xx, refused connection  not delivered: try again later
    no answer after sending  delivery unknown: stuck, never sent twice (no retry key)

Telegram's own pace (its FAQ): about one message a second in a chat, 20 a minute in a group,
30 a second in all. The sender keeps to a chat's pace; the bot's is kept by every sender of
the store together (deliver/rate.py); a 429 covers the rest.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import httpx

from hunter.channels.telegram import ids, updates
from hunter.channels.telegram.chat_rate import ChatPace
from hunter.channels.telegram.ids import PREFIX, chat_number, on_telegram
from hunter.channels.telegram.render import TelegramMessages
from hunter.channels.telegram.updates import ALLOWED_UPDATES
from hunter.deliver.channel import ChatEvent, Recipient
from hunter.deliver.outcome import Kind, PushResult, Scope
from hunter.deliver.rate import SharedRate
from hunter.errors import ChannelError, ChatGone, ConfigError, TokenRefused
from hunter.network import unreached
from hunter.redact import clip

PUSH_DEADLINE_SECONDS = 20.0
# Messages a second for the bot, all chats together: 28, not 30, so that a message held up on
# the way (a slow connection) does not bring 31 into Telegram's second (300 answers
# to Starts at once drew six 429s at 1/30). A chat's own pace: pace.py.
PER_SECOND = 28.0
# Telegram has no reply token: any message can be answered; one older than this (taken over
# after a restart) is acted on, and no longer answered: the person has moved on.
ANSWER_WINDOW = timedelta(minutes=10)
TOKEN_FIX = "check TELEGRAM_BOT_TOKEN (BotFather's /token)"
WEBHOOK_CONNECTIONS = 8  # setWebhook's max_connections (1-100, Telegram's default 40)
# What editMessageText takes of a sendMessage's fields (Bot API 10.1): the rest (silence,
# protection, a reply) belongs to sending.
EDIT_FIELDS = ("text", "parse_mode", "entities", "link_preview_options", "reply_markup")


class TelegramError(ChannelError):
    """Telegram's Bot API could not be reached or refused a check (getMe, getChat)."""


class TelegramSender(TelegramMessages):
    name = ids.NAME
    edits = True  # editMessageText: a bot edits its own messages, in any chat, at any age
    paced = False  # no monthly quota, no price per member
    dedupes = False  # no retry key: a lost answer is never followed by a second send
    retry_window: float | None = None
    words = ids.WORDS
    per_second = PER_SECOND  # for the bot: every replica's together (deliver/rate.py)

    def __init__(
        self,
        token: str,
        api_url: str = "https://api.telegram.org",
        deadline: float = PUSH_DEADLINE_SECONDS,
        sleep: Callable[[float], object] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base = f"{api_url.rstrip('/')}/bot{token}"
        self._http = httpx.Client(timeout=httpx.Timeout(deadline, connect=5.0))
        self._sleep = sleep
        self._pace = ChatPace(self.per_second, clock)
        self._shared: SharedRate | None = None  # the bot's pace, kept with the other senders

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        [fields] = messages  # one listing, one message (render.py)
        return self._send(_chat_id(to), fields)

    def edit(self, messages: list[dict[str, Any]], ref: str, to: str | None = None) -> PushResult:
        """editMessageText of message `ref` with the text and buttons of `messages` (one
        listing's, render.py). Telegram refuses an edit that changes nothing ("message is
        not modified"): it shows what was asked, so it is done."""
        [fields] = messages
        if not ref.isdigit():
            return PushResult(Kind.PERMANENT, None, f"not a Telegram message id: {ref[:20]!r}")
        chat = _chat_id(to)
        self._keep_pace(chat)
        edited = {k: v for k, v in fields.items() if k in EDIT_FIELDS}
        try:
            answer = self._http.post(
                f"{self._base}/editMessageText",
                json={"chat_id": chat, "message_id": int(ref), **edited},
            )
        except httpx.HTTPError as exc:  # an edit made twice shows the same: no harm in asking
            return PushResult(Kind.TRANSIENT, None, f"cannot reach Telegram: {_reason(exc)}")
        result = _result(answer)
        if result.status == 400 and "message is not modified" in result.detail.lower():
            return PushResult(Kind.SENT, 400, result.detail, ref=ref)
        return result

    def recipient(self, to: str | None) -> Recipient:
        return ids.recipient(to)

    def restore(self, payload: object) -> ChatEvent | None:
        return updates.restore(payload)

    def can_answer(self, event: ChatEvent, now: datetime) -> bool:
        if not on_telegram(event.chat_id):
            return False
        return event.at is None or now - event.at <= ANSWER_WINDOW

    def answer(self, event: ChatEvent, messages: list[dict[str, Any]]) -> PushResult:
        """The messages, in order, to the event's chat; a tapped button's query is answered
        first, so that its spinner stops (a query too old to answer changes nothing)."""
        self.acknowledge(event)
        chat = _chat_id(event.chat_id)
        result = PushResult(Kind.SENT, 200)
        for fields in messages:
            result = self._send(chat, fields)
            if result.kind is not Kind.SENT:
                break
        return result

    def acknowledge(self, event: ChatEvent) -> None:
        """answerCallbackQuery for a tapped button: its spinner stops."""
        if event.kind == "tap" and event.answer_token:
            with contextlib.suppress(TelegramError):
                self._call("answerCallbackQuery", {"callback_query_id": event.answer_token})

    def is_admin(self, chat_id: str, sender: str) -> bool:
        """getChatMember: whether `sender` created the group or administers it (Bot API:
        ChatMemberOwner's status "creator", ChatMemberAdministrator's "administrator").
        Unknown (Telegram away, a sender not a number) is not an admin."""
        if not sender.lstrip("-").isdigit():
            return False
        fields = {"chat_id": _chat_id(chat_id), "user_id": int(sender)}
        try:
            member = self._ask("getChatMember", fields, token_is_config=False)
        except ChannelError:  # Telegram away, the chat gone, the token refused
            return False
        return isinstance(member, dict) and member.get("status") in ("creator", "administrator")

    def set_webhook(self, url: str, secret: str) -> None:
        """setWebhook: Telegram POSTs each update to `url` with `secret` in its header."""
        fields = {
            "url": url,
            "secret_token": secret,
            "allowed_updates": list(ALLOWED_UPDATES),
            "max_connections": WEBHOOK_CONNECTIONS,
        }
        # A 400 is about the URL: not HTTPS, a port Telegram does not call, ...
        self._ask("setWebhook", fields, refused="Telegram refused the webhook URL")

    def set_menu(self) -> None:
        """The bot's commands ("/" lists them), description and short description, in
        English and Thai (menu.py): what a stranger sees before pressing Start."""
        from hunter.channels.telegram import menu

        for method, fields in menu.calls():
            self._ask(method, fields, refused=f"Telegram refused {method}")

    def webhook_info(self) -> dict[str, Any]:
        """getWebhookInfo: the URL Telegram calls, updates waiting, and its last error."""
        info = self._ask("getWebhookInfo", {})
        return info if isinstance(info, dict) else {}

    def _send(self, chat: int, fields: dict[str, Any]) -> PushResult:
        """One sendMessage, at Telegram's pace."""
        self._keep_pace(chat)
        try:
            answer = self._http.post(f"{self._base}/sendMessage", json={"chat_id": chat, **fields})
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # never left: not delivered
            return PushResult(Kind.TRANSIENT, None, f"cannot reach Telegram: {_reason(exc)}")
        except httpx.HTTPError as exc:  # it may have arrived: only Telegram knows
            detail = f"no answer from Telegram: {_reason(exc)}"
            return PushResult(Kind.TRANSIENT, None, detail, maybe_delivered=True)
        return _result(answer)

    def members(self, to: str) -> int:
        """1: Telegram has no price per member. Asks getChat, which says whether the chat is
        still there for the bot (ChatGone when not)."""
        self._ask("getChat", {"chat_id": _chat_id(to)}, token_is_config=False)
        return 1

    def quota(self) -> None:
        return None  # no monthly quota

    def bot_info(self) -> dict[str, Any]:
        """getMe: the bot's name and @username; proves the token works."""
        bot = self._ask("getMe", {})
        bot = bot if isinstance(bot, dict) else {}
        return {"name": str(bot.get("first_name", "")), "username": str(bot.get("username", ""))}

    def close(self) -> None:
        self._http.close()

    def _ask(
        self,
        method: str,
        fields: dict[str, Any],
        refused: str | None = None,
        token_is_config: bool = True,
    ) -> Any:
        """One Bot API call that sends no message: its `result`. ChatGone for a chat the bot
        is no longer in; ConfigError for a wrong token (`token_is_config`: a command's, which
        the user fixes; a push's is a failure like another) and, given `refused`, for a 400;
        TelegramError for the rest."""
        answer = self._call(method, fields)
        result = _result(answer)
        if result.kind is Kind.SENT:
            return answer.json().get("result")
        if result.kind is Kind.GONE:
            raise ChatGone(f"Telegram says {result.detail}")
        if result.kind is Kind.AUTH and token_is_config:
            raise ConfigError(f"Telegram rejected the bot token (401): {TOKEN_FIX}")
        if result.kind is Kind.AUTH:
            raise TokenRefused(f"Telegram rejected the bot token (401): {TOKEN_FIX}")
        if refused is not None and result.status == 400:
            raise ConfigError(f"{refused}: {result.detail}")
        raise TelegramError(f"Telegram {method} failed: {result.summary}")

    def _call(self, method: str, fields: dict[str, Any]) -> httpx.Response:
        try:
            return self._http.post(f"{self._base}/{method}", json=fields)
        except httpx.HTTPError as exc:
            raise TelegramError(f"cannot reach Telegram: {_reason(exc)}") from None

    def share_rate(self, rate: SharedRate) -> None:
        self._shared = rate

    def _keep_pace(self, chat: int) -> None:
        """Wait, if need be, so that this message keeps Telegram's pace for its chat and for
        the bot: at the shared rate's next moment once it has one (deliver/rate.py), else at
        this process's own."""
        if (wait := self._pace.wait(chat, bot=self._shared is None)) > 0:
            self._sleep(wait)
        if self._shared is not None and (wait := self._shared.delay()) > 0:
            self._sleep(wait)


def _chat_id(to: str | None) -> int:
    return chat_number(to)


def _result(answer: httpx.Response) -> PushResult:
    """What one Bot API answer means (see the module's table)."""
    try:
        data = answer.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):  # a proxy's page, or nothing Telegram would send
        kind = Kind.TRANSIENT if answer.status_code >= 500 else Kind.PERMANENT
        return PushResult(
            kind, answer.status_code, f"not Telegram's answer ({answer.reason_phrase})"
        )
    if data.get("ok") is True:
        sent = data.get("result")
        number = sent.get("message_id") if isinstance(sent, dict) else None
        ref = str(number) if isinstance(number, int) and not isinstance(number, bool) else None
        return PushResult(Kind.SENT, answer.status_code, ref=ref)
    error_code = data.get("error_code")
    code = error_code if isinstance(error_code, int) else answer.status_code
    said = clip(str(data.get("description") or answer.reason_phrase), 300)
    parameters = data.get("parameters")
    more: dict[str, Any] = parameters if isinstance(parameters, dict) else {}
    if code == 429:
        wait = more.get("retry_after")
        after = float(wait) if isinstance(wait, int | float) and 0 <= wait <= 86400 else 30.0
        return PushResult(Kind.TRANSIENT, code, said, retry_after=after)
    if code == 403 or (code == 400 and "chat not found" in said.lower()):
        return PushResult(Kind.GONE, code, said)
    if code == 400 and isinstance(more.get("migrate_to_chat_id"), int):
        new = f"{PREFIX}{more['migrate_to_chat_id']}"
        why = f'the group became a supergroup: set its to = "{new}"'
        return PushResult(Kind.PERMANENT, code, why, moved_to=new)
    if code == 401:
        fix = f"Telegram rejected the bot token: {TOKEN_FIX}, then run `hunter retry --all`"
        return PushResult(Kind.AUTH, code, said, fix=fix, scope=Scope.CHANNEL)  # the bot's
    if code == 400:
        return PushResult(Kind.REJECTED, code, said)
    if code >= 500 or code in (408, 420):
        return PushResult(Kind.TRANSIENT, code, said)
    return PushResult(Kind.PERMANENT, code, said)


def _reason(exc: Exception) -> str:
    return unreached(exc)
