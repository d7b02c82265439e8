"""hunter's Telegram channel against the Bot API stand-in (tests/support/telegram_standin.py):
what each of Telegram's answers means for a push, a message within Telegram's limits, and the
pace it keeps."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from hunter.channels.telegram.send import TelegramError, TelegramSender
from hunter.deliver.outcome import Kind, decide
from hunter.errors import ChatGone, ConfigError
from hunter.rules.listing import Listing
from tests.support.local_server import free_port
from tests.support.scripted import Clock
from tests.support.telegram_standin import TOKEN, TelegramStandIn

USER, GROUP = "telegram:111", "telegram:-100222"


def listing(**more: object) -> Listing:
    fields: dict[str, object] = {
        "job_id": "board:1",
        "source": "board",
        "title": "Python <bot> & scraper",
        "url": "https://board.test/jobs/1",
        "budget": 8000,
        "summary": "Needs a LINE bot",
        **more,
    }
    return Listing(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("script", "to", "kind", "says", "maybe"),
    [
        ("ok", USER, Kind.SENT, "", False),
        ("500", USER, Kind.TRANSIENT, "Internal Server Error", False),
        ("429:7", USER, Kind.TRANSIENT, "retry after 7", False),
        ("lost", USER, Kind.TRANSIENT, "no answer", True),
        ("ok", "telegram:999", Kind.GONE, "chat not found", False),
        ("ok", "telegram:333", Kind.GONE, "bot can't initiate conversation with a user", False),
    ],
)
def test_what_each_answer_means(
    telegram: TelegramStandIn,
    telegram_sender: TelegramSender,
    script: str,
    to: str,
    kind: Kind,
    says: str,
    maybe: bool,
) -> None:
    telegram.strangers.add(333)  # on Telegram, and never pressed Start in the bot's chat
    telegram.script.append(script)
    result = telegram_sender.push(telegram_sender.render([listing()], None, False), "key-1", to)
    assert (result.kind, result.maybe_delivered) == (kind, maybe)
    assert says in result.summary
    if script == "429:7":
        assert result.retry_after == 7
    if script == "lost":  # it reached the chat; a second send would show it twice
        assert len(telegram.texts(111)) == 1
        assert decide(result, 0, 1, dedupes=False).status == "stuck"


def test_telegram_out_of_reach_is_a_failure_to_retry_never_an_unknown_delivery() -> None:
    """Nothing listens: the message never left, so it is retried (not "delivery unknown"), and
    a check says it could not reach Telegram, without the token in its words."""
    away = TelegramSender(TOKEN, f"http://127.0.0.1:{free_port()}", deadline=2.0)
    result = away.push(away.render([listing()], None, False), "k", USER)
    assert (result.kind, result.maybe_delivered) == (Kind.TRANSIENT, False)
    assert decide(result, 0, 1, dedupes=False).status == "retry"
    with pytest.raises(TelegramError, match="cannot reach Telegram") as failed:
        away.members(USER)
    assert TOKEN not in str(failed.value) and TOKEN not in result.summary
    away.close()


def test_a_blocked_user_a_kicked_group_and_a_migrated_group(
    telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    telegram.blocked |= {111, -100222}
    telegram.groups.add(-333)
    telegram.migrated[-333] = -100444
    messages = telegram_sender.render([listing()], None, False)
    blocked = telegram_sender.push(messages, "k", USER)
    kicked = telegram_sender.push(messages, "k", GROUP)
    moved = telegram_sender.push(messages, "k", "telegram:-333")
    assert (blocked.kind, blocked.status) == (Kind.GONE, 403)
    assert "blocked by the user" in blocked.detail and "kicked" in kicked.detail
    assert moved.kind is Kind.PERMANENT and 'to = "telegram:-100444"' in moved.detail
    with pytest.raises(ChatGone, match="blocked by the user"):
        telegram_sender.members(USER)
    assert telegram.delivered == []


def test_a_wrong_token_is_a_config_error_for_check_and_an_auth_failure_for_a_push(
    telegram: TelegramStandIn,
) -> None:
    wrong = TelegramSender("123:wrong-token-0123456789abcdef", telegram.url)
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN"):
        wrong.bot_info()
    result = wrong.push(wrong.render([listing()], None, False), "k", USER)
    assert result.kind is Kind.AUTH and "TELEGRAM_BOT_TOKEN" in result.fix
    wrong.close()


def test_a_message_keeps_within_telegrams_limits_and_reads_whole(
    telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    """A 10,000-character summary and HTML in the title: Telegram accepts the message (4,096
    characters at most, its own tags only) and the reader sees the title as written."""
    long = listing(summary="x" * 10_000, budget_max=12000, category="เว็บไซต์", offers=3)
    result = telegram_sender.push(telegram_sender.render([long], "2 more wait", False), "k", USER)
    assert result.kind is Kind.SENT, result.summary
    [text] = telegram.texts(111)
    assert text.startswith("Python <bot> & scraper\n💰 ฿8,000–12,000")
    assert "เว็บไซต์ · เสนอแล้ว 3 คน (3 offers)" in text  # as LINE's cards say it
    assert text.endswith("📍 board\n2 more wait")
    assert len(text) <= 4096
    [sent] = telegram.delivered
    assert sent.fields["reply_markup"]["inline_keyboard"][0][0]["url"] == long.url
    assert telegram_sender.bot_info() == {"name": "hunter test", "username": "hunter_test_bot"}


def test_the_sender_keeps_telegrams_pace_in_a_group(
    telegram: TelegramStandIn, telegram_sender: TelegramSender
) -> None:
    """Two messages to one group: a second apart, as in any chat (20 a minute is a window:
    a group's few answers need not wait three seconds each), both taken."""
    started = time.monotonic()
    for n in range(2):
        result = telegram_sender.push(
            telegram_sender.render([listing(job_id=f"b:{n}")], None, False), "k", GROUP
        )
        assert result.kind is Kind.SENT
    assert 1.0 <= time.monotonic() - started < 3.0
    assert len(telegram.texts(-100222)) == 2


def test_a_group_gets_20_messages_a_minute_and_the_21st_waits_for_the_minute(
    telegram: TelegramStandIn,
) -> None:
    """Telegram's FAQ: 20 messages a minute in a group. 25 in a row, on one clock for the
    sender and the stand-in (which answers 429 to a 21st within a minute): each taken, the
    first 20 a second apart, the 21st a minute after the first."""
    clock = Clock(datetime(2026, 12, 5, tzinfo=UTC))
    telegram.clock = clock
    start = clock.now.timestamp()
    sender = TelegramSender(
        TOKEN, telegram.url, sleep=clock.advance, clock=lambda: clock.now.timestamp()
    )
    try:
        for n in range(25):
            result = sender.push(sender.render([listing(job_id=f"b:{n}")], None, False), "k", GROUP)
            assert result.kind is Kind.SENT, result
    finally:
        sender.close()
    at = [sent.at.timestamp() - start for sent in telegram.delivered]
    assert at[:20] == pytest.approx([float(n) for n in range(20)])
    assert at[20] == pytest.approx(60.0) and at[24] == pytest.approx(64.0)
    assert telegram.too_fast == 0
