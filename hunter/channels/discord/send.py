"""Discord's webhooks as a channel (discord.com/developers/docs/resources/webhook#execute-
webhook): a push is `POST <webhook url>?wait=true` with one message, whose answer is the
message (its id is kept: a later copy of a job merged into it edits it with `PATCH <webhook
url>/messages/<id>`, "Edit Webhook Message"); `members` asks the webhook itself (`GET <webhook
url>`), which says whether it still exists.

What an answer means (Discord's docs, "HTTP Response Codes", "JSON Error Codes", "Rate
Limits"; the answers' shapes in ../shared/contracts/discord-openapi.json):

    200 (with wait=true: the message), 204      delivered
    429 {"retry_after": s, "global": b}         try again after retry_after seconds: this
                                                webhook, or every webhook when "global" (or
                                                X-RateLimit-Global, X-RateLimit-Scope: global)
    404 {"code": 10015, "Unknown Webhook"}      the webhook was deleted: the chat is gone
    404 {"code": 10008, "Unknown Message"}      (an edit) the message was deleted: no edit
    401 {"code": 50027, "Invalid Webhook Token"} the URL's token is not the webhook's (a
                                                URL cut short when pasted): its chat's
                                                alerts wait for the URL set right; the run
                                                fails and says which variable
    403                                         the webhook no longer takes posts: gone
    400 {"code": 50035, "errors": ...}          this message is refused, stuck with its words
    5xx, a refused connection                   not delivered: try again later
    no answer after sending                     delivery unknown: stuck (no retry key)

Each answer's X-RateLimit-Remaining and X-RateLimit-Reset-After say how many requests the
webhook takes before its bucket refills (about 5 every 2 s): at 0 the next request to that
webhook waits Reset-After seconds, so a burst of batches never meets a 429.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import httpx

from hunter.channels.discord import settings
from hunter.channels.discord.render import DiscordMessages
from hunter.channels.discord.settings import DiscordWebhook
from hunter.deliver.channel import Recipient
from hunter.deliver.outcome import Kind, PushResult, Scope
from hunter.errors import ChannelError, ChatGone, TokenRefused
from hunter.network import unreached
from hunter.redact import clip

PUSH_DEADLINE_SECONDS = 20.0
UNKNOWN_WEBHOOK = 10015
UNKNOWN_MESSAGE = 10008
MAX_WAIT = 60.0  # a bucket's reset, or a 429's retry_after, waited here at most
MAX_RETRY_AFTER = 86400.0  # a 429's wait, kept as the batch's next attempt, at most a day


class DiscordError(ChannelError):
    """Discord could not be reached, or refused a check of a webhook."""


class DiscordSender(DiscordMessages):
    name = settings.NAME
    edits = True  # a webhook edits the messages it posted (Edit Webhook Message)
    paced = False  # no monthly quota, no price per member
    dedupes = False  # no idempotency key: a lost answer is never followed by a second send
    retry_window: float | None = None

    def __init__(
        self,
        hooks: Mapping[str, DiscordWebhook],
        deadline: float = PUSH_DEADLINE_SECONDS,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self._hooks = dict(hooks)
        self._http = httpx.Client(timeout=httpx.Timeout(deadline, connect=5.0))
        self._sleep = sleep
        self._lock = threading.Lock()
        self._refill: dict[str, float] = {}  # webhook id -> when its bucket has room again

    def recipient(self, to: str | None) -> Recipient:
        return settings.recipient(to, self._hooks)

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        [body] = messages  # a batch is one message (render.py)
        hook = self._hook(to)
        self._wait_for_room(hook)
        try:
            answer = self._http.post(hook.url, params={"wait": "true"}, json=body)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # never left: not delivered
            return PushResult(Kind.TRANSIENT, None, f"cannot reach Discord: {unreached(exc)}")
        except httpx.HTTPError as exc:  # it may have arrived: only Discord knows
            detail = f"no answer from Discord: {unreached(exc)}"
            return PushResult(Kind.TRANSIENT, None, detail, maybe_delivered=True)
        self._note_bucket(hook, answer)
        return _for(result(answer), to)

    def edit(self, messages: list[dict[str, Any]], ref: str, to: str | None = None) -> PushResult:
        """Edit Webhook Message: message `ref` becomes `messages`' embeds (render.py), its
        text kept. Discord answers the message (200)."""
        [body] = messages
        if not ref.isdigit():
            return PushResult(Kind.PERMANENT, None, f"not a Discord message id: {ref[:20]!r}")
        hook = self._hook(to)
        url = httpx.URL(hook.url)
        url = url.copy_with(path=f"{url.path.rstrip('/')}/messages/{ref}")
        edited = {k: v for k, v in body.items() if k in ("embeds", "allowed_mentions")}
        self._wait_for_room(hook)
        try:
            answer = self._http.patch(url, json=edited)
        except httpx.HTTPError as exc:  # an edit made twice shows the same: no harm in asking
            return PushResult(Kind.TRANSIENT, None, f"cannot reach Discord: {unreached(exc)}")
        self._note_bucket(hook, answer)
        return result(answer)

    def members(self, to: str) -> int:
        """1: no price per member. Asks the webhook, which says whether it still exists
        (ChatGone when it was deleted)."""
        self._ask(to)
        return 1

    def quota(self) -> None:
        return None  # no monthly quota

    def check(self, to: str) -> str:
        """`hunter check`: the webhook's name and id, never its URL."""
        data = self._ask(to)
        return f"webhook {str(data.get('name') or '?')[:80]!r} (id {self._hook(to).id})"

    def _ask(self, to: str) -> dict[str, Any]:
        """Get Webhook with Token: the webhook, ChatGone when it is deleted, DiscordError
        when Discord cannot tell."""
        try:
            answer = self._http.get(self._hook(to).url)
        except httpx.HTTPError as exc:
            raise DiscordError(f"cannot reach Discord: {unreached(exc)}") from None
        said = result(answer)
        if said.kind is Kind.GONE:
            raise ChatGone(f"Discord says {said.detail}")
        if said.kind is Kind.AUTH:  # every push to it meets the same: it writes the fix
            raise TokenRefused(_for(said, to).fix)
        if said.kind is not Kind.SENT:
            raise DiscordError(f"Discord's webhook check failed: {said.summary}")
        try:
            data = answer.json()
        except ValueError:
            data = None
        return data if isinstance(data, dict) else {}

    def close(self) -> None:
        self._http.close()

    def _hook(self, to: str | None) -> DiscordWebhook:
        hook = self._hooks.get(to or "")
        if hook is None:
            raise ValueError(f"no Discord webhook for {to!r}")
        return hook

    def _wait_for_room(self, hook: DiscordWebhook) -> None:
        with self._lock:
            wait = self._refill.pop(hook.id, 0.0) - time.monotonic()
        if wait > 0:
            self._sleep(min(wait, MAX_WAIT))

    def _note_bucket(self, hook: DiscordWebhook, answer: httpx.Response) -> None:
        """At X-RateLimit-Remaining 0, the next request waits X-RateLimit-Reset-After."""
        remaining = answer.headers.get("x-ratelimit-remaining")
        reset_after = _seconds(answer.headers.get("x-ratelimit-reset-after"))
        if remaining == "0" and reset_after is not None:
            with self._lock:
                self._refill[hook.id] = time.monotonic() + reset_after


def result(answer: httpx.Response) -> PushResult:
    """What one of Discord's answers means (see the module's table)."""
    status = answer.status_code
    data = _json(answer)
    if status in (200, 204):
        found = data.get("id") if data else None  # with wait=true, the message
        ref = found if isinstance(found, str) and found.isdigit() else None
        return PushResult(Kind.SENT, status, ref=ref)
    if data is None:  # a proxy's page, or nothing Discord would send
        kind = Kind.TRANSIENT if status >= 500 else Kind.PERMANENT
        return PushResult(kind, status, f"not Discord's answer ({answer.reason_phrase})")
    said = clip(str(data.get("message") or answer.reason_phrase), 300)
    code = data.get("code")
    if status == 429:
        wait = _seconds(data.get("retry_after"))
        wait = _seconds(answer.headers.get("retry-after")) if wait is None else wait
        scope = Scope.CHANNEL if _global(data, answer.headers) else Scope.CHAT
        after = min(wait, MAX_RETRY_AFTER) if wait is not None else 5.0
        return PushResult(Kind.TRANSIENT, status, said, retry_after=after, scope=scope)
    if status == 404 and code == UNKNOWN_MESSAGE:  # an edit's message, deleted: no edit
        return PushResult(Kind.PERMANENT, status, f"the message was deleted ({said})")
    if status == 404 or code == UNKNOWN_WEBHOOK:
        return PushResult(Kind.GONE, status, f"the webhook was deleted ({said})")
    if status == 401:  # a wrong token: the chat is there, its URL is not right
        return PushResult(
            Kind.AUTH, status, said, fix=f"Discord refused the webhook's token ({said})"
        )
    if status == 403:
        return PushResult(Kind.GONE, status, f"the webhook no longer takes posts ({said})")
    if status == 400:
        return PushResult(Kind.REJECTED, status, said)
    if status >= 500 or status == 408:
        return PushResult(Kind.TRANSIENT, status, said)
    return PushResult(Kind.PERMANENT, status, said)


def _for(said: PushResult, to: str | None) -> PushResult:
    """A refused token's answer with its fix: which variable holds the wrong URL."""
    if said.kind is not Kind.AUTH or not to:
        return said
    fix = (
        f"Discord refused the webhook's token (401 {said.detail}): {settings.variable(to)} is "
        "not the webhook's whole URL; copy it again (Server Settings -> Integrations -> "
        "Webhooks -> Copy Webhook URL), then run `hunter retry --all`"
    )
    return replace(said, fix=fix)


def _json(answer: httpx.Response) -> dict[str, Any] | None:
    """The answer's JSON object, None when it is none (a 204, a proxy's page)."""
    try:
        data = answer.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _global(data: Mapping[str, Any], headers: httpx.Headers) -> bool:
    """Whether a 429 limits every request of the bot, not this webhook's alone (Discord's
    "Rate Limits": the body's `global`, X-RateLimit-Global, X-RateLimit-Scope: global)."""
    flag = headers.get("x-ratelimit-global", "").lower() == "true"
    return data.get("global") is True or flag or headers.get("x-ratelimit-scope") == "global"


def _seconds(value: object) -> float | None:
    """A count of seconds Discord sent (a number, or its text), None when it is none. A wait
    of days is a wait of days, never a reason to retry at once."""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 and seconds == seconds else None
