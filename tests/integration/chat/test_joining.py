"""Strangers who join, as the chat answers them (issue 42): hunter's real Chat on a real SQLite
store, answering through the real TelegramSender to the Telegram Bot API stand-in, each event
parsed from an Update the stand-in builds, as the webhook would. The abuse a public bot gets:
more Starts than `max`, a subscriber sending more keywords than `max_keywords`, a subscriber
asking about another's rows."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

from hunter.app.service import Hunter
from hunter.channels.telegram.send import TelegramSender
from hunter.channels.telegram.updates import from_update
from hunter.chat import Chat
from hunter.chat.inbox import Inbox
from hunter.deliver.channel import ChatEvent
from hunter.settings.config import Config, parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.scripted import Clock
from tests.support.telegram_standin import TelegramStandIn

OWNER = 111


def configure(board: Board, **subscribers: Any) -> Config:
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    return parse_config(
        {
            "owner": f"telegram:{OWNER}",
            "filter": {"include": ["owner-word"]},
            "subscribers": {"join": "open", **subscribers},
            "sources": [html_source("board", url)],
        }
    )


def chat_of(
    config: Config, store: SQLiteStore, sender: TelegramSender, telegram: TelegramStandIn
) -> Chat:
    def clock() -> datetime:
        return datetime.now(UTC)

    owner = f"telegram:{OWNER}"
    return Chat(
        config, store, sender, owner, clock, "w", {"telegram:": sender}, may_join=lambda _: True
    )


def said(telegram: TelegramStandIn, chat: int, text: str) -> ChatEvent:
    event = from_update(telegram.message(chat, text))
    assert event is not None
    return event


def test_more_starts_than_max_let_in_max_and_tell_the_rest_once(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    config = configure(board, max=40)
    chat = chat_of(config, store, telegram_sender, telegram)
    strangers = list(range(5000, 5100))
    telegram.users |= set(strangers)
    started = time.monotonic()
    for n in strangers:
        chat.handle(said(telegram, n, "/start python"))
    for n in strangers[50:60]:  # a Start again from ten who were told "full"
        chat.handle(said(telegram, n, "/start"))
    took = time.monotonic() - started
    assert len(store.subscribers.all()) == 40
    full = [n for n in strangers if any("subscribers it takes" in t for t in telegram.texts(n))]
    assert full == strangers[40:]
    assert all(len(telegram.texts(n)) == 1 for n in strangers)  # told once, not at each Start
    assert took < 100 * 0.5  # well under half a second a Start, replies included


def test_a_subscriber_keeps_max_keywords_and_hears_of_the_cap_once(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    config = configure(board, max_keywords=5)
    chat = chat_of(config, store, telegram_sender, telegram)
    telegram.users.add(7001)
    chat.handle(said(telegram, 7001, "/start"))
    for n in range(30):
        chat.handle(said(telegram, 7001, f"/add word{n}"))
    rules = store.chat.rules(datetime.now(UTC))["telegram:7001"]
    assert rules.added == tuple(f"word{n}" for n in range(5))
    replies = telegram.texts(7001)
    assert sum("at most 5 keywords" in r for r in replies) == 1
    assert len(replies) == 1 + 5 + 1  # the welcome, five added, the cap once
    chat.handle(said(telegram, 7001, "/remove nothing"))  # other refusals: each answered
    chat.handle(said(telegram, 7001, "/remove nothing"))
    assert sum("is not one of this chat's keywords" in r for r in telegram.texts(7001)) == 2


def test_a_subscriber_sees_its_own_rows_only(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    config = configure(board)
    chat = chat_of(config, store, telegram_sender, telegram)
    telegram.users |= {7001, 7002}
    chat.handle(said(telegram, 7001, "/start secret-stack"))
    chat.handle(said(telegram, 7002, "/start python"))
    chat.handle(said(telegram, 7002, "/status"))
    chat.handle(said(telegram, 7002, "/words"))
    chat.handle(said(telegram, 7002, "/approve telegram:7001"))  # the owner's, not its own
    seen = "\n".join(telegram.texts(7002))
    assert "python" in seen
    assert "secret" not in seen and "owner-word" not in seen and "board" not in seen
    assert "is in" not in seen


def test_an_answer_refused_by_a_rate_limit_is_said_again_once(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    """Telegram's 429 means the message was not delivered: the answer waits retry_after and
    goes once more (a welcome lost to a flood of Starts would leave the stranger unanswered)."""
    chat = chat_of(configure(board), store, telegram_sender, telegram)
    telegram.users.add(7001)
    telegram.script.extend(["429:1", "429:1"])
    chat.handle(said(telegram, 7001, "/start"))  # refused, waited, said again: refused
    assert telegram.texts(7001) == []  # twice refused: not a third time
    chat.handle(said(telegram, 7001, "/words"))
    telegram.script.append("429:1")
    chat.handle(said(telegram, 7001, "/words"))
    assert len(telegram.texts(7001)) == 2  # the second /words' answer: after its wait
    sends = [m for m, _body in telegram.calls if m == "sendMessage"]
    assert len(sends) == 5


def test_the_daily_prune_forgets_a_chat_gone_for_prune_after_days(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    config = configure(board)
    clock = Clock(datetime(2026, 10, 1, 9, tzinfo=UTC))
    hunter = Hunter(config, store, telegram_sender, clock, "w", threading.Event())
    store.subscribers.join("telegram:7001", False, 500, clock())
    store.subscribers.join("telegram:7002", False, 500, clock())
    store.chat.tune_word("telegram:7001", "python", "add", clock(), 50)
    store.subscribers.leave("telegram:7001", clock())
    clock.advance(44 * 86_400)
    hunter.prune()
    assert "telegram:7001" in store.chat.rules(clock())  # gone 44 days: kept (45 by default)
    clock.advance(2 * 86_400)
    hunter.prune()
    assert "telegram:7001" not in store.chat.rules(clock())  # forgotten, words and all
    assert [s.chat for s in store.subscribers.all()] == ["telegram:7002"]  # still in: kept


def test_a_subscriber_typing_fast_gets_commands_per_minute_and_slows_no_one(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    """30 commands from one subscriber at once, with commands_per_minute = 5: five are
    answered and it is told once that the rest were skipped; the owner's commands, sent after,
    are each answered (hunter.toml's chats are never paced)."""
    config = configure(board, commands_per_minute=5)
    chat = chat_of(config, store, telegram_sender, telegram)
    telegram.users |= {7001}
    chat.handle(said(telegram, 7001, "/start python"))
    welcomed = len(telegram.texts(7001))
    inbox = Inbox(chat, "w", lambda: datetime.now(UTC), workers=2)
    fast = [said(telegram, 7001, "help") for _ in range(30)]
    owner = [said(telegram, OWNER, "help") for _ in range(4)]
    assert inbox.keep(fast + owner) == 200
    assert inbox.wait_idle(60)
    answers = telegram.texts(7001)[welcomed:]
    assert len(answers) == 6, answers  # five commands, and the notice
    assert sum("some were skipped" in text for text in answers) == 1
    assert len(telegram.texts(OWNER)) == 4
    inbox.stop(time.monotonic() + 5)


def test_a_card_of_asks_whose_names_cannot_be_read_still_goes(
    store: SQLiteStore,
    board: Board,
    telegram: TelegramStandIn,
    telegram_sender: TelegramSender,
    caplog: Any,
) -> None:
    """The card of the chats that ask, made by a poll, reads the names they gave (issue 62,
    low 7) after the card's turn is taken. A database that refuses that read costs the card
    its names, never the card (its next turn is CARDS_EVERY away) nor the poll."""
    import sqlite3

    config = configure(board, join="approve")
    clock = Clock(datetime(2026, 10, 1, 9, tzinfo=UTC))
    owner = f"telegram:{OWNER}"
    hunter = Hunter(config, store, telegram_sender, clock, "w", threading.Event(), line_to=owner)
    hunter.poll()  # primes
    assert store.subscribers.join("telegram:7001", True, 5, clock(), "7001", "Somchai").value
    with sqlite3.connect(store.path) as db:  # the names' column gone: their read fails
        db.execute("ALTER TABLE hunter_subscribers RENAME COLUMN name TO name_away")
    board.serve_jobs("/jobs", [("1", "owner-word job"), ("seed", "seed listing")])
    clock.advance(1800)
    hunter._asks_look_at = 0.0  # a look at the asks is due (every ASKS_LOOK of the process)
    hunter.poll()
    texts = telegram.texts(OWNER)
    assert any(t.startswith("owner-word job") for t in texts)  # the poll's listing went
    [card] = [t for t in texts if "asks to join" in t]
    assert "telegram:7001" in card and "Somchai" not in card  # named by its id alone
    assert "names none of them" in caplog.text
