"""A refusal of a whole channel holds that channel's chats and no other channel's (issue 45,
finding 1): LINE's month used up (or its token refused) ended every delivery, so a Telegram
chat beside it got nothing either. The deliverer, a scripted LINE for the owner, the Telegram
channel against the Bot API stand-in, a real SQLite store and a fake clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from hunter.app.service import Hunter
from hunter.channels.line import answers
from hunter.channels.line.answers import MONTHLY_LIMIT_MESSAGE
from hunter.channels.line.push import LineSender
from hunter.channels.telegram.send import TelegramSender
from hunter.deliver.channel import Channels
from hunter.deliver.outcome import Kind, PushResult
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import TO, LineStandIn
from tests.support.scripted import Clock, ScriptedSender
from tests.support.telegram_standin import TelegramStandIn

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
ME = 111  # the Telegram user of the [[chats]] "tg"


@pytest.mark.parametrize(
    "refusal",
    [
        PushResult(Kind.QUOTA, 429, MONTHLY_LIMIT_MESSAGE),  # LINE's month is used up
        answers.result(401, "Authentication failed"),  # LINE refuses the token
        # LINE's own limit, with a wait this delivery does not sit out
        answers.result(429, "The API rate limit has been exceeded.", retry_after=600),
    ],
    ids=["quota", "token", "rate-limit"],
)
def test_a_channel_that_refuses_itself_holds_its_chats_and_no_other_channel(
    store: SQLiteStore,
    board: Board,
    telegram: TelegramStandIn,
    telegram_sender: TelegramSender,
    refusal: PushResult,
) -> None:
    url = board.serve_jobs("/a", [("seed", "seed")])
    config = parse_config(
        {"sources": [html_source("a", url)], "chats": [{"name": "tg", "to": f"telegram:{ME}"}]}
    )
    line = ScriptedSender()
    line.script = [refusal] * 3  # every push LINE is asked for in this delivery is refused
    routes = Channels(line, {"telegram:": telegram_sender})
    clock = Clock(T0)
    hunter = Hunter(config, store, routes, clock, "w", threading.Event(), line_to=TO)
    hunter.poll()  # primes
    board.serve_jobs("/a", [("seed", "seed"), ("1", "python one"), ("2", "python two")])
    clock.advance(1800)
    report = hunter.poll()
    assert len(line.pushes) == 1  # asked once; the channel is held for the rest
    shown = sorted(text.split("\n", 1)[0] for text in telegram.texts(ME))
    assert shown == ["python one", "python two"]  # the other channel is served in full
    assert store.outbox.job_states("tg") == {"a:1": "sent", "a:2": "sent"}
    assert report.delivery.stopped
    assert all(state != "sent" for job, state in store.outbox.job_states().items()
               if job.startswith("a:"))  # fmt: skip


def test_a_token_line_refuses_to_a_groups_count_is_said_on_its_rows_not_waited_on(
    store: SQLiteStore, board: Board, line: LineStandIn
) -> None:
    """A LINE group's first push asks its members (LINE counts a message per member). With a
    refused token that ask failed as "LINE is away": the group's rows waited, poll after poll,
    behind a warning. The push now meets the 401 itself: a row says the fix, and the run's
    report carries it (`run --once` exits 2 with it)."""
    group = "C" + "4" * 32
    line.members[group] = 5
    url = board.serve_jobs("/a", [("seed", "seed")])
    config = parse_config(
        {"sources": [html_source("a", url)], "chats": [{"name": "team", "to": group}]}
    )
    sender = LineSender("a-token-line-does-not-know", TO, line.url)
    clock = Clock(T0)
    hunter = Hunter(config, store, Channels(sender), clock, "w", threading.Event(), line_to=TO)
    hunter.poll()  # primes
    board.serve_jobs("/a", [("seed", "seed"), ("1", "python one")])
    clock.advance(1800)
    report = hunter.poll()
    assert line.delivered == []
    assert report.delivery.refused is not None
    assert "LINE rejected the channel access token" in report.delivery.refused
    stuck = [r for r in store.outbox.rows(50) if r.status == "stuck"]
    assert stuck and all("check LINE_CHANNEL_ACCESS_TOKEN" in (r.last_error or "") for r in stuck)


def test_an_owner_chat_telegram_did_not_know_gets_its_listings_once_its_person_pressed_start(
    store: SQLiteStore, board: Board, telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    """A new user's find: the owner's id was right, but its person had not pressed Start in
    the bot's chat: Telegram said "chat not found", the chat was kept as gone, and after Start
    its listings waited a day (the member count's freshness), though the notice promises the
    next poll. A chat kept as gone is asked again after GONE_ASKED_AGAIN."""
    me = 4242
    url = board.serve_jobs("/a", [("seed", "seed")])
    config = parse_config({"sources": [html_source("a", url)], "owner": f"telegram:{me}"})
    routes = Channels(ScriptedSender(), {"telegram:": telegram_sender})
    clock = Clock(T0)
    hunter = Hunter(config, store, routes, clock, "w", threading.Event(), line_to=f"telegram:{me}")
    hunter.poll()  # primes
    board.serve_jobs("/a", [("seed", "seed"), ("1", "python one")])
    clock.advance(1800)
    hunter.poll()
    assert telegram.texts(me) == [] and store.outbox.job_states()["a:1"] == "pending"
    telegram.users.add(me)  # its person opens the bot's chat and presses Start
    clock.advance(1800)  # the next poll
    hunter.poll()
    assert [t.split("\n", 1)[0] for t in telegram.texts(me)] == ["python one"]
    assert store.outbox.job_states()["a:1"] == "sent"
