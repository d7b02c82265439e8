"""A chat the bot cannot reach, on Telegram: a person who never pressed Start in the bot's chat
(a bot may not write first). hunter's real poller, deliverer and chat, the Telegram channel
against the Bot API stand-in, a real SQLite store and a fake clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from hunter.app.service import Hunter
from hunter.channels.telegram.send import TelegramSender
from hunter.chat import Chat
from hunter.deliver.channel import ChatEvent
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.scripted import Clock
from tests.support.telegram_standin import TelegramStandIn

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
PERSON = 333
TO = f"telegram:{PERSON}"


def test_a_person_who_presses_start_gets_what_waited_at_the_next_poll(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    telegram.strangers.add(PERSON)  # hunter is set up before they open the bot's chat
    url = board.serve_jobs("/a", [("seed", "seed")])
    me = {"name": "me", "to": TO}  # Telegram alone: the first [[chats]] is the owner's
    config = parse_config({"sources": [html_source("a", url)], "chats": [me]})
    clock = Clock(T0)
    hunter = Hunter(config, store, telegram_sender, clock, "w", threading.Event())
    hunter.poll()  # primes
    board.serve_jobs("/a", [("seed", "seed"), ("1", "python scraper")])
    clock.advance(1800)
    hunter.poll()
    # getChat, before the first push, says "chat not found": nothing is pushed, it waits.
    assert [m for m, _ in telegram.calls] == ["getChat"]
    assert store.pace.chats()["me"].gone and store.outbox.job_states("me")["a:1"] == "pending"
    for _ in range(3):  # still gone: not one push tried; asked again once a poll at most
        clock.advance(1800)
        hunter.poll()
    # (Twice a poll: once more for the owner's own notice, which waits in a row of its own.)
    calls = [m for m, _ in telegram.calls]
    assert set(calls) == {"getChat"} and 2 <= len(calls) <= 1 + 2 * 3
    # They open the bot and press Start: Telegram sends "/start" (no my_chat_member, which a
    # private chat gets only when the bot is blocked or unblocked).
    telegram.strangers.discard(PERSON)
    telegram.users.add(PERSON)
    chat = Chat(config, store, telegram_sender, None, clock, "w")
    chat.handle(ChatEvent("telegram:333:1", "follow", TO, None, at=clock()))
    clock.advance(1800)
    hunter.poll()
    shown = [text.split("\n", 1)[0] for text in telegram.texts(PERSON)]
    assert "python scraper" in shown  # within a poll, not a day later
    # Told once: the owner's notices go to this same chat (no LINE_TO), under its name.
    told = [text for text in telegram.texts(PERSON) if text.startswith("🚪")]
    assert [text.split("\n")[0] for text in told] == [
        "🚪 The bot is no longer in chat me (telegram:333)"
    ]
    assert "Telegram says Bad Request: chat not found." in told[0]
    assert not store.pace.chats()["me"].gone
