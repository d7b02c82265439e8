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
from hunter.words import notices
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
    states = store.outbox.job_states("design")
    assert states["a:1"] == states["a:2"] == "retry"
    assert line.titles_to(TO) == ["python one", "python two"]
    clock.advance(1800)
    hunter_for(configure(url, chats=False), store, line, clock).poll()  # design removed
    assert line.titles_to(TO) == ["python one", "python two"]  # nothing twice
    states = store.outbox.job_states("design")
    assert states["a:1"] == states["a:2"] == "stuck"
    rows = store.outbox.rows(10)
    assert sorted((row.job_id, row.chat) for row in rows) == [("a:1", "design"), ("a:2", "design")]
    errors = {row.job_id: row.last_error for row in rows}
    assert "no longer in hunter.toml" in (errors["a:1"] or "")


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
    assert line.counted == 3  # asked once a poll at most (never a push), then kept as gone
    told = [t for t in line.titles_to(TO) if "no longer in chat design" in t]
    assert len(told) == 1
    assert list(store.outbox.job_states("design").values()) == ["pending"] * 12
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


ODD_IDS = ["x#design", "y%23design", "a b#design c", "z" * 190 + "#design"]


def test_a_forged_button_never_reaches_another_chats_row(store: Store, board: Board) -> None:
    """Issue 37, medium 3: a board id ending in "#design" (the group's name). A group member's
    "dismiss a:x#design" was the owner's row's id (rows of chats were "<id>#<chat>"); since
    issue 45 a row's key is its listing and its chat, so it is the group's own row of that
    listing, and the owner's row stays pending and is sent; the owner's own dismiss of
    another listing still works. Ids with "#", "%23", spaces and 200 bytes, on every store."""
    url = board.serve_jobs("/a", [("seed", "python seed")])
    clock, line = Clock(T0), Line()
    hunter = hunter_for(configure(url), store, line, clock)
    hunter.poll()  # primes
    board.serve_jobs("/a", [("seed", "python seed"), *((i, f"python {i}") for i in ODD_IDS)])
    quiet = Hunter(
        hunter.config, store, line, clock, "w", threading.Event(), pacing=True, line_to=TO
    )
    quiet.poller.poll()  # recorded, not yet delivered
    states, the_groups = store.outbox.job_states(), store.outbox.job_states("design")
    for native in ODD_IDS:
        assert states[f"a:{native}"] == "pending"  # the owner's
        assert the_groups[f"a:{native}"] == "pending"  # the group's: no collision
    chat = Chat(hunter.config, store, line, TO, clock, "w")
    forged = ChatEvent("F1", "tap", GROUP, "rt1", data="dismiss a:x#design", at=clock())
    chat.handle(forged)
    assert store.outbox.job_states()["a:x#design"] == "pending"  # the owner's: untouched
    assert store.outbox.job_states("design")["a:x#design"] == "ignored"  # the group's own
    assert "it will not come back" in json.dumps(line.replies[-1], ensure_ascii=False)
    own = ChatEvent("F2", "tap", TO, "rt2", data="dismiss a:y%23design", at=clock())
    chat.handle(own)
    assert store.outbox.job_states()["a:y%23design"] == "ignored"  # the owner's own: taken
    clock.advance(1800)
    hunter.poll()
    sent_to_owner = line.titles_to(TO)
    assert "python x#design" in sent_to_owner and "python y%23design" not in sent_to_owner
    shown = sorted(title[:100] for title in line.titles_to(GROUP))  # a card cuts a long one
    assert shown == sorted(f"python {i}"[:100] for i in ODD_IDS if i != "x#design")


def test_a_chat_asks_why_only_of_rows_of_its_own(store: Store, board: Board) -> None:
    """Issue 37, low 7: "ทำไม" of the owner's notice, from a group, told the group the owner's
    LINE month. A chat learns nothing of hunter's notices to another chat."""
    url = board.serve_jobs("/a", [("seed", "python seed")])
    clock, line = Clock(T0), Line()
    hunter = hunter_for(configure(url), store, line, clock)
    notice = notices.quota(190, 200, clock(), "UTC", "LINE")
    assert store.outbox.enqueue(notice, clock())
    chat = Chat(hunter.config, store, line, TO, clock, "w")
    asked = f"ทำไม {notice.job_id}"
    chat.handle(ChatEvent("W1", "message", GROUP, "rt1", text=asked, at=clock()))
    said = json.dumps(line.replies[-1], ensure_ascii=False)
    assert "190" not in said and "never seen" in said
    chat.handle(ChatEvent("W2", "message", TO, "rt2", text=asked, at=clock()))
    assert "190 of this month" in json.dumps(line.replies[-1], ensure_ascii=False)  # the owner's
