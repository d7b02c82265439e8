"""A listing fanned out to many subscribers (issue 42), on SQLite and PostgreSQL: three
replicas deliver at once, every subscriber gets each of its listings exactly once, and
together they keep the bot's pace; the turn goes round the subscribers, so one with a
backlog never holds up the others; a subscriber's day ends at `messages_per_day`. hunter's
real Poller, Deliverer and TelegramSender, the Telegram Bot API stand-in, a local board."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.channels.telegram.send import TelegramSender
from hunter.deliver.channel import Channels
from hunter.deliver.deliverer import Deliverer
from hunter.deliver.turns import Turns
from hunter.poll.poller import Poller
from hunter.settings.config import Config, parse_config
from hunter.store.base import Store
from tests.conftest import open_test_store
from tests.support.board import Board, html_source
from tests.support.telegram_standin import TOKEN, TelegramStandIn

WORDS = ["python", "react", "โลโก้", "data"]


def configure(url: str, **subscribers: Any) -> Config:
    return parse_config(
        {
            "owner": "telegram:111",
            "filter": {"include": ["owner-only"]},
            "subscribers": {"join": "open", **subscribers},
            "sources": [html_source("board", url)],
            "schedule": "fixed",
        }
    )


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[Store]]:
    """Three connections to one database: three replicas."""
    url = request.getfixturevalue("migrated_pg_url") if request.param == "postgres" else None
    opened = [open_test_store(request.param, tmp_path, url) for _ in range(3)]
    yield opened
    for store in opened:
        store.close()


def join(store: Store, telegram: TelegramStandIn, count: int) -> list[int]:
    """`count` subscribers (every 5th a group), each with one or two of WORDS."""
    now = datetime.now(UTC)
    ids = [-2000 - n if n % 5 == 0 else 2000 + n for n in range(count)]
    for n, chat_id in enumerate(ids):
        chat = f"telegram:{chat_id}"
        store.subscribers.join(chat, False, 10_000, now)
        for word in {WORDS[n % 4], WORDS[(n * 3) % 4]}:
            store.chat.tune_word(chat, word, "add", now, 50)
    telegram.users |= {i for i in ids if i > 0}
    telegram.groups |= {i for i in ids if i < 0}
    return ids


def post_and_read(config: Config, store: Store, board: Board, titles: list[str]) -> int:
    """The board shows `titles` after a first read primed it; the rows the read made."""
    poller = Poller(config, store, lambda: datetime.now(UTC), "reader")
    poller.poll()
    jobs = [(f"j{n}", title) for n, title in enumerate(titles)]
    board.serve_jobs("/jobs", [*jobs, ("seed", "seed listing")])
    [read] = poller.poll().sources
    return read.recorded.get("chats", 0)


def deliverer(config: Config, store: Store, telegram: TelegramStandIn, name: str) -> Deliverer:
    sender = TelegramSender(TOKEN, telegram.url)
    channels = Channels(sender, {"telegram:": sender})
    clock = lambda: datetime.now(UTC)  # noqa: E731
    return Deliverer(config, store, channels, clock, name, threading.Event())


def test_three_replicas_send_each_subscriber_each_listing_once(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = configure(url)
    join(stores[0], telegram, 40)
    titles = ["python api", "react app", "ออกแบบโลโก้ร้าน", "data pipeline in python", "java"]
    rows = post_and_read(config, stores[0], board, titles)
    waiting = stores[0].outbox.pending_by_chat()
    assert rows == sum(waiting.values()) and rows > 40
    replicas = [deliverer(config, store, telegram, f"r{n}") for n, store in enumerate(stores)]

    def deliver_until_done(replica: Deliverer) -> None:
        # A call may end with a retry due (a chat's own pace): deliver until none waits.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and _unsent(stores[0]):
            replica.deliver(1000, frozenset())

    threads = [threading.Thread(target=deliver_until_done, args=(r,)) for r in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    sent = Counter((s.chat_id, s.text.split("\n", 1)[0]) for s in telegram.delivered)
    assert max(sent.values()) == 1  # never twice
    assert sum(sent.values()) == rows  # none lost
    by_chat = Counter(f"telegram:{chat_id}" for chat_id, _title in sent)
    assert dict(by_chat) == {chat: n for chat, n in waiting.items() if chat}
    assert "java" not in {title for _chat, title in sent}  # nobody's word
    assert _unsent(stores[0]) == 0
    # The three keep the bot's 30 a second together (deliver/rate.py): one replica's 28
    # each, as before, drew 429s from the stand-in.
    assert telegram.too_fast == 0


def _unsent(store: Store) -> int:
    counts = store.outbox.counts()
    return counts["pending"] + counts["sending"] + counts["retry"] + counts["stuck"]


def test_the_turn_goes_round_and_a_backlog_is_one_digest(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    """One subscriber has 14 listings waiting, the others one or two: the others are not held
    behind it, and its 14 come as one message, a line and a link each, not 14."""
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = configure(url)
    store = stores[0]
    ids = join(store, telegram, 6)
    busy = f"telegram:{ids[1]}"
    store.chat.tune_word(busy, "busy", "add", datetime.now(UTC), 50)
    titles = [f"busy job {n}" for n in range(12)] + [f"{w} one" for w in WORDS]
    post_and_read(config, store, board, titles)
    deliverer(config, store, telegram, "r").deliver(1000, frozenset())
    order = [f"telegram:{s.chat_id}" for s in telegram.delivered]
    assert order.count(busy) == 1, order  # its 12, "react one" and "data one": one digest
    [digest] = telegram.texts(ids[1])
    assert digest.startswith("📬 14 งานใหม่ · new listings")
    assert all(f"busy job {n}" in digest for n in range(12)) and "react one" in digest
    [sent] = [s for s in telegram.delivered if s.chat_id == ids[1]]
    assert sent.fields["text"].count('<a href="http') == 14  # each with its link
    first_round = order[: len(set(order))]
    assert set(first_round) == set(order)  # everyone's first before anyone's second
    assert store.outbox.count_pending() == 0
    assert telegram.too_fast == 0  # one instance keeps Telegram's pace: no 429 of its making


def test_a_subscribers_day_ends_at_messages_per_day(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = configure(url, messages_per_day=3)
    store = stores[0]
    [one] = join(store, telegram, 2)[1:]
    post_and_read(config, store, board, [f"react job {n}" for n in range(5)])
    for _ in range(3):  # however often it is asked, 3 a day
        deliverer(config, store, telegram, "r").deliver(1000, frozenset())
    [digest] = telegram.texts(one)  # 5 waited: one digest, of the day's 3
    assert digest.count("• react job") == 3
    assert store.outbox.count_pending(f"telegram:{one}") == 2  # tomorrow's


def test_a_subscriber_that_blocked_the_bot_costs_no_more_sends(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = configure(url)
    store = stores[0]
    gone, stays = join(store, telegram, 3)[1:]  # both read "react"
    telegram.blocked.add(gone)  # it blocked the bot: Telegram answers 403
    post_and_read(config, store, board, ["react and โลโก้ one"])
    deliverer(config, store, telegram, "r").deliver(1000, frozenset())
    assert [s.chat_id for s in telegram.delivered] == [stays]
    assert [s.chat for s in store.subscribers.all()] == [f"telegram:{i}" for i in (-2000, stays)]
    jobs = [("j9", "react and โลโก้ two"), ("j0", "react and โลโก้ one"), ("seed", "seed")]
    board.serve_jobs("/jobs", jobs)
    Poller(config, store, lambda: datetime.now(UTC), "reader").poll()
    deliverer(config, store, telegram, "r").deliver(1000, frozenset())
    sends = [body for method, body in telegram.calls if method == "sendMessage"]
    # At most the one refused (here none: getChat said so before the first send), and never
    # again after it left.
    assert sum(1 for body in sends if body.get("chat_id") == gone) <= 1
    assert telegram.texts(OWNER_ID) == []  # the owner is not told of each subscriber gone


OWNER_ID = 111


def test_subscribers_are_not_held_to_max_alerts_per_poll_but_to_a_calls_time(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    """max_alerts_per_poll caps hunter.toml's chats (its alert says what waits); 20
    subscribers' listings all go in one call. A call past its time on them leaves the rest
    for the next, and says so (`hunter run` then delivers again at once)."""
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = replace(configure(url), max_alerts_per_poll=2)
    store = stores[0]
    join(store, telegram, 20)
    rows = post_and_read(config, store, board, ["python api", "react app"])
    late = deliverer(config, store, telegram, "late")
    late.turns = Turns(seconds=0.0)  # its time on the subscribers is up after one batch
    assert late.deliver(2, frozenset()).sent == 1
    assert late.turns.cut_short and _unsent(store) == rows - 1
    report = deliverer(config, store, telegram, "r").deliver(2, frozenset())
    assert report.sent == report.to_subscribers == rows - 1 > 2
    assert _unsent(store) == 0


def test_hunter_run_delivers_again_at_once_when_a_calls_time_was_up(
    stores: list[Store], board: Board, telegram: TelegramStandIn
) -> None:
    """A poll whose delivery ran out of its time on subscribers, having sent some, asks
    `hunter run` to poll again at once (not at the next read, 30 minutes on); the next one
    sends the rest."""
    url = board.serve_jobs("/jobs", [("seed", "seed listing")])
    config = configure(url)
    store = stores[0]
    join(store, telegram, 20)
    sender = TelegramSender(TOKEN, telegram.url)
    hunter = Hunter(config, store, Channels(sender, {"telegram:": sender}), worker="h")
    hunter.poll()  # primes
    assert hunter.next_wake() > datetime.now(UTC)  # nothing waits: the next read
    board.serve_jobs("/jobs", [("j1", "python react data โลโก้"), ("seed", "seed listing")])
    hunter.deliverer.turns = Turns(seconds=0.3)  # 20 messages take 0.7 s at Telegram's pace
    first = hunter.poll()
    assert 0 < first.delivery.sent < 20  # cut short
    assert hunter.next_wake() <= datetime.now(UTC)  # again at once
    hunter.deliverer.turns = Turns()
    second = hunter.poll()
    assert first.delivery.sent + second.delivery.sent == 20  # every one's word is in it
    assert hunter.next_wake() > datetime.now(UTC)
