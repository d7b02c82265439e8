"""Where a chat's rows go when the chat changes under them, on every store (SQLite,
PostgreSQL, Supabase): issue 29's findings about a chat removed from hunter.toml, a group the
bot left, and a webhook event holding a NUL. hunter's real poller and deliverer, a local
board, a scripted LINE and a fake clock; the store is the real one."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any

from hunter.app.service import Hunter
from hunter.chat import Chat, Inbox
from hunter.deliver.channel import ChatEvent
from hunter.deliver.outcome import Kind, PushResult
from hunter.errors import ChatGone
from hunter.settings.config import Config, parse_config
from hunter.store.base import Store
from tests.support.board import Board, html_source
from tests.support.line_standin import TO, titles_of
from tests.support.scripted import Clock, ScriptedSender
from tests.support.webhook import BOT, event, receive, signature

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
GROUP = "C" + "a1" * 16


class Line(ScriptedSender):
    """A scripted LINE that can say the bot left the group, and counts what it is asked."""

    def __init__(self) -> None:
        super().__init__()
        self.member_counts = {GROUP: 4}
        self.left: set[str] = set()
        self.counted = 0
        self.replies: list[list[dict[str, Any]]] = []

    def members(self, to: str) -> int:
        self.counted += 1
        if to in self.left:  # LINE answers 404 to the member count of a group the bot left
            raise ChatGone(f"LINE says the bot is not in {to} (HTTP 404)")
        return super().members(to)

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        self.replies.append(messages)
        return PushResult(Kind.SENT, 200)

    def titles_to(self, to: str) -> list[str]:
        return [
            title
            for (_key, messages), where in zip(self.pushes, self.to, strict=True)
            if where == to
            for title in titles_of({"messages": messages})
        ]


def configure(url: str, chats: bool = True) -> Config:
    group = [{"name": "design", "to": GROUP, "include": ["python"]}] if chats else []
    return parse_config(
        {
            "sources": [html_source("a", url)],
            "filter": {"include": ["python"]},
            "chats": group,
            "backoff_seconds": [600, 600, 600, 600, 600],  # a retry is the next poll's
        }
    )


def hunter_for(config: Config, store: Store, line: Line, clock: Clock) -> Hunter:
    return Hunter(config, store, line, clock, "w", threading.Event(), line_to=TO)


def test_rows_of_a_removed_chat_are_held_never_sent_to_the_owner(
    store: Store, board: Board
) -> None:
    """Finding 3: a group's rows wait to be retried; the group is removed from hunter.toml;
    the next poll pushed them to LINE_TO (which had them already)."""
    url = board.serve_jobs("/a", [("seed", "seed")])
    clock, line = Clock(T0), Line()
    hunter_for(configure(url), store, line, clock).poll()  # primes
    board.serve_jobs("/a", [("seed", "seed"), ("1", "python one"), ("2", "python two")])
    line.script = [PushResult(Kind.SENT, 200), PushResult(Kind.TRANSIENT, 500, "outage")]
    clock.advance(1800)
    hunter_for(configure(url), store, line, clock).poll()
    states = store.outbox.job_states()
    assert states["a:1#design"] == states["a:2#design"] == "retry"
    assert line.titles_to(TO) == ["python one", "python two"]
    clock.advance(1800)
    hunter_for(configure(url, chats=False), store, line, clock).poll()  # design removed
    assert line.titles_to(TO) == ["python one", "python two"]  # nothing twice
    states = store.outbox.job_states()
    assert states["a:1#design"] == states["a:2#design"] == "stuck"
    errors = {row.job_id: row.last_error for row in store.outbox.rows(10)}
    assert "no longer in hunter.toml" in (errors["a:1#design"] or "")


def test_a_group_the_bot_left_waits_and_the_owner_is_told_once(store: Store, board: Board) -> None:
    """Finding 8: LINE answers 404 to the member count of a group the bot left, and 400 to
    its pushes; each poll made 23 refused pushes. Now its rows wait, no push to it is tried,
    the owner hears it once, and the rows go out when the bot is back."""
    url = board.serve_jobs("/a", [("seed", "seed")])
    clock, line = Clock(T0), Line()
    hunter = hunter_for(configure(url), store, line, clock)
    hunter.poll()
    line.left.add(GROUP)
    jobs = [("seed", "seed")]
    for n in range(3):  # three polls, 4 new listings each
        jobs += [(f"{n}{k}", f"python {n}{k}") for k in range(4)]
        board.serve_jobs("/a", jobs)
        clock.advance(1800)
        hunter.poll()
    assert line.titles_to(GROUP) == []  # not one push tried
    assert line.counted == 1  # asked once, then kept as gone for a day
    told = [t for t in line.titles_to(TO) if "no longer in chat design" in t]
    assert len(told) == 1
    states = store.outbox.job_states()
    assert [s for j, s in states.items() if j.endswith("#design")] == ["pending"] * 12
    assert store.pace.chats()["design"].gone
    chat = Chat(hunter.config, store, line, TO, clock, "w")
    line.left.clear()  # the bot is invited back: LINE's join event
    chat.handle(ChatEvent("J1", "join", GROUP, "rt", at=clock()))
    clock.advance(1800)
    hunter.poll()
    assert len(line.titles_to(GROUP)) == 12 and not store.pace.chats()["design"].gone


def received(store: Store, board: Board, *events: dict[str, Any]) -> tuple[int, Line, Clock]:
    """The webhook's answer to one signed request of `events`, once its events are answered;
    the scripted LINE that got the replies."""
    url = board.serve_jobs("/a", [("seed", "seed")])
    clock, line = Clock(datetime.now(UTC)), Line()
    inbox = Inbox(Chat(configure(url), store, line, TO, clock, "w"), "w", clock)
    try:
        # json.dumps escapes a lone surrogate as \ud800, as a JSON sender may
        body = json.dumps({"destination": BOT, "events": list(events)}).encode()
        status = receive(inbox, body, signature(body))
        assert inbox.wait_idle(10)
    finally:
        inbox.stop(0)
    return status, line, clock


def test_text_no_store_keeps_never_refuses_the_request(store: Store, board: Board) -> None:
    """Finding 6: on PostgreSQL a signed event whose text held U+0000 got a 500, every event
    of its request was refused, and LINE's redelivery met the same error each time. A lone
    surrogate did the same on SQLite (it cannot encode one)."""
    status, line, clock = received(
        store,
        board,
        event("message", TO, "r1", text="ทำไม abc\u0000def"),
        event("message", TO, "r2", text="ทำไม \ud800 lone"),
        event("message", TO, "r3", text="เพิ่ม django"),
    )
    assert status == 200 and len(line.replies) == 3
    assert store.chat.rules(clock())[""].added == ("django",)


def test_an_event_the_database_refuses_costs_the_others_nothing(store: Store, board: Board) -> None:
    """An event id past PostgreSQL's key size is refused by the database (SQLite keeps it):
    the request's other events are still kept and answered, and LINE gets its 200."""
    huge = event("message", TO, "r1", text="สถานะ", event_id="E" * 10_000)
    status, line, clock = received(store, board, huge, event("message", TO, "r2", text="เพิ่ม go"))
    assert status == 200
    assert store.chat.rules(clock())[""].added == ("go",)
    assert len(line.replies) >= 1
