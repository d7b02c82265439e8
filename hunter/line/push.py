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
from typing import Any

import urllib3

from hunter.errors import ConfigError, LineError
from hunter.policy import Kind, PushResult, classify

PUSH_TIMEOUT_SECONDS = (5.0, 20.0)  # connect, and each read
PUSH_DEADLINE_SECONDS = 30.0  # the whole push, first byte to last (at most)


@cache
def _sdk() -> Any:  # the SDK's module; it ships no type information
    import linebot.v3.messaging as sdk

    return sdk


class LineSender:
    name = "LINE"

    def __init__(
        self,
        token: str,
        to: str,
        api_url: str = "https://api.line.me",
        deadline: float = PUSH_DEADLINE_SECONDS,
    ) -> None:
        self._token, self._to, self._url = token, to, api_url
        self._deadline = deadline
        self._messaging: Any = None

    @property
    def _api(self) -> Any:
        if self._messaging is None:
            sdk = _sdk()
            configuration = sdk.Configuration(host=self._url, access_token=self._token)
            configuration.retries = 0
            self._messaging = sdk.MessagingApi(sdk.ApiClient(configuration))
            # The SDK hard-codes https://api.line.me for its calls otherwise.
            self._messaging.line_base_path = self._url
        return self._messaging

    def push(self, messages: list[dict[str, Any]], retry_key: str) -> PushResult:
        """One push, over within the deadline whatever LINE does: urllib3's timeouts
        apply to each read, so a LINE that trickles its answer would hold a push for minutes.
        At the deadline the push counts as unanswered (transient): it is resent with the same
        retry key, and LINE answers 409 if the first one did arrive."""

        def send() -> None:
            request = _sdk().PushMessageRequest.from_dict({"to": self._to, "messages": messages})
            self._api.push_message_with_http_info(
                request, x_line_retry_key=retry_key, _request_timeout=PUSH_TIMEOUT_SECONDS
            )

        return self._within_deadline(send)

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        """Answer a user's message or postback: free (LINE does not count replies), once per
        reply token, within the same deadline as a push."""

        def send() -> None:
            request = _sdk().ReplyMessageRequest.from_dict(
                {"replyToken": reply_token, "messages": messages}
            )
            self._api.reply_message_with_http_info(request, _request_timeout=PUSH_TIMEOUT_SECONDS)

        return self._within_deadline(send)

    def _within_deadline(self, send: Callable[[], None]) -> PushResult:
        outcome: list[PushResult] = []
        worker = threading.Thread(
            target=lambda: outcome.append(self._answer(send)),
            name="line-send",
            daemon=True,  # an abandoned request never keeps the process alive at exit
        )
        worker.start()
        worker.join(self._deadline)
        if outcome:
            return outcome[0]
        return PushResult(Kind.TRANSIENT, None, f"no complete answer within {self._deadline:g} s")

    def _answer(self, send: Callable[[], None]) -> PushResult:
        sdk = _sdk()
        try:
            send()
        except sdk.ApiException as exc:
            return result_from_answer(exc.status, exc.body, exc.headers)
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            return PushResult(Kind.TRANSIENT, None, _network_reason(exc))
        except Exception as exc:
            # A 200 whose body is not LINE's JSON (a proxy's HTML page, a cut-off body): it
            # may or may not have been delivered, so it is retried under the same key.
            return PushResult(
                Kind.TRANSIENT, None, f"LINE's answer could not be read ({type(exc).__name__})"
            )
        return PushResult(Kind.SENT, 200)

    def bot_info(self) -> dict[str, Any]:
        """The bot's name and basic ID: proves the token works."""
        try:
            info = self._api.get_bot_info(_request_timeout=PUSH_TIMEOUT_SECONDS)
        except _sdk().ApiException as exc:
            result = result_from_answer(exc.status, exc.body, exc.headers)
            if result.status == 401:  # the configuration is wrong, not LINE
                raise ConfigError(
                    "LINE rejected the channel access token (401): check LINE_CHANNEL_ACCESS_TOKEN"
                ) from None
            raise LineError(f"LINE bot info failed: {result.summary}") from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            raise LineError(f"cannot reach LINE: {_network_reason(exc)}") from None
        return {"name": info.display_name, "basic_id": info.basic_id}

    def quota(self) -> tuple[int | None, int]:
        """(this month's limit or None when unlimited, messages used so far)."""
        try:
            quota = self._api.get_message_quota(_request_timeout=PUSH_TIMEOUT_SECONDS)
            used = self._api.get_message_quota_consumption(_request_timeout=PUSH_TIMEOUT_SECONDS)
        except _sdk().ApiException as exc:
            raise LineError(f"LINE quota check failed: HTTP {exc.status}") from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            raise LineError(f"cannot reach LINE: {_network_reason(exc)}") from None
        limit = quota.value if quota.type == "limited" else None
        return limit, int(used.total_usage)


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
            message = str(body)[:200]
    retry_after = None
    if headers:
        value = headers.get("Retry-After") if hasattr(headers, "get") else None
        if value and str(value).isdigit():
            retry_after = float(value)
    return PushResult(classify(status, message), status, message, retry_after)


def _network_reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None) or exc
    text = str(reason).split(": ", 1)[-1] if str(reason) else type(reason).__name__
    return f"{type(reason).__name__}: {text}"[:200]
