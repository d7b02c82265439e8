"""JSON over POST: a json source with a `body` sends it as JSON (JobThai's GraphQL search is
read this way, shared/sources), "{page}" in it paging; against a local board that answers as
an Apollo server with CSRF prevention does (a POST that is not JSON gets 400). The first read
primes silently, a new post is alerted once with its page's link, and a refusal or a redirect
is a failed read with its reason, never "no jobs"."""

from __future__ import annotations

import json
import re
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.errors import ConfigError, SourceError
from hunter.settings.config import parse_config
from hunter.sources.json import parse_json
from hunter.sources.reader import read_sources
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board
from tests.support.line_standin import titles_of
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
QUERY = (
    "query($page: Int, $keyword: String) { searchJobs(filter: {page: $page, keyword: $keyword}) }"
)


def answer(*jobs: tuple[int, str]) -> str:
    """A searchJobs answer in the shape shared/sources/README.md gives for JobThai."""
    items = [{"id": n, "jobTitle": title, "salary": "ตามตกลง"} for n, title in jobs]
    return json.dumps({"data": {"searchJobs": {"data": {"data": items, "total": len(items)}}}})


def source(url: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": "jobthai",
        "kind": "json",
        "url": url,
        "body": {"query": QUERY, "variables": {"page": "{page}", "keyword": "python"}},
        "items": "data.searchJobs.data.data",
        "id": "id",
        "title": "jobTitle",
        "link": "https://www.jobthai.com/th/job/{id}",
        **extra,
    }


def test_a_graphql_search_is_posted_as_json_primed_then_alerted_once(
    store: SQLiteStore, board: Board
) -> None:
    url = board.serve(
        "/graphql", answer((1, "python dev")), kind="application/json", json_only=True
    )
    config = parse_config({"sources": [source(url)], "filter": {"include": ["python"]}})
    clock, line = Clock(T0), ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()
    assert line.pushes == []  # the first read primes
    _path, kind, body = board.posted[-1]
    assert kind.startswith("application/json")
    assert body == {"query": QUERY, "variables": {"page": 1, "keyword": "python"}}
    board.serve(
        "/graphql",
        answer((1, "python dev"), (2, "python api")),
        kind="application/json",
        json_only=True,
    )
    clock.advance(1800)
    hunter.poll()
    clock.advance(1800)
    hunter.poll()
    [(_key, messages)] = line.pushes
    assert titles_of({"messages": messages}) == ["python api"]
    assert "https://www.jobthai.com/th/job/2" in json.dumps(messages)


def test_pages_are_posted_with_their_number(board: Board) -> None:
    url = board.serve("/graphql", answer((1, "a")), kind="application/json")
    config = parse_config({"sources": [source(url, pages=2)]})
    [read] = read_sources(list(config.sources), {}, 10, T0)
    assert [body["variables"]["page"] for _p, _k, body in board.posted] == [1, 2]
    assert read.error is None


@pytest.mark.parametrize(
    ("status", "kind", "reason"),
    [
        (400, "application/json", "HTTP 400"),  # the server refused the query
        (200, "text/html", "not JSON"),  # a page instead of an answer
        (307, "text/html", "the POST was redirected"),
    ],
)
def test_a_refused_post_is_a_failed_read_with_its_reason(
    board: Board, status: int, kind: str, reason: str
) -> None:
    headers = {"Location": "/elsewhere"} if status == 307 else {}
    url = board.serve("/graphql", "<html>busy</html>", kind=kind, status=status, headers=headers)
    config = parse_config({"sources": [source(url)]})
    [read] = read_sources(list(config.sources), {}, 10, T0)
    assert read.error is not None and reason in read.error and not read.listings


def test_a_body_must_be_a_table() -> None:
    with pytest.raises(ConfigError, match="body must be a table"):
        parse_config({"sources": [source("https://x.test/graphql", body="query { x }")]})
    with pytest.raises(ConfigError, match=r"needs \{page\} in the url \(or the body\)"):
        parse_config({"sources": [source("https://x.test/graphql", pages=2, body={"q": 1})]})


@pytest.mark.parametrize(
    ("answered", "reason"),
    [
        # GraphQL's execution errors come with 200: the message, not "no list at items"
        (
            {"errors": [{"message": "Unexpected error value: timeout"}], "data": None},
            "the site answered with an error: Unexpected error value: timeout",
        ),
        # Freelancer's error shape (freelancer-sdk-python)
        (
            {"status": "error", "message": "Invalid project_types", "error_code": "x"},
            "the site answered with an error: Invalid project_types",
        ),
        ({"data": {"other": []}}, "does not lead to a list in the response"),
    ],
)
def test_an_answer_holding_an_error_is_a_failed_read_with_its_message(
    answered: dict[str, Any], reason: str
) -> None:
    [spec] = parse_config({"sources": [source("https://board.test/v1/graphql")]}).sources
    with pytest.raises(SourceError, match=re.escape(reason)):
        parse_json(spec, json.dumps(answered), spec.url, T0)
