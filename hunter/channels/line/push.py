"""Push to LINE with line-bot-sdk v3, and turn every way a push can end into a PushResult.

The SDK is imported on the first call to LINE, not before: it costs 70-80 MB and 1-3 s, and a
poll with nothing to send never needs it. urllib3's own retries are off: the policy decides
retries, and every attempt carries the batch's X-Line-Retry-Key so LINE drops a duplicate.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from hunter.channels.line import answers
from hunter.channels.line.answers import LineError
from hunter.channels.line.render import LineCards
from hunter.deliver.outcome import Kind, PushResult
from hunter.errors import ChatGone, ConfigError, TokenRefused
from hunter.network import unreached
from hunter.redact import clip

PUSH_TIMEOUT_SECONDS = (5.0, 20.0)  # connect, and each read
PUSH_DEADLINE_SECONDS = 30.0  # the whole push, first byte to last (at most)
# A reply must be over before the platform's kill after SIGTERM (schedule.STOP_GRACE_SECONDS),
# so that hunter can record what became of it instead of leaving it in flight.
REPLY_DEADLINE_SECONDS = 20.0
CHECK_DEADLINE_SECONDS = 10.0  # bot info and the quota: a person is waiting for the answer


@cache
def _failures() -> tuple[type[BaseException], ...]:
    """What a call to LINE fails with on the way (urllib3's errors, the OS's). urllib3 is
    imported at the first failure, not before: a quiet run with LINE set imports none of it
    (about 23 ms of a cron run's 230)."""
    import urllib3

    return (urllib3.exceptions.HTTPError, OSError)


@cache
def _not_sent() -> tuple[type[BaseException], ...]:
    """Failures before the request left: LINE cannot have received it."""
    import urllib3

    errors = urllib3.exceptions
    return (errors.NewConnectionError, errors.ConnectTimeoutError, errors.NameResolutionError)


T = TypeVar("T")


@cache
def _sdk() -> Any:  # the SDK's module; it ships no type information
    import linebot.v3.messaging as sdk

    return sdk


class LineSender(LineCards):
    name = "LINE"

    def __init__(
        self,
        token: str,
        to: str,
        api_url: str = "https://api.line.me",
        deadline: float = PUSH_DEADLINE_SECONDS,
        check_deadline: float = CHECK_DEADLINE_SECONDS,
    ) -> None:
        self._token, self._to, self._url = token, to, api_url
        self._deadline, self._check_deadline = deadline, check_deadline
        self._messaging: Any = None

    @property
    def _api(self) -> Any:
        if self._messaging is None:
            self._messaging = self._new_api()
        return self._messaging

    def _new_api(self) -> Any:
        """A MessagingApi on a client of its own (its `last_response` is its own calls')."""
        sdk = _sdk()
        configuration = sdk.Configuration(host=self._url, access_token=self._token)
        configuration.retries = 0
        messaging = sdk.MessagingApi(sdk.ApiClient(configuration))
        # The SDK hard-codes https://api.line.me for its calls otherwise.
        messaging.line_base_path = self._url
        return messaging

    def push(
        self, messages: list[dict[str, Any]], retry_key: str, to: str | None = None
    ) -> PushResult:
        """One push, over within the deadline whatever LINE does: urllib3's timeouts
        apply to each read, so a LINE that trickles its answer would hold a push for minutes.
        At the deadline the push counts as unanswered (transient): it is resent with the same
        retry key, and LINE answers 409 if the first one did arrive."""

        def send() -> None:
            body = {"to": to or self._to, "messages": messages}
            request = _sdk().PushMessageRequest.from_dict(body)
            self._api.push_message_with_http_info(
                request,
                x_line_retry_key=retry_key,
                _request_timeout=PUSH_TIMEOUT_SECONDS,
                _preload_content=False,  # a 200 is delivery, whatever its body says
            )

        return self._delivery(send, self._deadline)

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        """Answer a user's message or postback: free (LINE does not count replies), once per
        reply token. `maybe_delivered` says when no answer came after the request left. A
        reply has no retry key to make a resend safe, so its status matters as soon as it
        comes: each reply goes through a client of its own, whose `last_response` holds the
        status once LINE sent it, even while the body still trickles in."""
        api = self._new_api()

        def send() -> None:
            request = _sdk().ReplyMessageRequest.from_dict(
                {"replyToken": reply_token, "messages": messages}
            )
            api.reply_message_with_http_info(
                request, _request_timeout=PUSH_TIMEOUT_SECONDS, _preload_content=False
            )

        def status() -> int | None:
            answered = getattr(api.api_client, "last_response", None)  # set once LINE answers
            return getattr(answered, "status", None)

        return self._delivery(send, min(self._deadline, REPLY_DEADLINE_SECONDS), status)

    def _delivery(
        self,
        send: Callable[[], None],
        deadline: float,
        status: Callable[[], int | None] | None = None,
    ) -> PushResult:
        """One push or reply, over within `deadline` whatever LINE does (the SDK's import,
        1-3 s on the first call, is not LINE's time). At the deadline, a 200 that came with
        its body still on the way (`status`) is delivery: LINE took the messages."""
        _ = self._api
        try:
            return within(lambda: self._answer(send), deadline)
        except PushDeadline:
            if status is not None and status() == 200:
                return PushResult(Kind.SENT, 200)
            reason = f"no complete answer within {deadline:g} s"
            return PushResult(Kind.TRANSIENT, None, reason, maybe_delivered=True)

    def _answer(self, send: Callable[[], None]) -> PushResult:
        sdk = _sdk()
        try:
            send()
        except sdk.ApiException as exc:
            return result_from_answer(exc.status, exc.body, exc.headers)
        except _failures() as exc:
            reason = getattr(exc, "reason", None) or exc
            left = not isinstance(reason, _not_sent())
            return PushResult(Kind.TRANSIENT, None, _network_reason(exc), maybe_delivered=left)
        return PushResult(Kind.SENT, 200)

    def bot_info(self) -> dict[str, Any]:
        """The bot's name and basic ID: proves the token works."""
        try:
            info = within(
                lambda: self._api.get_bot_info(_request_timeout=PUSH_TIMEOUT_SECONDS),
                self._check_deadline,
            )
        except _sdk().ApiException as exc:
            result = result_from_answer(exc.status, exc.body, exc.headers)
            if result.status == 401:  # the configuration is wrong, not LINE
                raise ConfigError(
                    "LINE rejected the channel access token (401): check LINE_CHANNEL_ACCESS_TOKEN"
                ) from None
            raise LineError(f"LINE bot info failed: {result.summary}") from None
        except PushDeadline:
            raise LineError(f"LINE did not answer within {self._check_deadline:g} s") from None
        except _failures() as exc:
            raise LineError(f"cannot reach LINE: {_network_reason(exc)}") from None
        return {"name": info.display_name, "basic_id": info.basic_id}

    def members(self, to: str) -> int:
        """Recipients of one push to `to`: 1 for a user; for a group or a multi-person chat,
        LINE's count of its members (the bot not counted, as LINE documents it)."""
        if to.startswith("U"):
            return 1
        api = self._api

        def read() -> int:
            timeout = PUSH_TIMEOUT_SECONDS
            if to.startswith("C"):
                return int(api.get_group_member_count(to, _request_timeout=timeout).count)
            return int(api.get_room_member_count(to, _request_timeout=timeout).count)

        try:
            return within(read, self._check_deadline)
        except _sdk().ApiException as exc:
            if exc.status in (403, 404):  # LINE: the bot is not in that group or room
                raise ChatGone(f"LINE says the bot is not in {to} (HTTP {exc.status})") from None
            if exc.status == 401:  # every push meets it too, and its rows say the fix
                raise TokenRefused(
                    "LINE rejected the channel access token (401): check LINE_CHANNEL_ACCESS_TOKEN"
                ) from None
            raise LineError(
                f"LINE could not count the members of {to}: HTTP {exc.status}"
            ) from None
        except PushDeadline:
            raise LineError(f"LINE did not answer within {self._check_deadline:g} s") from None
        except _failures() as exc:
            raise LineError(f"cannot reach LINE: {_network_reason(exc)}") from None

    def quota(self) -> tuple[int | None, int]:
        """(this month's limit or None when unlimited, messages used so far), within
        the check deadline for both reads together: "สถานะ" waits for it."""

        def read() -> tuple[Any, Any]:
            timeout = PUSH_TIMEOUT_SECONDS
            quota = self._api.get_message_quota(_request_timeout=timeout)
            return quota, self._api.get_message_quota_consumption(_request_timeout=timeout)

        try:
            quota, used = within(read, self._check_deadline)
        except _sdk().ApiException as exc:
            raise LineError(f"LINE quota check failed: HTTP {exc.status}") from None
        except PushDeadline:
            raise LineError(f"LINE did not answer within {self._check_deadline:g} s") from None
        except _failures() as exc:
            raise LineError(f"cannot reach LINE: {_network_reason(exc)}") from None
        limit = quota.value if quota.type == "limited" else None
        return limit, int(used.total_usage)


class PushDeadline(Exception):
    """A call to LINE was still going at its deadline."""


def within(call: Callable[[], T], deadline: float) -> T:
    """`call()`'s result or exception, or PushDeadline once `deadline` seconds pass: urllib3's
    timeouts apply to each read, so a LINE that trickles its answer would hold a call for
    minutes. The abandoned call's thread is a daemon and never keeps the process alive."""
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="line-call", daemon=True)
    worker.start()
    worker.join(deadline)
    if not outcome:
        raise PushDeadline(f"no answer within {deadline:g} s")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def result_from_answer(status: int | None, body: Any, headers: Any) -> PushResult:
    """A PushResult from LINE's error answer: its status, its own words, Retry-After."""
    message = ""
    if body:
        try:
            data = json.loads(body)
            message = str(data.get("message", ""))
            details = data.get("details") or []
            if details:
                message += (
                    " ("
                    + "; ".join(
                        f"{d.get('property', '?')}: {d.get('message', '')}" for d in details[:3]
                    )
                    + ")"
                )
        except (ValueError, AttributeError, TypeError):
            message = clip(str(body), 200)
    retry_after = None
    if headers:
        value = headers.get("Retry-After") if hasattr(headers, "get") else None
        if value and str(value).isdigit():
            retry_after = float(value)
    return answers.result(status, message, retry_after)


def _network_reason(exc: BaseException) -> str:
    return unreached(exc)[:200]
