"""Several chats on a real SQLite store, a local board, a scripted LINE and a fake clock: each
chat gets what its own rules match, once; a group's push costs its members; a mute, "งานใหม่"
and a card's button act for the chat they come from. The same through the CLI against the
LINE stand-in: tests/e2e/test_chats.py."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.channels.line.answers import LineError
from hunter.chat import Chat
from hunter.deliver.channel import ChatEvent
from hunter.deliver.outcome import Kind, PushResult
from hunter.errors import ConfigError
from hunter.rules.destinations import Destinations
from hunter.settings.config import Config, parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import TO, titles_of
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
GROUP = "C" + "a1" * 16
PARTNER = "U" + "b2" * 16


class Line(ScriptedSender):
    """A scripted LINE with a plan of 300 messages, a group of 4, and replies."""

    def __init__(self) -> None:
        super().__init__()
        self.quota_answer = (300, 0)
        self.member_counts = {GROUP: 4}
        self.counted: list[str] = []
        self.replies: list[list[dict[str, Any]]] = []

    def members(self, to: str) -> int:
        self.counted.append(to)
        return super().members(to)

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        self.replies.append(messages)
        return PushResult(Kind.SENT, 200)

    def titles_to(self, to: str | None) -> list[str]:
        return [
            title
            for (_key, messages), where in zip(self.pushes, self.to, strict=True)
            if where == to
            for title in titles_of({"messages": messages})
        ]


def configure(board: Board, **extra: Any) -> Config:
    a = board.serve_jobs("/a", [("seed", "seed")])
    b = board.serve_jobs("/b", [("seed", "seed")])
    return parse_config(
        {
            "sources": [html_source("a", a), html_source("b", b)],
            "filter": {"include": ["python"]},
            "chats": [
                {"name": "design", "to": GROUP, "include": ["logo", "python"]},
                {"name": "partner", "to": PARTNER, "include": ["python"], "sources": ["b"]},
            ],
            **extra,
        }
    )


@pytest.fixture
def setup(store: SQLiteStore, board: Board) -> tuple[Hunter, Line, Clock, Board]:
    clock, line = Clock(T0), Line()
    hunter = Hunter(configure(board), store, line, clock, "w", threading.Event(), line_to=TO)
    hunter.poll()  # primes both boards
    return hunter, line, clock, board


def show(board: Board, path: str, *jobs: tuple[str, str]) -> None:
    board.serve_jobs(path, [("seed", "seed"), *jobs])


def test_each_chat_gets_what_its_rules_match_once(
    setup: tuple[Hunter, Line, Clock, Board], store: SQLiteStore
) -> None:
    hunter, line, clock, board = setup
    show(board, "/a", ("1", "python scraper"), ("2", "logo for a cafe"))
    show(board, "/b", ("3", "python bot"))
    clock.advance(1800)
    hunter.poll()
    assert sorted(line.titles_to(TO)) == ["python bot", "python scraper"]
    assert sorted(line.titles_to(GROUP)) == ["logo for a cafe", "python bot", "python scraper"]
    assert line.titles_to(PARTNER) == ["python bot"]  # its only source is b
    clock.advance(1800)
    hunter.poll()  # the same page again: nothing twice
    assert len(line.pushes) == 3
    states = store.outbox.job_states()
    design, partner = store.outbox.job_states("design"), store.outbox.job_states("partner")
    assert states["a:1"] == design["a:1"] == partner["b:3"] == "sent"
    assert "a:1" not in partner and states["a:2"] == "ignored"


def test_a_push_to_a_group_costs_its_members(
    setup: tuple[Hunter, Line, Clock, Board], store: SQLiteStore
) -> None:
    hunter, line, clock, board = setup
    show(board, "/a", ("1", "python scraper"))
    clock.advance(1800)
    hunter.poll()
    state = store.pace.state()
    assert state is not None and state.pushes == 1 + 4  # the owner 1, the group of 4
    chats = store.pace.chats()
    assert (chats[""].spent, chats["design"].spent, chats["design"].members) == (1, 4, 4)
    assert line.counted == [GROUP]  # read once, then kept for a day
    show(board, "/a", ("1", "python scraper"), ("2", "python api"))
    clock.advance(6 * 3600)
    hunter.poll()
    assert line.counted == [GROUP]
    show(board, "/a", ("1", "python scraper"), ("2", "python api"), ("3", "python etl"))
    clock.advance(25 * 3600)
    hunter.poll()
    assert line.counted == [GROUP, GROUP]  # a day later: read again


def test_members_coming_or_going_make_the_count_be_read_again(
    setup: tuple[Hunter, Line, Clock, Board], store: SQLiteStore
) -> None:
    hunter, line, clock, board = setup
    show(board, "/a", ("1", "python scraper"))
    clock.advance(1800)
    hunter.poll()
    chat = Chat(hunter.config, store, line, TO, clock, "w")
    line.member_counts[GROUP] = 6
    chat.handle(ChatEvent("E1", "memberJoined", GROUP, None, at=clock.now))
    show(board, "/a", ("1", "python scraper"), ("2", "python api"))
    clock.advance(1800)
    hunter.poll()
    assert line.counted == [GROUP, GROUP]
    assert store.pace.chats()["design"].spent == 4 + 6


def test_a_mute_new_and_buttons_act_for_the_chat_they_come_from(
    setup: tuple[Hunter, Line, Clock, Board], store: SQLiteStore
) -> None:
    hunter, line, clock, board = setup
    chat = Chat(hunter.config, store, line, TO, clock, "w")
    chat.handle(ChatEvent("E1", "tap", GROUP, "t1", data="mute python", at=clock.now))
    assert "python" in line.replies[-1][0]["text"]
    assert store.chat.mutes(clock.now, "design") and not store.chat.mutes(clock.now)
    show(board, "/a", ("1", "python scraper"))
    clock.advance(1800)
    hunter.poll()
    assert line.titles_to(TO) == ["python scraper"] and line.titles_to(GROUP) == []
    # In the group, "งานใหม่" brings the group's own waiting rows, never the owner's.
    hunter.config = configure(board, quiet_hours="00:00-23:59")  # hold pushes: replies only
    hunter.deliverer.calendar = hunter.config.calendar
    show(board, "/a", ("1", "python scraper"), ("2", "logo shop"), ("3", "python etl"))
    clock.advance(1800)
    hunter.poll()
    chat.handle(ChatEvent("E2", "message", GROUP, "t2", text="งานใหม่", at=clock.now))
    states, design = store.outbox.job_states(), store.outbox.job_states("design")
    assert design["a:2"] == "sent" and states["a:3"] == "pending"
    assert "a:3" not in design  # muted in the group
    # A card's button in the group acts on the group's row only.
    chat.handle(ChatEvent("E3", "tap", GROUP, "t3", data="dismiss a:3", at=clock.now))
    assert "no longer known" in line.replies[-1][0]["text"]
    assert store.outbox.job_states()["a:3"] == "pending"
    # A card sent before schema 15 named the group's row "a:2#design": its tap still acts on
    # the group's own row of a:2.
    chat.handle(ChatEvent("E4", "tap", GROUP, "t4", data="applied a:2#design", at=clock.now))
    assert "a:2" in {m.job_id for m in store.chat.marks("applied") if m.chat == "design"}


def test_without_line_to_the_chats_get_their_rows_and_hunters_notices(
    store: SQLiteStore, board: Board
) -> None:
    clock, line = Clock(T0), Line()
    config = configure(board)
    hunter = Hunter(config, store, line, clock, "w", threading.Event(), line_to=None)
    hunter.poll()
    show(board, "/a", ("1", "python scraper"))
    clock.advance(1800)
    hunter.poll()
    states = store.outbox.job_states()
    assert states["a:1"] == "ignored" and store.outbox.job_states("design")["a:1"] == "sent"
    assert line.titles_to(None) == [] and line.titles_to(TO) == []
    board.serve("/a", "oops", status=500)
    for _ in range(config.broken_after):
        clock.advance(1800)
        hunter.poll()
    assert any(
        "stopped working" in str(m)
        for (_k, m), to in zip(line.pushes, line.to, strict=True)
        if to == GROUP
    )


def test_a_group_whose_size_line_cannot_tell_waits_and_the_owner_does_not(
    setup: tuple[Hunter, Line, Clock, Board], store: SQLiteStore
) -> None:
    """LINE's member count fails before it was ever read: the group's push would cost an
    unknown number of messages, so it waits for the next poll; the owner's goes now."""
    hunter, line, clock, board = setup
    line.member_counts.pop(GROUP)
    counts = line.members

    def failing(to: str) -> int:
        if to == GROUP:
            raise LineError("LINE did not answer within 10 s")
        return counts(to)

    line.members = failing  # type: ignore[method-assign]
    show(board, "/a", ("1", "python scraper"))
    clock.advance(1800)
    hunter.poll()
    assert line.titles_to(TO) == ["python scraper"] and line.titles_to(GROUP) == []
    assert store.outbox.job_states("design")["a:1"] == "pending"
    line.members = counts  # type: ignore[method-assign]
    line.member_counts[GROUP] = 4
    clock.advance(1800)
    hunter.poll()
    assert line.titles_to(GROUP) == ["python scraper"]
    assert store.pace.chats()["design"].spent == 4


def test_one_recipient_is_one_destination() -> None:
    """Finding 4: a [[chats]] whose `to` is LINE_TO, or two with one `to`, got every listing
    twice (a group paid twice per member). Refused at load, naming the line to fix."""
    source = html_source("a", "https://x.test/")
    twice = [{"name": "a", "to": GROUP}, {"name": "b", "to": GROUP}]
    with pytest.raises(ConfigError, match=r"\[\[chats\]\] #2 \(b\): to is the same chat as"):
        parse_config({"sources": [source], "chats": twice})
    config = parse_config({"sources": [source], "chats": [{"name": "a", "to": TO}]})
    with pytest.raises(ConfigError, match=r"\[\[chats\]\] 'a' has the owner's `to`"):
        Destinations(TO, config.chats)
    assert Destinations(None, config.chats).to_of("a") == TO
