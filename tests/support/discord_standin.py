"""A stand-in for Discord's webhooks on 127.0.0.1, answering as discord.com/developers/docs
documents them, so that hunter's Discord channel is tested against the service's own rules:

- POST /api/webhooks/<id>/<token>[?wait=true] with a JSON body (Execute Webhook). The body is
  checked against Discord's own OpenAPI description (../shared/contracts/discord-openapi.json,
  IncomingWebhookRequestPartial, when present) and against the documented limits the spec
  does not encode (Embed Limits): the text of all embeds together at most 6,000 characters,
  and a message must have content or an embed (400 {"code": 50006, "message": "Cannot send an
  empty message"}); any other refusal is 400 {"code": 50035, "message": "Invalid Form Body",
  "errors": ...}. With wait=true the answer is the message (200, shaped as the spec's
  MessageResponse, its required fields all there), else 204.
- Rate limits (Rate Limits, "Header Format"): every answer carries X-RateLimit-Limit,
  -Remaining, -Reset, -Reset-After and -Bucket; a webhook takes 5 requests per 2 s, and the
  sixth in the window is 429 {"message": "You are being rate limited.", "retry_after": s,
  "global": false} with Retry-After.
- A deleted webhook is 404 {"code": 10015, "message": "Unknown Webhook"}; a wrong token 401
  {"code": 50027, "message": "Invalid Webhook Token"}.
- GET /api/webhooks/<id>/<token> answers the webhook (Get Webhook with Token), or the same.
- PATCH /api/webhooks/<id>/<token>/messages/<message id> (Edit Webhook Message): the body
  checked against IncomingWebhookUpdateRequestPartial and the same limits; a message this
  webhook did not post 404 {"code": 10008, "message": "Unknown Message"}; the same bucket
  as posts; the message answered (200), `edited_timestamp` set. `edits` keeps each.
- Mentions: "@everyone", "@here", "<@id>" and "<@&id>" in `content` ping whom
  `allowed_mentions` lets them (no `allowed_mentions`: everyone named; `parse: []`: nobody);
  mentions inside embeds never ping. `pinged` keeps whom each message pinged.

`script` makes the next executions misbehave: "500", "429:S" (retry after S s), "lost"
(delivered, then the connection closes unanswered). `messages` keeps what was posted, by
webhook id.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.support.contracts import CONTRACTS, built_once
from tests.support.local_server import LocalServer, QuietHandler

SPEC = CONTRACTS / "discord-openapi.json"
WEBHOOK_ID = "1234567890123456789"
TOKEN = "Tst-webhook-token_" + "a" * 50  # 68 characters, as Discord's are
BUCKET_SIZE, BUCKET_SECONDS = 5, 2.0
EMBEDS_TOTAL_MAX = 6000
MENTION = re.compile(r"@everyone|@here|<@&?\d+>")


@built_once
def _validator(schema: str) -> Any:
    import jsonschema

    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    root = {"$ref": f"#/components/schemas/{schema}", "components": spec["components"]}
    return jsonschema.Draft202012Validator(root)


def spec_errors(body: Any, schema: str = "IncomingWebhookRequestPartial") -> list[str]:
    """What the spec says is wrong with `body` ([] when the spec is absent)."""
    if not SPEC.is_file():
        return []
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in
            _validator(schema).iter_errors(body)][:5]  # fmt: skip


def shown(markdown: str) -> str:
    """Text as Discord's client shows it, escapes taken out: "\\[a\\]" is "[a]"."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", markdown)


@dataclass
class Posted:
    webhook: str
    body: dict[str, Any]
    at: float

    @property
    def titles(self) -> list[str]:
        """Each embed's title as Discord shows it: a backslash before punctuation is an
        escape (simple-markdown's rule, which Discord's client renders), shown as the mark."""
        return [shown(str(e.get("title", ""))) for e in self.body.get("embeds") or []]

    @property
    def links(self) -> list[str]:
        return [str(e.get("url", "")) for e in self.body.get("embeds") or []]


@dataclass
class DiscordStandIn:
    webhooks: dict[str, str] = field(default_factory=lambda: {WEBHOOK_ID: TOKEN})  # id -> token
    deleted: set[str] = field(default_factory=set)
    script: deque[str] = field(default_factory=deque)
    messages: list[Posted] = field(default_factory=list)  # a message's id: 10**17 + place + 1
    edits: list[Posted] = field(default_factory=list)  # each edit made, the message after it
    removed: set[int] = field(default_factory=set)  # messages a person deleted, by their place
    pinged: list[list[str]] = field(default_factory=list)  # per message, whom it pinged
    refused: list[tuple[int, str]] = field(default_factory=list)  # (status, why)
    checks: int = 0  # GETs of a webhook
    executions: int = 0  # POSTs, answered or not
    patches: int = 0  # edits asked for, answered or not
    limited: int = 0  # POSTs answered 429 because the webhook's bucket was empty
    # Webhooks whose every POST is answered 429 with this retry_after (id -> seconds): one
    # webhook's limit, as Discord words it ("global": false); the others are served.
    refusing: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        spec_errors({})  # the spec is parsed before the first post, which hunter times
        stand_in = self
        self._lock = threading.Lock()
        self._window: dict[str, list[float]] = {}

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size)
                try:
                    body = json.loads(raw or b"null")
                except ValueError:
                    body = None
                stand_in._execute(self, body)

            def do_GET(self) -> None:
                stand_in._get(self)

            def do_PATCH(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(size) or b"null")
                except ValueError:
                    body = None
                stand_in._edit(self, body)

        self._server = LocalServer(Handler)
        self.url = self._server.url

    def webhook_url(self, webhook: str = WEBHOOK_ID) -> str:
        return f"{self.url}/api/webhooks/{webhook}/{self.webhooks[webhook]}"

    def close(self) -> None:
        self._server.close()

    def titles(self) -> list[str]:
        return [title for posted in self.messages for title in posted.titles]

    # -- the API -----------------------------------------------------------------------------
    def _route(
        self, handler: QuietHandler, tail: str = ""
    ) -> tuple[str | None, dict[str, list[str]]]:
        """The webhook a request is for (None: answered already with its error); `tail`, a
        pattern of what follows the token (the message of an edit), is kept as query["tail"]."""
        parts = urlsplit(handler.path)
        match = re.fullmatch(r"/api(?:/v\d+)?/webhooks/(\d+)/([\w-]+)" + tail, parts.path)
        if match is None:
            handler.send_json(404, {"message": "404: Not Found", "code": 0})
            return None, {}
        webhook, token = match.groups()[:2]
        if webhook in self.deleted or webhook not in self.webhooks:
            handler.send_json(404, {"message": "Unknown Webhook", "code": 10015})
            return None, {}
        if token != self.webhooks[webhook]:
            handler.send_json(401, {"message": "Invalid Webhook Token", "code": 50027})
            return None, {}
        query = parse_qs(parts.query)
        if tail:
            query["tail"] = [match.group(3)]
        return webhook, query

    def _get(self, handler: QuietHandler) -> None:
        self.checks += 1
        webhook, _query = self._route(handler)
        if webhook is None:
            return
        hook = {"id": webhook, "type": 1, "name": "hunter alerts", "channel_id": "222",
                "guild_id": "111", "avatar": None, "application_id": None,
                "token": self.webhooks[webhook]}  # fmt: skip
        handler.send_json(200, hook)

    def _execute(self, handler: QuietHandler, body: Any) -> None:
        self.executions += 1
        webhook, query = self._route(handler)
        if webhook is None:
            return
        if self._limited(handler, webhook):
            return None
        step = self.script.popleft() if self.script else ""
        if step == "500":
            return handler.send_json(500, {"message": "Internal Server Error", "code": 0})
        if step.startswith("429:"):
            wait = float(step[4:])
            return handler.send_json(429, {"message": "You are being rate limited.",
                                           "retry_after": wait, "global": False},
                                     {"Retry-After": str(int(wait) + 1)})  # fmt: skip
        problem = self._problem(body)
        if problem is not None:
            self.refused.append(problem)
            code = 50006 if "empty" in problem[1] else 50035
            return handler.send_json(400, {"message": problem[1], "code": code})
        with self._lock:
            self.messages.append(Posted(webhook, body, time.monotonic()))
            self.pinged.append(_pinged(body))
        if step == "lost":  # it arrived; the answer never does
            handler.close_connection = True
            handler.connection.shutdown(2)
            return None
        if query.get("wait") == ["true"]:
            return handler.send_json(200, self._message(webhook, body), self._headers(webhook))
        return handler.send_json(204, None, self._headers(webhook))

    def _edit(self, handler: QuietHandler, body: Any) -> None:
        self.patches += 1
        webhook, query = self._route(handler, r"/messages/(\d+)")
        if webhook is None:
            return
        if self._limited(handler, webhook):
            return None
        place = int(query["tail"][0]) - 10**17 - 1
        with self._lock:
            known = 0 <= place < len(self.messages) and self.messages[place].webhook == webhook
            known = known and place not in self.removed
        if not known:
            return handler.send_json(404, {"message": "Unknown Message", "code": 10008})
        problem = self._problem(body, "IncomingWebhookUpdateRequestPartial", edit=True)
        if problem is not None:
            self.refused.append(problem)
            return handler.send_json(400, {"message": problem[1], "code": 50035})
        with self._lock:
            before = self.messages[place]
            after = Posted(webhook, {**before.body, **body}, before.at)
            self.messages[place] = after
            self.edits.append(after)
        answer = self._message(webhook, after.body, place + 1)
        answer["edited_timestamp"] = datetime.now(UTC).isoformat()
        return handler.send_json(200, answer, self._headers(webhook))

    def _limited(self, handler: QuietHandler, webhook: str) -> bool:
        """A 429 answered when the webhook's bucket is empty (or it is `refusing`)."""
        limited = self.refusing.get(webhook) or self._take(webhook)
        if limited is None:
            return False
        self.limited += 1
        handler.send_json(429, {"message": "You are being rate limited.",
                                "retry_after": limited, "global": False},
                          {"Retry-After": str(int(limited) + 1),
                           **self._headers(webhook)})  # fmt: skip
        return True

    def _problem(
        self, body: Any, schema: str = "IncomingWebhookRequestPartial", edit: bool = False
    ) -> tuple[int, str] | None:
        if not isinstance(body, dict):
            return 400, "Invalid Form Body: not a JSON object"
        errors = spec_errors(body, schema)
        if errors:
            return 400, f"Invalid Form Body: {'; '.join(errors)}"
        embeds = body.get("embeds") or []
        if not body.get("content") and not embeds and not edit:
            return 400, "Cannot send an empty message"
        total = sum(len(str(e.get(k) or "")) for e in embeds for k in ("title", "description"))
        total += sum(len(str((e.get("footer") or {}).get("text") or "")) for e in embeds)
        total += sum(
            len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
            for e in embeds
            for f in e.get("fields") or []
        )
        if total > EMBEDS_TOTAL_MAX:
            return 400, f"Invalid Form Body: embeds hold {total} characters (at most 6000)"
        return None

    def _take(self, webhook: str) -> float | None:
        """Room in the webhook's bucket (None), or the seconds until there is."""
        now = time.monotonic()
        with self._lock:
            window = [t for t in self._window.get(webhook, []) if now - t < BUCKET_SECONDS]
            if len(window) >= BUCKET_SIZE:
                self._window[webhook] = window
                return round(BUCKET_SECONDS - (now - window[0]), 3)
            window.append(now)
            self._window[webhook] = window
        return None

    def _headers(self, webhook: str) -> dict[str, str]:
        now = time.monotonic()
        with self._lock:
            window = [t for t in self._window.get(webhook, []) if now - t < BUCKET_SECONDS]
        reset_after = BUCKET_SECONDS - (now - window[0]) if window else BUCKET_SECONDS
        return {
            "X-RateLimit-Limit": str(BUCKET_SIZE),
            "X-RateLimit-Remaining": str(max(BUCKET_SIZE - len(window), 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"webhook-{webhook}",
        }

    def _message(
        self, webhook: str, body: dict[str, Any], number: int | None = None
    ) -> dict[str, Any]:
        """The posted message (the `number`th, else the last) as Discord answers it
        (MessageResponse's required fields)."""
        pinged = _pinged(body)
        message = {
            "type": 0, "content": body.get("content") or "", "mentions": [],
            "mention_roles": [p for p in pinged if p.startswith("<@&")], "attachments": [],
            "embeds": [{"type": "rich", **e} for e in body.get("embeds") or []],
            "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "flags": 0,
            "components": [], "channel_id": "222",
            "id": str((number or len(self.messages)) + 10**17),
            "author": {"id": webhook, "username": "hunter alerts", "discriminator": "0000",
                       "avatar": None, "bot": True, "global_name": None, "public_flags": 0,
                       "flags": 0},
            "pinned": False, "mention_everyone": "@everyone" in pinged, "tts": False,
            "webhook_id": webhook,
        }  # fmt: skip
        return message


def _pinged(body: dict[str, Any]) -> list[str]:
    """Whom the message's content pings, as allowed_mentions lets it (embeds never ping)."""
    named = MENTION.findall(str(body.get("content") or ""))
    allowed = body.get("allowed_mentions")
    if not isinstance(allowed, dict):
        return named  # Discord's default: everything named is pinged
    parse = allowed.get("parse") or []
    kinds = {"@everyone": "everyone", "@here": "everyone"}
    return [m for m in named if kinds.get(m, "roles" if m.startswith("<@&") else "users") in parse]
