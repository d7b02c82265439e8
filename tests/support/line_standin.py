"""A LINE Messaging API stand-in on 127.0.0.1 for tests: strict, stateful, and able to fail.

It answers what hunter calls (push, bot info, quota) the way LINE documents it:
- every push body is checked against LINE's OpenAPI spec when ../shared has it, and always
  against the limits DESIGN.md lists; a violation is recorded in `violations` and answered
  400, as LINE would;
- X-Line-Retry-Key: a key already accepted is answered 409 with x-line-accepted-request-id;
- a wrong token is answered 401, an exhausted month 429 "You have reached your monthly limit.";
- the quota is counted as LINE's page "how to count messages" says: one message per accepted
  push per recipient, whatever it holds (a push to a group of 4 costs 4: LINE's pricing
  page); the count starts again each month. A group's or room's members are `members[id]`,
  answered by "Get number of users in a group chat" / "in a multi-person chat" as
  {"count": n} (LINE's GroupMemberCountResponse: the bot itself not counted), 404 for a
  group the bot is not in; a push to such a group is refused (400), as LINE refuses a `to`
  it cannot deliver to. The month is
  taken in Japan's time (LINE's home; an assumption, LINE does not document the zone), on
  `clock`, which a test may replace with a fake one. `quota_limit` None answers the quota API's
  `{"type": "none"}` (no limit), as LINE does for plans without one.
Faults on demand, for the next pushes in order (`script`): an HTTP status, "drop" (accept the
push, then close the connection without answering: a lost response), "hold" (accept, then
never answer: the sender is killed mid-push), "slow" (accept, answer after two seconds),
"html" (accept, then answer 200 with an HTML page, as a proxy in front of LINE might) or
"trickle" (accept, then send a 200 answer one byte every two seconds). Replies have faults of
their own (tests/support/line_chat.py), and `quota_trickles` makes the quota API trickle.
`reject` marks titles LINE answers 400 for; `on_accept` runs when a push is accepted, before
the answer leaves (to cut the sender's database at exactly that moment).
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.line_chat import LineChat
from tests.support.line_limits import limit_errors
from tests.support.line_spec import spec_available, spec_errors, validator
from tests.support.local_server import LocalServer, QuietHandler

TOKEN = "test-channel-token-DO-NOT-LEAK-7f3a9c"
TO = "U" + "4af4980629" * 3 + "ab"  # a user ID: U and 32 hex digits
LINE_MONTH_ZONE = ZoneInfo("Asia/Tokyo")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)


def titles_of(body: dict[str, Any]) -> list[str]:
    """The listing titles in a push body: the first text of each bubble."""
    out = []
    for message in body.get("messages", []):
        contents = message.get("contents", {})
        bubbles = contents.get("contents", []) if contents.get("type") == "carousel" else [contents]
        for bubble in bubbles:
            texts = bubble.get("body", {}).get("contents", [])
            if texts:
                out.append(texts[0].get("text", ""))
    return out


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class Push:
    key: str | None
    body: dict[str, Any]
    status: int
    at: datetime = field(default_factory=utcnow)
    recipients: int = 1

    @property
    def to(self) -> str:
        return str(self.body.get("to", ""))

    @property
    def titles(self) -> list[str]:
        return titles_of(self.body)

    @property
    def links(self) -> list[str]:
        """Every link a person can open in the push (each once, in the order shown)."""
        found: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                action = node.get("action")
                uri = action.get("uri") if isinstance(action, dict) else None
                if isinstance(uri, str) and uri not in found:
                    found.append(uri)
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.body.get("messages", []))
        return found


@dataclass
class LineStandIn:
    token: str = TOKEN
    check_spec: bool = True
    pushes: list[Push] = field(default_factory=list)  # every push request, with its answer
    violations: list[str] = field(default_factory=list)
    script: deque[Any] = field(default_factory=deque)
    reject: set[str] = field(default_factory=set)  # a title containing one of these -> 400
    quota_exhausted: bool = False  # answer 429 whatever the count says
    quota_limit: int | None = None  # the month's messages; None: no limit
    others_used: int = 0  # messages sent this month by something else on the channel
    members: dict[str, int] = field(default_factory=dict)  # group/room id -> its members
    quota_trickles: bool = False  # the quota API's answer comes a byte every two seconds
    clock: Callable[[], datetime] = utcnow
    month_zone: ZoneInfo = LINE_MONTH_ZONE
    accepted: dict[str, str] = field(default_factory=dict)  # retry key -> request id
    on_accept: Any = None
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.validate_spec = self.check_spec and spec_available()
        if self.validate_spec:  # before the first push, which hunter times (see validator)
            validator("PushMessageRequest")
        self.chat = LineChat(check_spec=self.check_spec)  # replies and rich menus
        self._server = LocalServer(_handler(self))
        self.url = self._server.url

    def close(self) -> None:
        self.released.set()
        self._server.close()

    @property
    def delivered(self) -> list[str]:
        """Titles LINE accepted, once per accepted request (409 answers add nothing)."""
        return [title for push in self.pushes if push.status == 200 for title in push.titles]

    @property
    def used(self) -> int:
        """Messages counted against this month: one per accepted push to one recipient."""
        month = self._month(self.clock())
        mine = sum(
            p.recipients for p in self.pushes if p.status == 200 and self._month(p.at) == month
        )
        return self.others_used + mine

    def recipients(self, to: str) -> int | None:
        """How many people a push to `to` reaches; None for a group the bot is not in."""
        return self.members.get(to) if to[:1] in ("C", "R") else 1

    def _month(self, at: datetime) -> str:
        return f"{at.astimezone(self.month_zone):%Y-%m}"

    def _push(self, key: str | None, body: dict[str, Any], status: int) -> None:
        recipients = self.recipients(str(body.get("to", ""))) or 0
        self.pushes.append(Push(key, body, status, self.clock(), recipients))

    def env(self) -> dict[str, str]:
        return {
            "LINE_CHANNEL_ACCESS_TOKEN": self.token,
            "LINE_TO": TO,
            "HUNTER_LINE_API_URL": self.url,
        }

    # -- the push, in LINE's order of checks ----------------------------------------------------
    def answer_push(self, headers: Any, raw: bytes) -> tuple[int, dict[str, Any], dict[str, str]]:
        if headers.get("Authorization") != f"Bearer {self.token}":
            return (
                401,
                {
                    "message": "Authentication failed. Confirm that the access token in the "
                    "authorization header is valid."
                },
                {},
            )
        try:
            body = json.loads(raw)
        except ValueError:
            return self._invalid(["body is not JSON"], {})
        key = headers.get("X-Line-Retry-Key")
        problems = limit_errors(body, len(raw))
        if self.validate_spec:
            problems += spec_errors("PushMessageRequest", body)
        if key is None or not _UUID.match(key):
            problems.append(f"X-Line-Retry-Key must be a UUID, got {key!r}")
        if not problems and self.recipients(str(body.get("to", ""))) is None:
            problems.append(f"The property, 'to', in the request body is invalid ({body['to']})")
        if problems:
            return self._invalid(problems, body, key)
        with self.lock:
            if key in self.accepted:
                self._push(key, body, 409)
                return (
                    409,
                    {"message": "The retry key is already accepted"},
                    {"x-line-accepted-request-id": self.accepted[key]},
                )
            cost = self.recipients(body["to"]) or 0
            if self.quota_exhausted or (
                self.quota_limit is not None and self.used + cost > self.quota_limit
            ):
                self._push(key, body, 429)
                return 429, {"message": "You have reached your monthly limit."}, {}
            action = self.script.popleft() if self.script else None
            if isinstance(action, int):
                self._push(key, body, action)
                return (
                    action,
                    {
                        "message": "An error occurred in the backend server"
                        if action >= 500
                        else "Injected failure"
                    },
                    {},
                )
            bad = [t for t in titles_of(body) if any(marker in t for marker in self.reject)]
            if bad:
                self._push(key, body, 400)
                return (
                    400,
                    {
                        "message": "The request body has 1 error(s)",
                        "details": [
                            {"message": "May not be empty", "property": "messages[0].contents"}
                        ],
                    },
                    {},
                )
            self.accepted[key] = str(uuid.uuid4())
            self._push(key, body, 200)
        if self.on_accept:
            self.on_accept()
        if action == "slow":
            self.released.wait(2.0)
        if action in ("drop", "hold", "html", "trickle"):
            return {"drop": -1, "hold": -2, "html": -3, "trickle": -4}[action], {}, {}
        return (
            200,
            {
                "sentMessages": [
                    {"id": str(n), "quoteToken": "q"} for n in range(len(body["messages"]))
                ]
            },
            {},
        )

    def _invalid(
        self, problems: list[str], body: Any, key: str | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self.lock:
            self.violations.extend(problems)
            self._push(key, body if isinstance(body, dict) else {}, 400)
        return (
            400,
            {
                "message": "The request body has 1 error(s)",
                "details": [{"message": p, "property": "messages"} for p in problems[:5]],
            },
            {},
        )


def _handler(stand_in: LineStandIn) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def _chat(self, method: str, raw: bytes = b"") -> bool:
            """Serve a chat-side path (replies, rich menus); False when it is not one."""
            if self.headers.get("Authorization") != f"Bearer {stand_in.token}":
                self.send_json(401, {"message": "Authentication failed."}, {})
                return True
            answer = stand_in.chat.answer(method, self.path, self.headers, raw)
            if answer is None:
                return False
            if answer[0] == -5:  # accepted, answered after the given seconds
                stand_in.released.wait(answer[1]["after"])
                answer = (200, answer[1]["body"])
            if answer[0] < 0:
                self._fault(answer[0])
            else:
                self.send_json(answer[0], answer[1], {})
            return True

        def _fault(self, status: int) -> None:
            """What an accepted request gets instead of LINE's answer (see the docstring)."""
            if status == -1:  # accepted, answer lost
                self.close_connection = True
                self.connection.shutdown(2)
            elif status == -2:  # accepted, sender must die before an answer comes
                stand_in.released.wait()
                self.close_connection = True
            elif status == -3:  # accepted, answered by something that is not LINE
                page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)
            elif status == -4:  # accepted, the answer trickles in
                self._trickle(b'{"sentMessages": []}')

        def _trickle(self, answer: bytes) -> None:
            """A 200 whose body comes a byte every two seconds."""
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            for byte in answer:
                if stand_in.released.wait(2.0):
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            self.close_connection = True

        def do_DELETE(self) -> None:
            if not self._chat("DELETE"):
                self.send_json(404, {"message": "Not found"}, {})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != "/v2/bot/message/push":
                if not self._chat("POST", raw):
                    self.send_json(404, {"message": "Not found"}, {})
                return None
            status, body, headers = stand_in.answer_push(self.headers, raw)
            if status < 0:
                return self._fault(status)
            return self.send_json(status, body, headers)

        def do_GET(self) -> None:
            if self.headers.get("Authorization") != f"Bearer {stand_in.token}":
                return self.send_json(401, {"message": "Authentication failed."}, {})
            if self.path == "/v2/bot/info":
                return self.send_json(
                    200,
                    {
                        "userId": TO,
                        "basicId": "@hunter-test",
                        "displayName": "hunter test bot",
                        "chatMode": "bot",
                        "markAsReadMode": "auto",
                    },
                    {},
                )
            if self.path == "/v2/bot/message/quota":
                if stand_in.quota_trickles:
                    return self._trickle(json.dumps({"type": "none"}).encode())
                if stand_in.quota_limit is None:
                    return self.send_json(200, {"type": "none"}, {})
                return self.send_json(200, {"type": "limited", "value": stand_in.quota_limit}, {})
            if self.path == "/v2/bot/message/quota/consumption":
                return self.send_json(200, {"totalUsage": stand_in.used}, {})
            counted = re.fullmatch(r"/v2/bot/(group|room)/([^/]+)/members/count", self.path)
            if counted:
                members = stand_in.members.get(counted.group(2))
                if members is None or counted.group(2)[0] != (
                    "C" if counted.group(1) == "group" else "R"
                ):
                    return self.send_json(404, {"message": "Not found"}, {})
                return self.send_json(200, {"count": members}, {})
            if not self._chat("GET"):
                self.send_json(404, {"message": "Not found"}, {})
            return None

    return Handler
