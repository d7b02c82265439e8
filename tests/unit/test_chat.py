"""The chat's decisions on a real SQLite store with a fake clock and a scripted LINE: how long
a mute lasts, what a failed reply does with the listings it carried, what "dismiss" stops.
The same paths through the CLI, PostgreSQL and signed webhook calls are in tests/e2e."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hunter.chat import Chat, Inbox
from hunter.config import parse_config
from hunter.line.webhook import BadRequest, ChatEvent, parse
from hunter.policy import Kind, PushResult
from hunter.service import Hunter
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import TO
from tests.support.scripted import Clock, ScriptedSender
from tests.support.webhook import SECRET, event, payload, signature

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)


class Replier(ScriptedSender):
    def __init__(self) -> None:
        super().__init__()
        self.replies: list[list[dict[str, Any]]] = []
        self.answer = PushResult(Kind.SENT, 200)

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        self.replies.append(messages)
        return self.answer


def tap(data: str, n: int) -> ChatEvent:
    return ChatEvent(f"E{n}", "postback", TO, f"token{n}", data=data)


def test_a_mute_lasts_30_days(store: SQLiteStore, board: Board) -> None:
    url = board.serve_jobs("/jobs", [("seed", "seed")])
    config = parse_config(
        {"sources": [html_source("b", url)], "filter": {"include": ["python", "django"]}}
    )
    clock, sender, replier = Clock(T0), ScriptedSender(), Replier()
    hunter = Hunter(config, store, sender, clock, "w", threading.Event())
    chat = Chat(config, store, replier, TO, clock, "w")
    hunter.poll()  # primes
    chat.handle(tap("mute python", 1))
    assert "python" in replier.replies[0][0]["text"]
    shown = [("seed", "seed")]

    def appear(job: str, title: str, days: float) -> str:
        clock.now = T0 + timedelta(days=days)
        shown.append((job, title))
        board.serve_jobs("/jobs", shown)
        hunter.poll()
        return store.job_states()[f"b:{job}"]

    assert appear("1", "python scraper", 29) == "ignored"
    assert appear("2", "python and django api", 29.5) == "sent"  # another keyword still wants it
    assert appear("3", "python bot", 30.1) == "sent"  # the mute ran out
    assert len(sender.pushes) == 2


def test_a_failed_reply_puts_the_listings_back_to_waiting(store: SQLiteStore) -> None:
    from hunter.listing import Listing

    store.record("a", [Listing("a:seed", "a", "seed", "https://x.test/")], set(), T0)
    jobs = [Listing(f"a:{n}", "a", f"job {n}", "https://x.test/") for n in range(3)]
    store.record("a", jobs, {j.job_id for j in jobs}, T0)
    config = parse_config({"sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}]})
    replier = Replier()
    replier.answer = PushResult(Kind.TRANSIENT, None, "no complete answer within 30 s")
    chat = Chat(config, store, replier, TO, Clock(T0), "w")
    chat.handle(ChatEvent("E1", "message", TO, "token1", text="งานใหม่"))
    assert len(replier.replies) == 1
    assert {k: v for k, v in store.job_states().items() if k != "a:seed"} == dict.fromkeys(
        [j.job_id for j in jobs], "pending"
    )
    replier.answer = PushResult(Kind.SENT, 200)
    chat.handle(ChatEvent("E2", "message", TO, "token2", text="new"))
    assert set(store.job_states().values()) == {"primed", "sent"}
    chat.handle(ChatEvent("E2", "message", TO, "token2", text="new"))  # redelivered
    assert len(replier.replies) == 2


def test_dismissed_listings_never_go_out_even_after_retry(store: SQLiteStore) -> None:
    from hunter.listing import Listing

    store.record("a", [Listing("a:seed", "a", "seed", "https://x.test/")], set(), T0)
    store.record("a", [Listing("a:1", "a", "job", "https://x.test/")], {"a:1"}, T0)
    config = parse_config({"sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}]})
    replier = Replier()
    chat = Chat(config, store, replier, TO, Clock(T0), "w")
    chat.handle(tap("dismiss a:1", 1))
    assert store.job_states()["a:1"] == "ignored"
    assert store.retry_stuck(None) == [] and store.count_pending() == 0
    chat.handle(tap("applied a:1", 2))
    [marked] = store.marks("applied")
    assert marked.listing.title == "job" and store.marks("dismissed") == []
    chat.handle(tap("dismiss a:unknown", 3))
    assert "no longer known" in replier.replies[-1][0]["text"]


def test_the_webhook_parser_refuses_a_tampered_body() -> None:
    body = payload(event("message", "C" + "1" * 32, "tok", text="new"))
    [parsed] = parse(body, signature(body), SECRET)
    assert (parsed.kind, parsed.chat_id, parsed.text) == ("message", "C" + "1" * 32, "new")
    tampered = body.replace(b"new", b"old")
    with pytest.raises(BadRequest, match="signature"):
        parse(tampered, signature(body), SECRET)
    with pytest.raises(BadRequest, match="signed but unreadable"):
        parse(b"[1, 2]", signature(b"[1, 2]"), SECRET)


def test_a_database_gone_mid_chat_costs_one_log_line_not_the_chat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """LINE already has its 200 (the answer does not wait for the work): the event is dropped
    with one line saying why, and the worker goes on answering."""
    store = SQLiteStore(tmp_path / "gone.db")
    store.migrate()
    config = parse_config({"sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}]})
    replier = Replier()
    inbox = Inbox(SECRET, Chat(config, store, replier, TO, Clock(T0), "w"))
    (tmp_path / "gone.db").unlink()  # a cleanup took the file away under the running bot
    body = payload(event("message", TO, "tok", text="new"))
    assert inbox.receive(body, signature(body)) == 200
    inbox.wait_idle()
    [line] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "could not answer a message webhook event" in line.getMessage()
    assert "deleted or replaced" in line.getMessage() and line.exc_info is None
    assert replier.replies == []
    assert inbox.receive(b"{}", "bad") == 400  # and it is still there for the next request
    store.close()
