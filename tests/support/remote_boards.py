"""Stand-ins for the remote and freelance boards' public APIs, answering as
shared/sources/README.md says the real ones do (each rule below names its fact). One server
holds all four, told apart by path:

- Freelancer.com, GET /api/projects/0.1/projects/active/ (freelancer-sdk-python): answers
  {"status": "success", "result": {"projects", "total_count"}}; `query` searches, `limit` and
  `offset` page, `sort_field=time_submitted&reverse_sort=true` gives the newest first (else
  oldest first). With `needs_token`, a request without the `freelancer-oauth-v1` header is
  refused 401 in the SDK's error shape {"status": "error", "message", "error_code"}: the SDK
  asks for a token, and whether the live API does is unconfirmed.
- Himalayas, GET /jobs/api (browse, newest first) and /jobs/api/search (`q`; relevance order
  unless `sort=recent`): at most 20 jobs a request (its clients), {"jobs": [...]}. As answers
  recorded in 2026-07 and 2026-09 show: a top-level `nextCursor` (null on the last page) that
  `cursor=` continues from, `comments` saying offset paging is deprecated (2026-08-21; offset
  still answers), and jobs whose minSalary, maxSalary and currency may all be null.
- Remotive, GET /api/remote-jobs (`search`, `limit`): the answer's first key is
  "0-legal-notice", jobs in `jobs`, their `salary` free text that never states a period (a
  2026-07 answer). More than 2 requests a minute are blocked (its terms): the third in a
  minute gets 429. `clock` is the test's clock, so a minute is the test's.
- Jobicy, GET /api/v2/remote-jobs (`count` 1-50, `geo`, `industry`, `tag`): an unknown `geo` or
  `industry` slug is refused with 400 (the recorded answer of go-api-libs/jobicy). It answers
  as apiVersion 2.2.16 did in 2026-09; the jobs a test gives carry the fields of their year
  (2026: salaryMin, salaryMax numbers and salaryPeriod "yearly"; 2024: annualSalaryMin/Max).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.support.local_server import LocalServer, QuietHandler

# A few of Jobicy's slugs, enough to tell a known one from an unknown one.
JOBICY_GEOS = {"apac", "asia", "emea", "latam", "usa", "canada", "uk", "europe", "thailand"}
JOBICY_INDUSTRIES = {"dev", "design-multimedia", "marketing", "data-science", "copywriting"}


@dataclass
class RemoteBoards:
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    freelancer: list[dict[str, Any]] = field(default_factory=list)  # newest first
    himalayas: list[dict[str, Any]] = field(default_factory=list)  # newest first
    remotive: list[dict[str, Any]] = field(default_factory=list)  # newest first
    jobicy: list[dict[str, Any]] = field(default_factory=list)  # newest first
    needs_token: bool = False  # Freelancer refuses a request without its OAuth header
    asked: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (board, query)
    refused: list[str] = field(default_factory=list)  # boards that refused a request

    def __post_init__(self) -> None:
        boards = self
        remotive_times: list[datetime] = []

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                route = ROUTES.get(parts.path)
                if route is None:
                    return self.send_json(404, {"message": "Not found"})
                boards.asked.append((route, query))
                status, body = getattr(boards, f"_{route}")(self, query, remotive_times)
                if status >= 400:
                    boards.refused.append(route)
                return self.send_json(status, body)

        self._server = LocalServer(Handler)
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()

    def _freelancer(self, handler: QuietHandler, query: dict[str, str], _: Any) -> Answer:
        if self.needs_token and not handler.headers.get("freelancer-oauth-v1"):
            return 401, {
                "status": "error",
                "message": "You must be authenticated to perform this request",
                "error_code": "AuthExceptionCodes.NOT_AUTHENTICATED",
            }
        found = [p for p in self.freelancer if _has(p["title"], query.get("query"))]
        newest_first = query.get("sort_field") == "time_submitted" and query.get("reverse_sort")
        if not newest_first:
            found = found[::-1]
        limit, offset = int(query.get("limit", 10)), int(query.get("offset", 0))
        shown = found[offset : offset + limit]
        return 200, {"status": "success", "result": {"projects": shown, "total_count": len(found)}}

    def _himalayas(self, _h: QuietHandler, query: dict[str, str], _: Any) -> Answer:
        limit = min(int(query.get("limit", 20)), 20)  # at most 20 a request
        # The cursor is opaque to a client; here it is the next job's guid, base-16.
        cursor = query.get("cursor")
        if cursor:
            guid = bytes.fromhex(cursor).decode()
            start = next((i for i, j in enumerate(self.himalayas) if j["guid"] == guid), 0)
        else:
            start = int(query.get("offset", 0))
        shown = self.himalayas[start : start + limit]
        after = self.himalayas[start + limit : start + limit + 1]
        return 200, {
            "comments": "Offset-based pagination is deprecated as of 2026-08-21; use the "
            "nextCursor value as the cursor parameter.",
            "jobs": shown,
            "nextCursor": after[0]["guid"].encode().hex() if after else None,
            "totalCount": len(self.himalayas),
            "limit": limit,
        }

    def _himalayas_search(self, _h: QuietHandler, query: dict[str, str], _: Any) -> Answer:
        found = [j for j in self.himalayas if _has(j["title"], query.get("q"))]
        if query.get("sort") != "recent":
            found = sorted(found, key=lambda j: j["title"])  # "relevance"
        limit = min(int(query.get("limit", 20)), 20)
        return 200, {"jobs": found[:limit], "totalCount": len(found), "limit": limit}

    def _remotive(self, _h: QuietHandler, query: dict[str, str], times: list[datetime]) -> Answer:
        now = self.clock()
        times[:] = [t for t in times if now - t < timedelta(minutes=1)] + [now]
        if len(times) > 2:  # "more than 2 a minute is blocked"
            return 429, {"error": "Too many requests"}
        found = [j for j in self.remotive if _has(j["title"], query.get("search"))]
        shown = found[: int(query.get("limit", len(found)))]
        notice = "Remotive API Legal Notice: link back to the job's URL on Remotive"
        return 200, {"0-legal-notice": notice, "job-count": len(shown), "jobs": shown}

    def _jobicy(self, _h: QuietHandler, query: dict[str, str], _: Any) -> Answer:
        geo, industry = query.get("geo"), query.get("industry")
        if (geo and geo not in JOBICY_GEOS) or (industry and industry not in JOBICY_INDUSTRIES):
            return 400, {"success": False, "message": "Invalid parameter value"}
        count = min(int(query.get("count", 50)), 50)  # 1-50; what it does past 50 is unrecorded
        found = [j for j in self.jobicy if _has(j["jobTitle"], query.get("tag"))]
        return 200, {
            "apiVersion": "2.2.16",
            "success": True,
            "jobCount": count,
            "jobs": found[:count],
        }


Answer = tuple[int, Any]
ROUTES = {
    "/api/projects/0.1/projects/active/": "freelancer",
    "/jobs/api": "himalayas",
    "/jobs/api/search": "himalayas_search",
    "/api/remote-jobs": "remotive",
    "/api/v2/remote-jobs": "jobicy",
}


def _has(title: str, keyword: str | None) -> bool:
    return not keyword or keyword.casefold() in title.casefold()
