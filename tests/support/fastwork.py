"""A Fastwork job-board API stand-in on 127.0.0.1, as measured live on 2026-08-24 by a public
scanner (repository Phakinza007/my-portfolio, `_tools/jobscan`; see shared/sources/README.md):

- `GET /api/jobs` answers {"data": [...], "meta": {"total_count", "total_pages"}}, honouring
  `page`, `page_size`, `order_by[]=inserted_at` with `order_directions[]=desc` (newest first);
- the category filter is spelled exactly `filters[0][field]=tag_id&filters[0][value]=<uuid>`;
  the spellings `tag`, `tag_ids`, `tag.id` and `tag_name` answer 400;
- `GET /api/tags` answers {"data": [{"id", "name", "sort"}]};
- records carry the 2026 field names: `budget` and `budget_2` are strings ("0": not stated),
  `type`, `tag`, `freelance_offers_count`, `inserted_at`, `expired_at`, `deadline_at`;
- `fail_next` answers the next requests 500, as the real API did minutes after a 200.

What it does not model: the fields hunter does not read, and paging beyond the requested page.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.support.local_server import LocalServer, QuietHandler

REJECTED_FILTERS = ("tag", "tag_ids", "tag.id", "tag_name")


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class FastworkStandIn:
    tags: dict[str, str] = field(default_factory=dict)  # name -> uuid
    posts: list[dict[str, Any]] = field(default_factory=list)
    fail_next: int = 0  # the next requests answer 500
    tags_answer: Any = None  # when set, /api/tags answers this instead (a changed API)
    requests: list[dict[str, str]] = field(default_factory=list)  # query of each jobs request

    def __post_init__(self) -> None:
        for name in ("เว็บไซต์", "กราฟิก", "เขียนบทความ", "การตลาด"):
            self.tags[name] = str(uuid.uuid4())
        self._server = LocalServer(_handler(self))
        self.url = self._server.url + "/api/jobs"

    def close(self) -> None:
        self._server.close()

    def post(
        self,
        title: str,
        category: str,
        minutes_ago: float = 0,
        budget: str = "5000",
        budget_2: str | None = None,
        offers: int = 0,
        kind: str = "freelance",
        status: str = "open",
    ) -> str:
        """Add a post, `minutes_ago` before now (hunter compares with its own clock); its id."""
        inserted = datetime.now(UTC) - timedelta(minutes=minutes_ago)
        post_id = str(uuid.uuid4())
        record: dict[str, Any] = {
            "id": post_id,
            "title": title,
            "description": f"รายละเอียดงาน {title}",
            "status": status,
            "budget": budget,
            "type": kind,
            "tag": {"id": self.tags[category], "name": category, "sort": 1},
            "inserted_at": iso(inserted),
            "updated_at": iso(inserted),
            "expired_at": iso(inserted + timedelta(days=30)),
            "deadline_at": iso(inserted + timedelta(days=7)),
            "freelance_offers_count": offers,
            "require_english_speaker": False,
            "is_fastwork_pick": False,
        }
        if budget_2 is not None:
            record["budget_2"] = budget_2
        self.posts.append(record)
        return post_id

    def answer(self, path: str, query: list[tuple[str, str]]) -> tuple[int, Any]:
        if self.fail_next > 0:
            self.fail_next -= 1
            return 500, {"message": "Internal Server Error"}
        if path.endswith("/api/tags") and self.tags_answer is not None:
            return 200, self.tags_answer
        if path.endswith("/api/tags"):
            data = [{"id": i, "name": n, "sort": k} for k, (n, i) in enumerate(self.tags.items())]
            return 200, {"data": data}
        if not path.endswith("/api/jobs"):
            return 404, {"message": "Not Found"}
        params = dict(query)
        self.requests.append(params)
        if any(name in params for name in REJECTED_FILTERS) or (
            "filters[0][value]" in params and params.get("filters[0][field]") != "tag_id"
        ):
            return 400, {"message": "Bad Request"}
        posts = list(self.posts)
        if params.get("filters[0][field]") == "tag_id":
            posts = [p for p in posts if p["tag"]["id"] == params.get("filters[0][value]")]
        if params.get("order_by[]") == "inserted_at":
            newest_first = params.get("order_directions[]") == "desc"
            posts.sort(key=lambda p: str(p["inserted_at"]), reverse=newest_first)
        size = int(params.get("page_size", "20"))
        page = int(params.get("page", "1"))
        chunk = posts[(page - 1) * size : page * size]
        pages = max(1, -(-len(posts) // size))
        return 200, {"data": chunk, "meta": {"total_count": len(posts), "total_pages": pages}}


def _handler(stand_in: FastworkStandIn) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            status, body = stand_in.answer(parts.path, parse_qsl(parts.query))
            self.send_json(status, body)

    return Handler
