"""The chat side of the LINE stand-in: replies and rich menus, as LINE documents them.

- `POST /v2/bot/message/reply`: checked like a push (LINE's OpenAPI ReplyMessageRequest when
  ../shared has it, and always the documented size limits); a reply token works once, and only
  one LINE issued (here: `issue_token`, used by the webhook events a test sends). Replies are
  not counted in the month's quota (LINE's "how to count messages").
- Rich menus: create (RichMenuRequest), list, get, delete, upload the image (a PNG or JPEG of
  the menu's exact size, at most 1 MB: LINE's "rich menu image requirements"), set and get the
  default. Setting a default needs the image first, as LINE answers 400 otherwise.
Faults on demand for the next replies in order (`reply_script`): an HTTP status (the reply is
not taken), ("slow", seconds) (taken, answered that much later), "drop" (taken, the connection
closed without an answer), "html" (taken, answered 200 with a proxy's HTML page) or "trickle"
(taken, answered 200 with a body a byte every two seconds). A reply that is taken counts as
delivered whatever its answer: LINE shows it.
"""

from __future__ import annotations

import json
import re
import struct
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

from tests.support.line_limits import limit_errors
from tests.support.line_spec import spec_available, spec_errors

IMAGE_MAX = 1024 * 1024
Answer = tuple[int, Any]


@dataclass
class Reply:
    token: str
    body: dict[str, Any]
    status: int

    @property
    def texts(self) -> list[str]:
        return [m.get("text", "") for m in self.body.get("messages", []) if m["type"] == "text"]


@dataclass
class LineChat:
    check_spec: bool = True
    replies: list[Reply] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    menus: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> RichMenuResponse
    images: dict[str, bytes] = field(default_factory=dict)
    default_menu: str | None = None
    reply_script: list[Any] = field(default_factory=list)
    _tokens: dict[str, bool] = field(default_factory=dict)  # issued token -> used
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.validate_spec = self.check_spec and spec_available()

    def issue_token(self) -> str:
        token = uuid.uuid4().hex
        with self.lock:
            self._tokens[token] = False
        return token

    @property
    def accepted(self) -> list[Reply]:
        return [r for r in self.replies if r.status == 200]

    def answer(self, method: str, path: str, headers: Any, raw: bytes) -> Answer | None:
        """LINE's answer to a chat-side request, or None for a path this part does not serve."""
        route = (method, re.sub(r"/richmenu-[0-9a-f]+", "/{id}", path))
        menu_id = m.group(0)[1:] if (m := re.search(r"/richmenu-[0-9a-f]+", path)) else ""
        handlers = {
            ("POST", "/v2/bot/message/reply"): lambda: self._reply(raw),
            ("POST", "/v2/bot/richmenu"): lambda: self._create(raw),
            ("GET", "/v2/bot/richmenu/list"): lambda: (
                200,
                {"richmenus": list(self.menus.values())},
            ),
            ("GET", "/v2/bot/richmenu/{id}"): lambda: self._menu(menu_id),
            ("DELETE", "/v2/bot/richmenu/{id}"): lambda: self._delete(menu_id),
            ("POST", "/v2/bot/richmenu/{id}/content"): lambda: self._image(menu_id, headers, raw),
            ("POST", "/v2/bot/user/all/richmenu/{id}"): lambda: self._set_default(menu_id),
            ("GET", "/v2/bot/user/all/richmenu"): self._get_default,
        }
        handler = handlers.get(route)
        return None if handler is None else handler()

    def _reply(self, raw: bytes) -> Answer:
        try:
            body = json.loads(raw)
        except ValueError:
            return 400, {"message": "The request body could not be parsed as JSON"}
        problems = limit_errors(body, len(raw))
        if self.validate_spec:
            problems += spec_errors("ReplyMessageRequest", body)
        token = body.get("replyToken") if isinstance(body, dict) else None
        with self.lock:
            if problems:
                self.violations.extend(problems)
                self.replies.append(Reply(str(token), body, 400))
                return 400, {"message": "The request body has 1 error(s)"}
            if token not in self._tokens or self._tokens[token]:
                self.replies.append(Reply(str(token), body, 400))
                return 400, {"message": "Invalid reply token"}
            fault = self.reply_script.pop(0) if self.reply_script else None
            if isinstance(fault, int):
                self.replies.append(Reply(token, body, fault))
                return fault, {"message": "An error occurred in the backend server"}
            self._tokens[token] = True
            self.replies.append(Reply(token, body, 200))
        answer = {"sentMessages": [{"id": str(n)} for n in range(len(body["messages"]))]}
        if isinstance(fault, tuple) and fault[0] == "slow":
            return -5, {"after": fault[1], "body": answer}
        if fault in ("drop", "html", "trickle"):
            return {"drop": -1, "html": -3, "trickle": -4}[fault], {}
        return 200, answer

    def _create(self, raw: bytes) -> Answer:
        body = json.loads(raw)
        problems = spec_errors("RichMenuRequest", body) if self.validate_spec else []
        if problems:
            self.violations.extend(problems)
            return 400, {"message": "The request body has 1 error(s)"}
        menu_id = f"richmenu-{uuid.uuid4().hex}"
        with self.lock:
            self.menus[menu_id] = {"richMenuId": menu_id, **body}
        return 200, {"richMenuId": menu_id}

    def _menu(self, menu_id: str) -> Answer:
        if menu_id not in self.menus:
            return 404, {"message": "Not found"}
        return 200, self.menus[menu_id]

    def _delete(self, menu_id: str) -> Answer:
        with self.lock:
            if self.menus.pop(menu_id, None) is None:
                return 404, {"message": "Not found"}
            self.images.pop(menu_id, None)
            if self.default_menu == menu_id:
                self.default_menu = None
        return 200, {}

    def _image(self, menu_id: str, headers: Any, raw: bytes) -> Answer:
        menu = self.menus.get(menu_id)
        if menu is None:
            return 404, {"message": "Not found"}
        if menu_id in self.images:
            return 400, {"message": "An image has already been uploaded to the richmenu"}
        if headers.get("Content-Type") not in ("image/png", "image/jpeg") or len(raw) > IMAGE_MAX:
            return 400, {"message": "Invalid image"}
        if raw[:8] == b"\x89PNG\r\n\x1a\n":
            width, height = struct.unpack(">II", raw[16:24])
            if (width, height) != (menu["size"]["width"], menu["size"]["height"]):
                return 400, {"message": "Image size does not match the rich menu size"}
        self.images[menu_id] = raw
        return 200, {}

    def _set_default(self, menu_id: str) -> Answer:
        if menu_id not in self.menus:
            return 404, {"message": "Not found"}
        if menu_id not in self.images:
            return 400, {"message": "must upload richmenu image before applying it to user"}
        self.default_menu = menu_id
        return 200, {}

    def _get_default(self) -> Answer:
        if self.default_menu is None:
            return 404, {"message": "no default richmenu"}
        return 200, {"richMenuId": self.default_menu}
