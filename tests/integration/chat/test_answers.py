"""The chat's decisions on a real SQLite store with a fake clock and a scripted LINE: how long
a mute lasts, what a failed or unanswered reply does with the listings it carried, what
"dismiss" stops, who is answered in a group, and how the inbox keeps, dates and shares out
LINE's events. The same paths through the CLI, PostgreSQL and signed webhook calls are in
tests/e2e."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.channels.line.webhook import BadRequest, parse
from hunter.channels.telegram.updates import webhook as telegram_webhook
from hunter.chat import Chat, Inbox
from hunter.chat.hooks import hook as serve
from hunter.chat.inbox import FairQueue
from hunter.deliver.channel import ChatEvent
from hunter.deliver.outcome import Kind, PushResult
from hunter.rules.listing import Listing
from hunter.settings.config import parse_config
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import TO
from tests.support.scripted import Clock, ScriptedSender
from tests.support.webhook import BOT, SECRET, STRANGER, event, payload, receive, signature

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
CONFIG = parse_config({"sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}]})
OWN_GROUP = "C" + "1" * 32
OTHER_GROUP = "C" + "2" * 32


class Replier(ScriptedSender):
    def __init__(self, seconds: float = 0.0) -> None:
        super().__init__()
        self.replies: list[list[dict[str, Any]]] = []
        self.outcome = PushResult(Kind.SENT, 200)
        self.seconds = seconds  # how long LINE takes to answer a reply
        self.lock = threading.Lock()

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        time.sleep(self.seconds)
        with self.lock:
            self.replies.append(messages)
        return self.outcome

    def texts(self) -> list[str]:
        return [m[0].get("text", "") for m in self.replies]


def tap(data: str, n: int) -> ChatEvent:
    return ChatEvent(f"E{n}", "tap", TO, f"token{n}", data=data, at=T0)


def say(text: str, n: int, chat: str = TO) -> ChatEvent:
    return ChatEvent(f"E{n}", "message", chat, f"token{n}", text=text, at=T0)


def waiting_jobs(store: SQLiteStore, count: int = 3) -> list[str]:
    store.outbox.record("a", [Listing("a:seed", "a", "seed", "https://x.test/")], set(), T0)
    jobs = [Listing(f"a:{n}", "a", f"job {n}", "https://x.test/") for n in range(count)]
    store.outbox.record("a", jobs, {j.job_id for j in jobs}, T0)
    return [j.job_id for j in jobs]


def signed(*events: dict[str, Any]) -> tuple[bytes, str]:
    body = payload(*events)
    return body, signature(body)


def at(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


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
        return store.outbox.job_states()[f"b:{job}"]

    assert appear("1", "python scraper", 29) == "ignored"
    assert appear("2", "python and django api", 29.5) == "sent"  # another keyword still wants it
    assert appear("3", "python bot", 30.1) == "sent"  # the mute ran out
    assert len(sender.pushes) == 2


@pytest.mark.parametrize(
    ("answer", "after"),
    [
        # LINE answered that it did not take the reply: the listings wait for a push.
        (PushResult(Kind.TRANSIENT, 500, "Internal error"), "pending"),
        (PushResult(Kind.REJECTED, 400, "Invalid reply token"), "pending"),
        (PushResult(Kind.TRANSIENT, None, "ConnectTimeoutError: refused"), "pending"),
        # The reply left and no answer came: LINE may show it, so it is never pushed on a guess.
        (PushResult(Kind.TRANSIENT, None, "no answer within 20 s", maybe_delivered=True), "stuck"),
    ],
)
def test_what_a_failed_reply_does_with_its_listings(
    store: SQLiteStore, answer: PushResult, after: str
) -> None:
    ids = waiting_jobs(store)
    replier = Replier()
    replier.outcome = answer
    Chat(CONFIG, store, replier, TO, Clock(T0), "w").handle(say("งานใหม่", 1))
    assert len(replier.replies) == 1
    states = store.outbox.job_states()
    assert [states[i] for i in ids] == [after] * 3
    if after == "stuck":
        [row] = {r.last_error for r in store.status(T0).rows}
        assert row is not None and row.startswith("delivery unknown") and "hunter retry" in row
        sender = ScriptedSender()  # the next poll pushes nothing of them
        Hunter(CONFIG, store, sender, Clock(T0 + timedelta(hours=1)), "w2").deliverer.deliver(48)
        assert sender.pushes == []


def test_dismissed_listings_never_go_out_even_after_retry(store: SQLiteStore) -> None:
    store.outbox.record("a", [Listing("a:seed", "a", "seed", "https://x.test/")], set(), T0)
    store.outbox.record("a", [Listing("a:1", "a", "job", "https://x.test/")], {"a:1"}, T0)
    replier = Replier()
    chat = Chat(CONFIG, store, replier, TO, Clock(T0), "w")
    chat.handle(tap("dismiss a:1", 1))
    assert store.outbox.job_states()["a:1"] == "ignored"
    assert store.outbox.retry_stuck(None) == [] and store.outbox.count_pending() == 0
    chat.handle(tap("applied a:1", 2))
    [marked] = store.chat.marks("applied")
    assert marked.listing.title == "job" and store.chat.marks("dismissed") == []
    chat.handle(tap("dismiss a:unknown", 3))
    assert "no longer known" in replier.replies[-1][0]["text"]


def test_in_groups_only_commands_are_answered_and_strangers_hear_private_once(
    store: SQLiteStore,
) -> None:
    clock, replier = Clock(T0), Replier()
    chat = Chat(CONFIG, store, replier, OWN_GROUP, clock, "w")
    chatter = ["555", "ok", "ไปกินข้าวกัน", "new job?"]
    for n, text in enumerate(chatter):
        chat.handle(say(text, n, OWN_GROUP))  # people talking in the owner's group
    assert replier.replies == []
    chat.handle(say("สถานะ", 10, OWN_GROUP))
    chat.handle(say("help", 11, OWN_GROUP))
    assert len(replier.replies) == 2 and "งานใหม่" in replier.texts()[1]
    for n in range(20, 30):  # a stranger's group: talk, then commands
        chat.handle(say("555" if n % 2 else "งานใหม่", n, OTHER_GROUP))
    for n in range(30, 40):  # a stranger in a 1:1 chat
        chat.handle(say(f"hello {n}", n, STRANGER))
    private = [t for t in replier.texts() if "private" in t]
    assert len(private) == 2 and len(replier.replies) == 4
    clock.now = T0 + timedelta(days=8)
    chat.handle(ChatEvent("E50", "message", STRANGER, "t50", text="hi", at=clock.now))
    assert "private" in replier.texts()[-1]  # again, after a long while


def test_an_event_handled_past_its_reply_minute_still_acts_but_does_not_reply(
    store: SQLiteStore,
) -> None:
    ids = waiting_jobs(store)
    clock, replier = Clock(T0 + timedelta(minutes=5)), Replier()
    chat = Chat(CONFIG, store, replier, TO, clock, "w")
    chat.handle(tap(f"dismiss {ids[0]}", 1))
    chat.handle(say("งานใหม่", 2))
    assert replier.replies == []
    states = store.outbox.job_states()
    assert [states[i] for i in ids] == ["ignored", "pending", "pending"]  # none claimed


def test_the_webhook_parser_refuses_a_tampered_body_and_skips_an_unreadable_event() -> None:
    body = payload(event("message", OWN_GROUP, "tok", text="new"))
    [parsed] = parse(body, signature(body), SECRET)
    assert (parsed.kind, parsed.chat_id, parsed.text) == ("message", OWN_GROUP, "new")
    assert parsed.in_group and parsed.at is not None
    tampered = body.replace(b"new", b"old")
    with pytest.raises(BadRequest, match="signature"):
        parse(tampered, signature(body), SECRET)
    with pytest.raises(BadRequest, match="signed but unreadable"):
        parse(b"[1, 2]", signature(b"[1, 2]"), SECRET)
    untyped = event("message", TO, "t1", text="a")
    del untyped["type"]
    document = {"destination": BOT, "events": [untyped, event("message", TO, "t2", text="new")]}
    body = json.dumps(document).encode()  # not LINE's schema on purpose: no payload() check
    assert [e.text for e in parse(body, signature(body), SECRET)] == ["new"]


def test_the_inbox_keeps_each_event_once_and_ignores_replayed_old_ones(
    store: SQLiteStore,
) -> None:
    waiting_jobs(store)
    clock, replier = Clock(T0), Replier()
    inbox = Inbox(Chat(CONFIG, store, replier, TO, clock, "w"), "w", clock)
    new = event("message", TO, "t1", text="งานใหม่", timestamp=at(T0), event_id="E1")
    assert receive(inbox, *signed(new)) == 200
    assert receive(inbox, *signed(new)) == 200  # LINE's redelivery
    old = [
        event("message", TO, "t2", text="new", timestamp=0),  # 1970
        event("message", TO, "t3", text="new", timestamp=at(T0 - timedelta(days=8))),
        event("message", TO, "t4", text="new", timestamp=at(T0 + timedelta(hours=2))),
    ]
    assert receive(inbox, *signed(*old)) == 200
    assert inbox.wait_idle(5)
    assert len(replier.replies) == 1 and len(replier.replies[0]) >= 1
    assert set(store.outbox.job_states().values()) == {"primed", "sent"}
    inbox.stop(time.monotonic() + 1)


def test_a_database_gone_answers_500_so_that_telegram_sends_the_update_again(
    tmp_path: Path,
) -> None:
    """Telegram's webhook keeps its update in the same inbox: no database, a 500 (Telegram
    repeats a request not answered 2xx), and nothing answered."""
    store = SQLiteStore(tmp_path / "gone.db")
    store.migrate()
    replier, clock = Replier(), Clock(T0)
    inbox = Inbox(Chat(CONFIG, store, replier, TO, clock, "w"), "w", clock)
    hook = serve(telegram_webhook("telegram-secret-0123456789"), inbox)
    message = {"message_id": 1, "date": int(T0.timestamp()), "text": "hi",
               "chat": {"id": 111, "type": "private"}}  # fmt: skip
    update = json.dumps({"update_id": 5, "message": message}).encode()
    (tmp_path / "gone.db").unlink()  # a cleanup took the file away under the running bot
    assert hook.receive(update, {}) == 500
    assert replier.replies == []
    inbox.stop(time.monotonic() + 1)
    store.close()


def test_a_database_gone_answers_500_so_that_line_may_send_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SQLiteStore(tmp_path / "gone.db")
    store.migrate()
    replier, clock = Replier(), Clock(T0)
    inbox = Inbox(Chat(CONFIG, store, replier, TO, clock, "w"), "w", clock)
    (tmp_path / "gone.db").unlink()  # a cleanup took the file away under the running bot
    assert receive(inbox, *signed(event("message", TO, "tok", text="new", timestamp=at(T0)))) == 500
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert any("could not keep 1 webhook events" in r.getMessage() for r in errors)
    assert all(r.exc_info is None for r in errors) and replier.replies == []
    assert receive(inbox, b"{}", "bad") == 400  # and it is still there for the next request
    inbox.stop(time.monotonic() + 1)
    store.close()


def test_events_left_at_a_stop_are_answered_by_the_next_hunter(tmp_path: Path) -> None:
    path = tmp_path / "hunter.db"
    first_store, clock = SQLiteStore(path), Clock(T0)
    first_store.migrate()
    waiting_jobs(first_store)
    slow = Replier(seconds=0.5)
    first = Inbox(Chat(CONFIG, first_store, slow, TO, clock, "w1"), "w1", clock)
    events = [
        event("postback", TO, f"t{n}", data=f"applied a:{n}", timestamp=at(T0)) for n in range(3)
    ]
    assert receive(first, *signed(*events)) == 200
    time.sleep(0.1)  # the first is being answered; the other two wait behind it
    first.stop(time.monotonic() + 5)  # SIGTERM: the reply in flight finishes
    assert len(slow.replies) == 1
    second_store, replier = SQLiteStore(path), Replier()
    second = Inbox(Chat(CONFIG, second_store, replier, TO, clock, "w2"), "w2", clock)
    deadline = time.monotonic() + 5
    while len(replier.replies) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert second.wait_idle(5)
    assert len(replier.replies) == 2  # the two left, once each
    assert {m.job_id for m in second_store.chat.marks("applied")} == {"a:0", "a:1", "a:2"}
    second.stop(time.monotonic() + 1)
    for store in (first_store, second_store):
        store.close()


def test_one_chats_backlog_does_not_hold_up_another() -> None:
    queue = FairQueue(backlog=500)
    for n in range(200):
        assert queue.put(say("555", n, OTHER_GROUP))
    assert queue.put(say("งานใหม่", 999, TO))
    first = queue.get()
    assert first is not None and first[0] == OTHER_GROUP
    second = queue.get()  # the group is busy with its first event: the owner's turn
    assert second is not None and second[1].event_id == "E999"
    queue.done(OTHER_GROUP)
    queue.done(TO)
    third = queue.get()
    assert third is not None and third[1].event_id == "E1"  # the group's events stay in order
    small = FairQueue(backlog=2)
    assert [small.put(say("x", n, OTHER_GROUP)) for n in range(3)] == [True, True, False]
    assert len(queue.close()) == 198 and queue.get() is None


def test_strangers_chats_do_not_delay_the_owners_answer(store: SQLiteStore) -> None:
    """20 strangers' groups add the bot at once and LINE takes 0.3 s a reply: 3 s of replies
    for two workers. The owner's "help", sent after them, is answered next."""
    clock, replier = Clock(T0), Replier(seconds=0.3)
    inbox = Inbox(Chat(CONFIG, store, replier, TO, clock, "w"), "w", clock, workers=2)
    joins = [event("join", f"C{n:032d}", f"g{n}", timestamp=at(T0)) for n in range(20)]
    assert receive(inbox, *signed(*joins)) == 200
    started = time.monotonic()
    assert receive(inbox, *signed(event("message", TO, "o1", text="help", timestamp=at(T0)))) == 200
    while not any("งานใหม่ (new)" in t for t in replier.texts()):
        assert time.monotonic() - started < 1.2, "the owner waited behind the strangers"
        time.sleep(0.02)
    assert len(replier.replies) < 8  # most strangers are still waiting their turn
    inbox.stop(time.monotonic() + 10)


def test_a_chat_sending_more_than_it_is_answered_is_told_once(store: SQLiteStore) -> None:
    """Issue 37, low 10: 200 commands at once, LINE taking 0.05 s a reply. The first 50 wait
    in order; the chat is told at once (first in its queue, with a reply of its own) that the
    rest were skipped; none of them waits for the sweep to be answered minutes late."""
    clock, replier = Clock(T0), Replier(seconds=0.05)
    inbox = Inbox(Chat(CONFIG, store, replier, TO, clock, "w"), "w", clock, workers=1)
    said = [event("message", TO, f"t{n}", text="คำ", timestamp=at(T0)) for n in range(200)]
    assert receive(inbox, *signed(*said)) == 200
    assert inbox.wait_idle(30)
    texts = replier.texts()
    fast = [n for n, text in enumerate(texts) if "some were skipped" in text]
    assert len(fast) == 1 and fast[0] <= 3  # told once, at once
    # The backlog, the notice, and what the worker freed room for while the 200 came in:
    # nowhere near 200 answers, each later than the one before.
    assert len(texts) < 80
    clock.advance(180)  # past the hold: the sweeper would bring what was left in the store
    assert inbox.sweep() == 0  # nothing left for the sweeper to bring late
    inbox.stop(time.monotonic() + 5)


def test_a_telegram_tap_replayed_past_the_event_memory_does_nothing(
    store: SQLiteStore,
) -> None:
    """Issue 37, low 5: a callback kept for 8 days and sent again (the secret with it) acted
    again: "say หยุด" paused the chat. A tap's card dates it: past the 7-day memory, nothing;
    a tap on a card of 6 days ago still acts."""
    config = parse_config(
        {
            "sources": [{"name": "a", "url": "https://x.test/", "kind": "rss"}],
            "chats": [{"name": "tg", "to": "telegram:111"}],
        }
    )
    replier, clock = Replier(), Clock(T0)
    inbox = Inbox(Chat(config, store, replier, None, clock, "w"), "w", clock)
    hook = serve(telegram_webhook("telegram-secret-0123456789"), inbox)

    def tap(update_id: int, card_age: timedelta) -> bytes:
        card = {"message_id": 1, "date": int((T0 - card_age).timestamp()), "text": "a job",
                "chat": {"id": 111, "type": "private"}}  # fmt: skip
        query = {"id": f"q{update_id}", "from": {"id": 111, "is_bot": False, "first_name": "S"},
                 "message": card, "chat_instance": "1", "data": "say หยุด"}  # fmt: skip
        return json.dumps({"update_id": update_id, "callback_query": query}).encode()

    assert hook.receive(tap(5, timedelta(days=8)), {}) == 200
    assert inbox.wait_idle(5)
    assert "tg" not in store.chat.rules(T0) or not store.chat.rules(T0)["tg"].paused
    assert hook.receive(tap(6, timedelta(days=6)), {}) == 200
    assert inbox.wait_idle(5)
    assert store.chat.rules(T0)["tg"].paused
    inbox.stop(time.monotonic() + 1)


def test_the_owners_status_links_the_status_page_and_a_groups_never(store: SQLiteStore) -> None:
    """Issue 36: สถานะ in the owner's own chat ends with the page's link (its token in it);
    in a group (many read it) never."""
    link = "https://hunter.example.com/status?token=status-token-0123456789abcdef"
    replier = Replier()
    Chat(CONFIG, store, replier, TO, Clock(T0), "w", status_link=link).handle(say("สถานะ", 1))
    assert replier.texts()[-1].endswith(f"status page: {link}")
    group = Chat(CONFIG, store, replier, OWN_GROUP, Clock(T0), "w", status_link=link)
    group.handle(say("สถานะ", 2, OWN_GROUP))
    assert "status page" not in replier.texts()[-1]
