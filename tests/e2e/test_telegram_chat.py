"""The Telegram chat, as a user runs it: `hunter telegram setup` gives the stand-in the webhook
and its secret, `hunter run` with PORT answers what the stand-in POSTs as Telegram does (one
Update per request, the secret in its header), and every answer goes back through the Bot API
stand-in, which checks it. A person ([[chats]] "me", user 111) and a group ("team", -100222)
are configured; 999 is a stranger. Listings are kept waiting by quiet hours around the current
time, so that only the chat's own /new carries them."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_chat import quiet_now
from tests.support.board import Board, html_source
from tests.support.cli import on_both_stores, run_hunter, start_hunter, write_config
from tests.support.local_server import free_port, wait_for
from tests.support.telegram_standin import TelegramStandIn

SECRET = "test-telegram-webhook-secret_0123456"
ME, TEAM, STRANGER = 111, -100222, 999
CHATS = [{"name": "me", "to": f"telegram:{ME}"}, {"name": "team", "to": f"telegram:{TEAM}"}]


@dataclass
class TelegramChat:
    folder: Path
    board: Board
    telegram: TelegramStandIn
    env: dict[str, str]
    processes: list[subprocess.Popen[str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.telegram.users.add(STRANGER)
        # Telegram alone: no LINE at all (the owner's notices go to the first [[chats]]).
        without_line = {k: v for k, v in self.env.items() if "LINE" not in k}
        self.env = {**without_line, **self.telegram.env(), "TELEGRAM_WEBHOOK_SECRET": SECRET}
        self.url = self.board.serve_jobs("/jobs", [("seed", "seed listing")])
        self.configure(quiet_hours=quiet_now())
        assert self.run("run", "--once").returncode == 0  # primes the board
        setup = self.run("telegram", "setup", "--url", "https://hunter.example.com")
        assert setup.returncode == 0, setup.stderr

    def configure(self, **settings: Any) -> None:
        write_config(
            self.folder,
            [html_source("board", self.url)],
            timezone="UTC",
            interval_minutes=0.05,
            filter={"include": ["python"]},
            chats=CHATS,
            **settings,
        )

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_hunter(self.folder, *args, env=self.env)

    def post_listings(self, count: int) -> list[str]:
        jobs = [(f"j{n}", f"python job {n}") for n in range(count)]
        self.board.serve_jobs("/jobs", [*jobs, ("seed", "seed listing")])
        return [title for _id, title in jobs]

    def start(self) -> str:
        """One more `hunter run` with PORT; Telegram's calls go to the last one started."""
        port = free_port()
        self.processes.append(start_hunter(self.folder, "run", env={**self.env, "PORT": str(port)}))
        url = f"http://127.0.0.1:{port}"
        wait_for(f"{url}/healthz", 200, 60)
        self.urls.append(url)
        self.telegram.hunter_url = f"{url}/telegram/webhook"
        return url

    def waiting(self) -> dict[str, int]:
        """What waits for each chat, as `hunter status --json` says."""
        chats = json.loads(self.run("status", "--json").stdout)["chats"]
        return {chat["name"]: chat["waiting"] for chat in chats}

    def wait_pending(self, count: int) -> None:
        """Until the listings wait for both chats."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.waiting() == {"me": count, "team": count}:
                return
            time.sleep(0.3)
        raise AssertionError(f"{count} listings never waited")

    def say(self, chat: int, text: str) -> int:
        return self.telegram.update(self.telegram.message(chat, text))

    def texts(self, chat: int, count: int, timeout: float = 15) -> list[str]:
        """What `chat` has read, once it is `count` messages (or at the timeout)."""
        deadline = time.monotonic() + timeout
        while len(self.telegram.texts(chat)) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.telegram.texts(chat)

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
            _out, log = process.communicate(timeout=40)
            self.logs.append(log)
            assert process.returncode == 0, log
        self.processes = []


@pytest.fixture
def chat(tmp_path: Path, board: Board, telegram: TelegramStandIn, env: dict) -> Iterator[Any]:
    setup = TelegramChat(tmp_path, board, telegram, env)
    yield setup
    setup.stop()
    assert SECRET not in "".join(setup.logs)


def test_setup_gives_telegram_the_webhook_with_its_secret(chat: TelegramChat) -> None:
    hook = chat.telegram.webhook
    assert hook["url"] == "https://hunter.example.com/telegram/webhook"
    assert hook["secret_token"] == SECRET
    assert set(hook["allowed_updates"]) == {"message", "callback_query", "my_chat_member"}
    check = chat.run("check").stdout
    assert "Telegram chat: webhook https://hunter.example.com/telegram/webhook" in check
    refused = chat.run("telegram", "setup", "--url", "http://hunter.example.com")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "hunter: Telegram refused the webhook URL: Bad Request: bad webhook: An HTTPS URL must "
        "be provided for webhook"
    ]
    no_secret = {k: v for k, v in chat.env.items() if k != "TELEGRAM_WEBHOOK_SECRET"}
    missing = run_hunter(chat.folder, "telegram", "setup", "--url", "https://h.test", env=no_secret)
    assert missing.returncode == 2 and "TELEGRAM_WEBHOOK_SECRET is not set" in missing.stderr
    assert SECRET not in check + refused.stderr


def test_setup_sets_what_a_stranger_sees_before_start_in_english_and_thai(
    chat: TelegramChat,
) -> None:
    """Issue 55: the command menu ("/" lists it), the description (an empty chat shows it) and
    the short description (the bot's profile), in English for everyone and in Thai for a
    Thai app, each within the Bot API's limits (the stand-in refuses what Telegram would)."""
    from hunter.chat.commands import TABLE

    telegram = chat.telegram
    assert set(telegram.menus) == {"", "th"}
    english, thai = dict(telegram.menus[""]), dict(telegram.menus["th"])
    assert english.keys() == thai.keys()
    understood = {word for verb in TABLE for word in verb.words} | {"start"}
    assert set(english) <= understood  # every command in the menu is one hunter answers
    assert {"start", "add", "remove", "words", "stop", "forget", "help"} <= set(english)
    assert english["add"] == "Add a keyword: /add python" and thai["add"].startswith("เพิ่มคำ")
    for language in ("", "th"):
        assert "/add" in telegram.profile[("description", language)]
        assert telegram.profile[("short_description", language)]
    assert "งาน" in telegram.profile[("description", "th")]
    assert telegram.violations == []


def test_new_and_add_from_telegram_are_obeyed_for_that_chat_only(chat: TelegramChat) -> None:
    titles = chat.post_listings(2)
    chat.start()
    chat.wait_pending(2)
    assert chat.say(ME, "งานใหม่") == 200
    first = chat.texts(ME, 1)
    assert chat.say(ME, "/new") == 200
    both = chat.texts(ME, 2)
    assert sorted(text.split("\n", 1)[0] for text in both) == sorted(titles)
    assert "1 more wait" in first[0]  # one listing a message, and what still waits
    assert chat.telegram.texts(TEAM) == []  # "me"'s /new carried "me"'s rows only
    assert chat.say(ME, "เพิ่ม rust") == 200
    assert "rust" in chat.texts(ME, 3)[2]
    assert chat.say(ME, "/words") == 200
    assert chat.say(TEAM, "/words@hunter_test_bot") == 200
    assert "rust" in chat.texts(ME, 4)[3]
    assert "rust" not in chat.texts(TEAM, 1)[0]
    assert chat.say(TEAM, "hello everyone") == 200  # people talking in a group: not for hunter
    time.sleep(1)
    assert len(chat.telegram.texts(TEAM)) == 1
    assert chat.waiting() == {"me": 0, "team": 2}


def test_a_new_whose_answer_is_lost_is_stuck_never_sent_twice(chat: TelegramChat) -> None:
    """Telegram took the message carrying /new's listing and its answer was lost: the listing
    may be on the phone, so it is "delivery unknown", never sent again by itself; `hunter
    retry` puts it back."""
    chat.post_listings(1)
    chat.start()
    chat.wait_pending(1)
    chat.telegram.script.append("lost")
    assert chat.say(ME, "/new") == 200
    assert len(chat.texts(ME, 1)) == 1  # it arrived
    deadline = time.monotonic() + 15
    while "stuck 1" not in (status := chat.run("status").stdout) and time.monotonic() < deadline:
        time.sleep(0.3)
    assert "stuck 1" in status and chat.waiting() == {"me": 0, "team": 1}
    assert chat.say(ME, "/new") == 200  # nothing waits for "me": the last one sent, none yet
    assert "Nothing new yet" in chat.texts(ME, 2)[1]
    assert chat.run("retry", "--all").returncode == 0
    assert chat.waiting() == {"me": 1, "team": 1}


def test_setup_without_telegram_in_reach_says_so_in_one_line(chat: TelegramChat) -> None:
    port = free_port()
    away = {**chat.env, "HUNTER_TELEGRAM_API_URL": f"http://127.0.0.1:{port}"}
    result = run_hunter(chat.folder, "telegram", "setup", "--url", "https://h.test", env=away)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"hunter: cannot reach Telegram: 127.0.0.1:{port} refused the connection (nothing "
        "listens there: check the port)"
    ]
    assert SECRET not in result.stderr and chat.telegram.env()["TELEGRAM_BOT_TOKEN"] not in (
        result.stderr
    )


def test_a_wrong_or_missing_secret_is_refused_and_changes_nothing(chat: TelegramChat) -> None:
    chat.post_listings(1)
    chat.start()
    chat.wait_pending(1)
    update = chat.telegram.message(ME, "/new")
    assert chat.telegram.update(update, secret=None) == 401
    assert chat.telegram.update(update, secret=SECRET[:-1] + "x") == 403
    assert chat.telegram.update(update, secret="") == 401
    time.sleep(1)
    assert chat.telegram.texts(ME) == []
    assert chat.waiting() == {"me": 1, "team": 1}
    assert chat.telegram.update(update) == 200  # Telegram's own, with the secret
    assert len(chat.texts(ME, 1)) == 1


def test_a_stranger_is_answered_at_most_once(chat: TelegramChat) -> None:
    chat.post_listings(1)
    chat.start()
    chat.wait_pending(1)
    for text in ("/start", "/new", "งานใหม่", "hi", "/start"):
        assert chat.say(STRANGER, text) == 200
    assert chat.telegram.update(chat.telegram.tap(STRANGER, "dismiss board:j0")) == 200
    time.sleep(2)
    [answer] = chat.telegram.texts(STRANGER)
    assert "private" in answer and f'to = "telegram:{STRANGER}"' in answer
    assert chat.waiting() == {"me": 1, "team": 1}


def test_every_tapped_button_is_acknowledged_even_with_nothing_to_say(chat: TelegramChat) -> None:
    """Issue 37, low 11: a tap on an inline message (no chat to answer in), and a stranger's
    second tap (told "private" already), each get answerCallbackQuery: no spinner turns."""
    chat.start()
    taps = [chat.telegram.tap_inline(ME, "dismiss board:j0")]
    taps += [chat.telegram.tap(STRANGER, "dismiss board:j0") for _ in range(2)]
    for tap in taps:
        assert chat.telegram.update(tap) == 200
    deadline = time.monotonic() + 10
    while not all(chat.telegram.queries.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(chat.telegram.queries.values()), chat.telegram.queries
    assert len(chat.telegram.texts(STRANGER)) == 1  # "private", once


@on_both_stores
def test_the_same_update_twice_and_two_replicas_answer_once(chat: TelegramChat) -> None:
    chat.post_listings(1)
    first = chat.start()
    chat.start()
    chat.wait_pending(1)
    update = chat.telegram.message(ME, "/new")
    assert chat.telegram.update(update) == 200  # to the second replica
    chat.telegram.hunter_url = f"{first}/telegram/webhook"
    assert chat.telegram.update(update) == 200  # Telegram sent it again, to the first
    time.sleep(3)
    assert len(chat.telegram.texts(ME)) == 1
    assert chat.waiting() == {"me": 0, "team": 1}


def test_card_buttons_are_answered_and_a_group_is_welcomed(chat: TelegramChat) -> None:
    chat.configure()  # no quiet hours: the listings are pushed
    titles = chat.post_listings(2)
    chat.start()
    cards = chat.texts(ME, 2, timeout=30)
    assert sorted(card.split("\n", 1)[0] for card in cards) == sorted(titles)
    pushed = [sent.fields for sent in chat.telegram.delivered if sent.chat_id == ME]
    rows = [row for f in pushed for row in f["reply_markup"]["inline_keyboard"][1:]]
    data = [b["callback_data"] for row in rows for b in row]
    assert {d.split(" ", 1)[0] for d in data} == {"like", "dismiss", "mute", "applied"}
    dismiss = next(d for d in data if d.startswith("dismiss"))
    assert chat.telegram.update(chat.telegram.tap(ME, dismiss)) == 200
    assert chat.telegram.update(chat.telegram.tap(ME, "say คำ")) == 200
    answers = chat.texts(ME, 4)[2:]
    assert answers[0].startswith("ไม่สนใจ: python job")
    assert "python" in answers[1]  # คำ: the rules in force in this chat
    assert chat.telegram.queries == {"q1": True, "q2": True}  # each tap's spinner stopped
    assert chat.telegram.update(chat.telegram.added(TEAM)) == 200
    welcome = chat.texts(TEAM, 3)[-1]
    assert f"telegram:{TEAM}" in welcome and "/new" in welcome
