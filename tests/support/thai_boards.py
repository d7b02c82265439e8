"""Stand-ins for JobThai's GraphQL search and JobsDB Thailand's job search API, answering as
shared/sources/README.md says the real ones do (each rule below names its fact):

- JobThai: POST /v1/graphql, JSON only (Apollo's CSRF prevention answers any other POST 400);
  searchJobs(filter: {keyword, page, size, l, ...}) ordered newest first (a filter field it
  does not define is a 400 with GraphQL's `errors`, as any GraphQL server answers), results at
  data.searchJobs.data.data with `total`; `salary` is Thai free text.
- JobsDB: GET /api/jobsearch/v5/search; `sourcesystem` is required (400 without it);
  `pageSize` over 100 answers an HTML page instead of JSON; `sortmode=ListedDate` gives the
  newest first (the default is relevance); `keywords` searches titles here; results in `data`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.support.local_server import LocalServer, QuietHandler

# searchJobs' filter fields (shared/sources/README.md, from ats-scrapers' query).
JOBTHAI_FILTER = {
    "keyword", "province", "jobtype", "subjobtype", "page", "size", "l", "wfh", "salarymin",
    "salarymax",
}  # fmt: skip


@dataclass
class ThaiBoards:
    jobthai: list[dict[str, Any]] = field(default_factory=list)  # newest first
    jobsdb: list[dict[str, Any]] = field(default_factory=list)  # newest first
    asked: list[tuple[str, Any]] = field(default_factory=list)  # (board, query or variables)

    def __post_init__(self) -> None:
        boards = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if urlsplit(self.path).path != "/v1/graphql":
                    return self.send_json(404, {"errors": [{"message": "Not found"}]})
                if not self.headers.get("Content-Type", "").startswith("application/json"):
                    message = "This operation has been blocked as a potential CSRF"
                    return self.send_json(400, {"errors": [{"message": message}]})
                document = json.loads(raw)
                wanted = document.get("variables", {}).get("filter", {})
                boards.asked.append(("jobthai", wanted))
                unknown = sorted(set(wanted) - JOBTHAI_FILTER)
                if unknown:  # GraphQL validates variables: an unknown input field is a 400
                    message = (
                        f'Variable "$filter" got invalid value; Field "{unknown[0]}" is not '
                        'defined by type "SearchJobsFilter".'
                    )
                    return self.send_json(400, {"errors": [{"message": message}]})
                size, page = int(wanted.get("size", 20)), int(wanted.get("page", 1))
                found = [j for j in boards.jobthai if _has(j["jobTitle"], wanted.get("keyword"))]
                shown = found[(page - 1) * size : page * size]
                answer = {"searchJobs": {"data": {"data": shown, "total": len(found)}}}
                return self.send_json(200, {"data": answer})

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                if parts.path != "/api/jobsearch/v5/search":
                    return self.send_json(404, {"message": "Not found"})
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                boards.asked.append(("jobsdb", query))
                if "sourcesystem" not in query:
                    return self.send_json(400, {"errors": [{"code": "INVALID_SOURCE_SYSTEM"}]})
                size, page = int(query.get("pageSize", 20)), int(query.get("page", 1))
                if size > 100:
                    page_html = b"<html><body>Something went wrong</body></html>"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(page_html)))
                    self.end_headers()
                    self.wfile.write(page_html)
                    return None
                found = [j for j in boards.jobsdb if _has(j["title"], query.get("keywords"))]
                if query.get("sortmode") != "ListedDate":
                    found = sorted(found, key=lambda j: j["title"])  # "relevance"
                shown = found[(page - 1) * size : page * size]
                return self.send_json(200, {"data": shown, "totalCount": len(found)})

        self._server = LocalServer(Handler)
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()


def _has(title: str, keyword: str | None) -> bool:
    return not keyword or keyword.casefold() in title.casefold()
