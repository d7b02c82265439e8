"""Tuning from the chat on a real SQLite store, a local board, a scripted LINE and a fake clock:
each command changes only its chat and the next poll; bad input changes nothing and says what
is accepted; "ทำไม" explains every outcome with its numbers (one table); and no message, however
odd, gets more than one reply or a traceback. Through the signed webhook and `run --once`:
tests/e2e/test_tuning.py."""

from __future__ import annotations

import dataclasses
import sqlite3
import statistics
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hunter.app.service import Hunter
from hunter.chat import Chat, tuning
from hunter.chat.commands import parse
from hunter.chat.tuning import KEYWORDS_MAX
from hunter.deliver.channel import ChatEvent
from hunter.deliver.outcome import Kind, PushResult
from hunter.rules.listing import Listing
from hunter.settings.config import Config, parse_config
from hunter.status import report
from hunter.status.text import chat_text
from hunter.store.sqlite import SQLiteStore
from tests.support.board import Board, html_source
from tests.support.line_standin import TO
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)  # 16:00 in Bangkok
GROUP = "C" + "9e" * 16


class Line(ScriptedSender):
    def __init__(self) -> None:
        super().__init__()
        self.replies: list[list[dict[str, Any]]] = []

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult:
        self.replies.append(messages)
        return PushResult(Kind.SENT, 200)

    def said(self) -> str:
        return str(self.replies[-1][0]["text"])


class Setting:
    def __init__(self, store: SQLiteStore, board: Board, **extra: Any) -> None:
        self.board, self.store = board, store
        self.shown: list[tuple[str, str, str]] = []
        self.url = self.show("seed", "seed")
        self.config = self.configure(**extra)
        self.clock, self.line = Clock(T0), Line()
        self.hunter = Hunter(
            self.config, store, self.line, self.clock, "w", threading.Event(), line_to=TO
        )
        self.chat = Chat(self.config, store, self.line, TO, self.clock, "w")
        self.hunter.poll()  # primes
        self.n = 0

    def configure(self, **extra: Any) -> Config:
        source = html_source("board", self.url)
        return parse_config(
            {
                "sources": [source],
                "timezone": "Asia/Bangkok",
                "filter": {"include": ["python"], "exclude": ["unpaid"]},
                "chats": [{"name": "studio", "to": GROUP, "include": ["logo"]}],
                **extra,
            }
        )

    def say(self, text: str, chat: str = TO) -> str:
        self.n += 1
        event = ChatEvent(f"E{self.n}", "message", chat, f"t{self.n}", text=text, at=self.clock())
        self.chat.handle(event)
        return self.line.said()

    def show(self, job: str, title: str, budget: str = "") -> str:
        """The board shows one listing more (links on x.test, as a real site's); its URL."""
        self.shown.append((job, title, budget))
        page = "".join(
            f'<li class="job" data-jid="{j}"><h3><a href="https://x.test/{j}">{t}</a></h3>'
            f'<span class="price">{b}</span></li>'
            for j, t, b in self.shown
        )
        return self.board.serve("/jobs", f"<ul>{page}</ul>")

    def poll(self) -> list[str]:
        """The titles pushed to the owner by the next poll."""
        before = len(self.line.pushes)
        self.clock.advance(1800)
        self.hunter.poll()
        return [
            m["altText"]
            for (_k, messages), to in zip(
                self.line.pushes[before:], self.line.to[before:], strict=True
            )
            for m in messages
            if to == TO and m["type"] == "flex"
        ]


@pytest.fixture
def setting(store: SQLiteStore, board: Board) -> Setting:
    return Setting(store, board)


def test_each_command_changes_its_chat_and_the_next_poll(setting: Setting) -> None:
    assert "django" in setting.say("เพิ่ม Django")
    setting.show("1", "django api")
    assert setting.poll() == ["New job: django api"]
    setting.say("remove python")  # a keyword of hunter.toml's
    setting.show("2", "python bot")
    assert setting.poll() == []
    assert "5,000" in setting.say("งบ 5,000")
    setting.show("3", "django small", "฿3,000")
    setting.show("4", "django big", "฿8,000")
    assert setting.poll() == ["New job: django big"]
    assert "paused" in setting.say("หยุด")
    setting.show("5", "django later", "฿9,000")
    assert setting.poll() == [] and setting.store.outbox.job_states()["board:5"] == "pending"
    setting.say("ต่อ")
    assert setting.poll() == ["New job: django later"]
    words = setting.say("คำ")
    assert "django" in words and "python" not in words.split("\n")[0] and "5,000" in words
    quick = [i["action"]["text"] for i in setting.line.replies[-1][0]["quickReply"]["items"]]
    assert "ลบ django" in quick and "หยุด" in quick
    # Only the owner's chat changed: the studio group keeps hunter.toml's rules.
    rules = setting.store.chat.rules(setting.clock())
    assert set(rules) == {""} and rules[""].added == ("django",)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("เพิ่ม", "say the word"),
        ("add " + "x" * 200, "at most 60"),
        ("add bad\x00word", "hidden character (U+0000"),
        ("add py\u200bthon", "hidden character (U+200B ZERO WIDTH SPACE)"),
        ("add \u202epython", "hidden character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("add \ufeffpython", "hidden character (U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
        ("ลบ руthon", "mixes Cyrillic letters (ру) with Latin ones"),  # look-alikes
        ("add pythоn", "mixes Cyrillic letters (о) with Latin ones"),
        ("เพิ่ม ั", "not a lone vowel or tone mark"),  # a lone mark matched every Thai listing
        ("เพิ่ม ก", "at least 2 letters"),
        ("remove rust", "is not one of this chat's keywords"),  # never there: not "removed"
        ("งบ 1,,,,,,,,,0", "an amount of 0 or more"),  # read as ฿10 before
        ("งบ ห้าพัน", "an amount of 0 or more"),
        ("budget -5", "an amount of 0 or more"),
        ("budget 1e99", "an amount of 0 or more"),
        ("budget $20 - $30", "an amount of 0 or more"),  # a range is no floor
        ("งบ 30000 เดือน", "an amount of 0 or more"),  # never read as baht for a whole job
        ("ทำไม", "send the listing's link"),
    ],
)
def test_bad_input_says_what_is_accepted_and_changes_nothing(
    setting: Setting, text: str, answer: str
) -> None:
    assert answer in setting.say(text)
    assert setting.store.chat.rules(setting.clock()) == {}


def test_words_in_one_alphabet_or_thai_are_kept(setting: Setting) -> None:
    for word in ("python", "ภาษาไทย", "разработчик", "c++", "r", "โลโก้", "3d"):
        assert "added" in setting.say(f"add {word}"), word
    assert "removed" in setting.say("ลบ python")  # hunter.toml's word
    assert "removed" in setting.say("remove РАЗРАБОТЧИК")  # folded as it was added
    rules = setting.store.chat.rules(setting.clock())[""]
    assert set(rules.added) == {"ภาษาไทย", "c++", "r", "โลโก้", "3d"}


def test_a_chat_adds_100_keywords_and_no_more_and_its_poll_stays_quick(
    store: SQLiteStore, board: Board
) -> None:
    """Issue 29: a member of a group added 10,000 words in 149 s, and a poll of 50 listings
    ran past 378 s. 100 are kept; the next 9,900 attempts are refused and change nothing;
    every listing is judged against the 100 in force (compiled once, bench/keywords.py)."""
    setting = Setting(store, board, flood_threshold=100)
    for n in range(10_000):
        answer = setting.say(f"เพิ่ม w{n}", GROUP)
        assert ("added" in answer) == (n < 100), (n, answer)
    rules = setting.store.chat.rules(setting.clock())["studio"]
    assert len(rules.added) == 100 and "w99" in rules.added and "w100" not in rules.added
    for n in range(50):
        setting.show(f"k{n}", f"job w{n * 3} and more")
    setting.poll()
    states = setting.store.outbox.job_states("studio")
    assert sum(states[f"board:k{n}"] == "sent" for n in range(50) if n * 3 < 100) == 34
    assert all(f"board:k{n}" not in states for n in range(50) if n * 3 >= 100)


def test_a_floor_in_other_terms_judges_only_pay_in_those_terms(setting: Setting) -> None:
    """ "งบ $25/ชม." sets a floor for dollars an hour: a job at $20 an hour is filtered (and
    "why" says so in its terms), one at $30 an hour or in baht is not."""
    assert "$25 ต่อชั่วโมง · per hour" in setting.say("งบ $25/ชม.")
    assert "฿30,000 ต่อเดือน · per month" in setting.say("budget 30,000 per month")
    setting.show("1", "python hourly low", "$20/hr")
    setting.show("2", "python hourly", "$30/hr")
    setting.show("3", "python job", "฿2,000")
    setting.show("4", "python salary low", "฿25,000 ต่อเดือน")
    assert setting.poll() == ["2 new jobs: python hourly · python job"]
    assert "$20 ต่อชั่วโมง · per hour" in why(setting, "https://x.test/1")
    words = setting.say("คำ")
    assert "25 USD per hour" in words and "30,000 THB per month" in words
    assert "ไม่กำหนด" in setting.say("งบ $0/hr")  # lifted: dollars an hour pass again
    setting.show("5", "python hourly again", "$20/hr")
    assert setting.poll() == ["New job: python hourly again"]
    rules = setting.store.chat.rules(setting.clock())[""]
    assert rules.min_budget is None and len(rules.floors) == 2  # baht a job: hunter.toml's


def test_a_stranger_changes_nothing(setting: Setting) -> None:
    assert "private" in setting.say("เพิ่ม django", "U" + "5" * 32)
    assert setting.store.chat.rules(setting.clock()) == {}


def why(setting: Setting, link: str, chat: str = TO) -> str:
    return setting.say(f"ทำไม {link}", chat)


def test_why_explains_every_outcome_with_its_numbers(setting: Setting) -> None:
    s = setting
    s.say("งบ 5000")
    s.show("cheap", "python cheap", "฿3,000")
    s.show("unpaid", "python unpaid intern", "฿9,000")
    s.show("other", "java dev", "฿9,000")
    s.show("muted", "python muted", "฿9,000")
    s.show("sent", "python sent", "฿9,000")
    s.chat.handle(ChatEvent("M", "tap", TO, "tm", data="mute python", at=s.clock()))
    s.say("เพิ่ม django")  # "python muted" would still match python only: muted
    s.show("dismissed", "django dismissed", "฿9,000")
    s.poll()
    s.chat.handle(ChatEvent("D", "tap", TO, "td", data="dismiss board:dismissed", at=s.clock()))
    s.say("หยุด")
    s.show("paused", "django paused", "฿9,000")
    s.poll()
    table = [
        ("https://x.test/never", ["never seen", "board reads that site"]),
        ("https://elsewhere.test/1", ["never seen", "no source reads that site"]),
        ("https://x.test/cheap", ["filtered", "฿3,000", "฿5,000", "ต่ำกว่า"]),
        ("https://x.test/unpaid", ["filtered", "excluded by 'unpaid'"]),
        ("https://x.test/other", ["filtered", "none of its words", "python, django"]),
        ("https://x.test/muted", ["muted word", "python"]),
        ("board:dismissed", ["dismissed"]),
        ("https://x.test/paused", ["paused"]),
        ("https://x.test/seed", ["first read (priming)"]),
    ]
    for link, needles in table:
        answer = why(s, link)
        assert all(needle in answer for needle in needles), (link, answer)
    s.say("ต่อ")
    s.poll()
    sent = why(s, "https://x.test/paused")
    assert "sent" in sent and (s.clock() + timedelta(hours=7)).strftime("%d %b") in sent
    # The studio group has its own rows and rules: a python listing was never for it.
    assert "none of its words (logo)" in why(s, "https://x.test/sent", GROUP)


def test_why_says_until_when_the_pace_holds_a_listing(store: SQLiteStore, board: Board) -> None:
    s = Setting(store, board, monthly_messages=20)
    s.line.quota_answer = (20, 0)
    for n in range(6):  # more than the pace lets go today
        s.show(f"p{n}", f"python {n}")
        s.poll()
    waiting = [j for j, status in store.outbox.job_states().items() if status == "pending"]
    assert waiting
    answer = why(s, waiting[0])
    assert "waiting for the pace: next push" in answer, answer


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.one_of(
        st.text(max_size=80),
        st.sampled_from(
            ["เพิ่ม", "ลบ", "งบ", "ทำไม", "add", "remove", "budget", "why", "คำ"]
        ).flatmap(lambda verb: st.text(max_size=60).map(lambda rest: f"{verb} {rest}")),
        st.just("งบ " + "9" * 5000),
        st.just("เพิ่ม " + "ก" * 5000),
        st.just("why \x00\x00"),
        st.just("ทำไม 🤖🔥 https://x.test/🔥"),
    )
)
def test_any_message_gets_at_most_one_reply_and_no_traceback(setting: Setting, text: str) -> None:
    before = len(setting.line.replies)
    setting.n += 1
    event = ChatEvent(
        f"F{setting.n}", "message", TO, f"f{setting.n}", text=text, at=setting.clock()
    )
    setting.chat.handle(event)
    assert len(setting.line.replies) - before <= 1
    command = parse(text)
    if command is not None and command.verb in ("add", "remove") and len(command.argument) > 60:
        assert setting.store.chat.rules(setting.clock()).get("") is None or all(
            len(w) <= 60 for w in setting.store.chat.rules(setting.clock())[""].added
        )


def test_status_in_the_chat_says_what_hunter_status_says(store: SQLiteStore, board: Board) -> None:
    """ "สถานะ" and `hunter status` print one report: the chat shows its own waiting count and
    the pace's next push exactly as the report has them (no second reckoning)."""
    s = Setting(store, board, monthly_messages=20)
    s.line.quota_answer = (20, 0)
    for n in range(6):  # more than the pace lets go today: some wait
        s.show(f"p{n}", f"python {n}")
        s.poll()
    gathered = report.gather(s.config, store, s.chat.destinations, s.line, s.clock())
    owner = gathered.chat("owner")
    assert owner is not None and owner.waiting > 0 and gathered.next_push_at is not None
    said = s.say("สถานะ")
    assert f"รอส่ง {owner.waiting} · waiting {owner.waiting}" in said
    at = gathered.next_push_at.astimezone(ZoneInfo("Asia/Bangkok"))
    assert f"LINE 0/20 · next push {at:%d %b %H:%M}" in said
    assert said == chat_text(gathered, "", "Asia/Bangkok")


def test_a_mute_by_button_keeps_the_rules_and_the_cap_of_typed_keywords(
    setting: Setting,
) -> None:
    """Issue 37, low 8: forged "mute" buttons left 17 mutes, hidden characters among them.
    A button's word meets a typed keyword's rules, and a chat mutes at most KEYWORDS_MAX."""
    s = setting

    def tap(data: str) -> str:
        s.n += 1
        event = ChatEvent(f"B{s.n}", "tap", TO, f"b{s.n}", data=data, at=s.clock())
        s.chat.handle(event)
        return s.line.said()

    for hidden in ("py\u200bthon", "\u202eedoc", "x" * 61, "руthon"):
        assert "muted" not in tap(f"mute {hidden}"), hidden
    assert s.store.chat.rules(s.clock()).get("") is None or not s.store.chat.mutes(s.clock())
    for n in range(KEYWORDS_MAX):
        assert "muted" in tap(f"mute word{n}")
    assert f"at most {KEYWORDS_MAX}" in tap("mute onemore")
    assert "muted" in tap("mute word0")  # muting again what is muted: no new one
    assert len(s.store.chat.mutes(s.clock())) == KEYWORDS_MAX


def test_a_cards_mute_is_lifted_from_the_chat(setting: Setting) -> None:
    """A new user's find: "ไม่เอาคำนี้" said "hunter unmute python to undo", a command line a
    person on their phone cannot run, and "เพิ่ม python" answered "added" while its listings
    stayed muted. "เปิดคำ WORD" / "unmute WORD" lifts it in the chat it is said in; adding a
    muted word says it is still muted, and until when."""
    s = setting
    s.n += 1
    s.chat.handle(ChatEvent(f"B{s.n}", "tap", TO, f"b{s.n}", data="mute python", at=s.clock()))
    muted = s.line.said()
    assert "เปิดคำ python" in muted and "hunter unmute" not in muted
    assert "ปิดคำ · muted: python" in s.say("คำ")
    still = s.say("เพิ่ม python")
    assert "still muted until" in still and "unmute python lifts it" in still
    assert "no longer muted" in s.say("เปิดคำ python")
    assert "python" in s.store.chat.rules(s.clock())[""].added
    assert not s.store.chat.mutes(s.clock())
    assert "is not muted in this chat" in s.say("unmute python")  # nothing left: says so
    assert "still muted" not in s.say("เพิ่ม python")


def test_the_daily_prune_forgets_old_removals_but_hunter_tomls(setting: Setting) -> None:
    s = setting
    for n in range(20):
        s.say(f"เพิ่ม w{n}")
        s.say(f"ลบ w{n}")
    s.say("ลบ python")  # hunter.toml's word: its removal is what keeps it removed
    s.clock.advance(2 * 86400)
    s.hunter.prune()
    rules = s.store.chat.rules(s.clock())[""]
    assert rules.removed == ("python",) and rules.added == ()
    assert "python" not in s.say("คำ").split("\n")[0]  # still removed


def test_a_change_says_what_the_last_week_would_have_brought(setting: Setting) -> None:
    """Issue 54, try before you wait: a chat that changes its words, places or languages is
    told at once how many of the last 7 days' listings its rules would have brought, and the
    newest three, so that it tunes in a minute instead of in a week."""
    s = setting
    for n, title in enumerate(["python api", "django shop", "django admin", "logo design"], 1):
        s.show(str(n), title)
        s.poll()
    said = s.say("เพิ่ม django")
    assert said.splitlines()[1] == (
        "7 วันที่ผ่านมา ตรง 3 จาก 5 งาน · the last 7 days would have brought 3 of 5: "
        "“django admin”, “django shop”, “python api”"
    )  # the seed, primed, counts among what hunter saw; newest first
    said = s.say("ภาษา th")  # titles this short say no language: kept (unknown is never no)
    assert "would have brought 3 of 5" in said
    s.clock.advance(8 * 86_400)
    assert s.say("ลบ django").splitlines() == [
        "ลบคำ “django” แล้ว · removed “django”"
    ]  # none lately


def test_a_change_whose_preview_cannot_be_read_is_kept_and_answered(
    setting: Setting, caplog: pytest.LogCaptureFixture
) -> None:
    """The preview is read after the change is kept: a database that refuses that read (here
    its listings' table is gone) costs the answer its second line, never the change or the
    answer."""
    s = setting
    s.show("1", "django shop")
    s.poll()
    with sqlite3.connect(s.store.path) as db:
        db.execute("ALTER TABLE hunter_seen_jobs RENAME TO hunter_seen_jobs_away")
    said = s.say("เพิ่ม django")
    assert said == "เพิ่มคำ “django” แล้ว · added “django”"  # no preview line
    assert "django" in s.say("คำ")  # the change was kept
    assert "no preview for a chat's change" in caplog.text


def test_a_count_of_what_was_held_back_that_the_database_refuses_fails_no_poll(
    store: SQLiteStore, board: Board, caplog: pytest.LogCaptureFixture
) -> None:
    """What the places held back is counted after the read is recorded; a database that
    refuses the count (a trigger here) loses the count only: the read's listings are recorded
    and the one the chat wants is pushed."""
    s = Setting(store, board, filter={"include": ["python"], "places": ["Portugal", "remote"]})
    with sqlite3.connect(store.path) as db:
        db.execute(
            "CREATE TRIGGER refuse_counts BEFORE INSERT ON hunter_chat_settings "
            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
    s.show("1", "python api (Remote - US only)")  # open to the US only: held by place
    s.show("2", "python shop")  # no place: kept
    assert s.poll() == ["New job: python shop"]
    assert [r["status"] for r in store.chat.find(["board:1"], None)] == ["ignored"]
    assert "were not counted" in caplog.text
    assert "recording its listings failed" not in caplog.text  # the read is a good one
    assert [row.last_error for row in store.sources.all()] == [None]
    assert "" not in store.chat.rules(s.clock())  # no count kept: refused


def _item(job: str, title: str) -> str:
    """One listing of a board's page, as Setting.show writes them."""
    return f'<li class="job" data-jid="{job}"><h3><a href="https://x.test/{job}">{title}</a></h3>'


def test_each_read_of_a_poll_counts_what_it_held_back_once(
    store: SQLiteStore, board: Board
) -> None:
    """The chats' index is made once a poll for the sources that share their filter and
    readers (poll/poller.py's Judging: a third of a second of CPU for 10,000 subscribers, paid
    by every source with news); what each read held back is still counted once."""

    other = board.serve("/other", f"<ul>{_item('7', 'seed')}</ul>")
    sources = [html_source("board", f"{board.url}/jobs"), html_source("other", other)]
    places = {"include": ["python"], "places": ["Portugal", "remote"]}
    s = Setting(store, board, sources=sources, filter=places)
    s.show("1", "python api (Remote - US only)")  # open to the US only: held by place
    shown = [("9", "python app (Remote - US only)"), ("8", "python shop"), ("7", "seed")]
    board.serve("/other", f"<ul>{''.join(_item(j, t) for j, t in shown)}</ul>")
    assert s.poll() == ["New job: python shop"]
    assert store.chat.rules(s.clock())[""].held == {"place": 2, "language": 0, "taps": 0}


def test_a_listing_held_back_is_counted_once_however_often_its_page_is_read(
    store: SQLiteStore, board: Board
) -> None:
    """A new user's find: "held back by place" grew by the same listing at every read of a
    page that still showed it (12 a day for one job, read every two hours). A listing is
    counted the read it is new."""
    places = {"include": ["python"], "places": ["Portugal", "remote"]}
    s = Setting(store, board, filter=places)
    s.show("1", "python api (Remote - US only)")  # open to the US only: held by place
    assert s.poll() == []
    s.show("2", "python shop")  # a new one beside it: the page changed, and is read again
    assert s.poll() == ["New job: python shop"]
    assert s.poll() == []
    assert store.chat.rules(s.clock())[""].held == {"place": 1, "language": 0, "taps": 0}


def test_a_read_whose_recording_fails_leaves_no_count_to_the_next_read(
    store: SQLiteStore, board: Board
) -> None:
    """The index a poll shares between sources counts what each read held back. A read whose
    listings the database refuses is read again next poll, its count with it: the next
    source's read counts only its own."""
    other = board.serve("/other", f"<ul>{_item('7', 'seed')}</ul>")
    sources = [html_source("board", f"{board.url}/jobs"), html_source("other", other)]
    places = {"include": ["python"], "places": ["Portugal", "remote"]}
    s = Setting(store, board, sources=sources, filter=places)
    with sqlite3.connect(store.path) as db:  # the first source's listings are refused
        db.execute(
            "CREATE TRIGGER refuse_board BEFORE INSERT ON hunter_seen_jobs "
            "WHEN NEW.source = 'board' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
    s.show("1", "python api (Remote - US only)")  # held by place, its read not recorded
    shown = [("9", "python app (Remote - US only)"), ("8", "python shop"), ("7", "seed")]
    board.serve("/other", f"<ul>{''.join(_item(j, t) for j, t in shown)}</ul>")
    assert s.poll() == ["New job: python shop"]
    assert store.chat.rules(s.clock())[""].held == {"place": 1, "language": 0, "taps": 0}


def test_previews_take_at_most_a_tenth_of_a_core_however_many_chats_change(
    setting: Setting, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 62, low 9: a preview judges up to 1,000 listings (about 120 ms of CPU), and 25
    subscribers changing their places at their 20 a minute filled a core. Previews now share
    a tenth of a core (2 s at once): past it a change is kept and answered without one."""
    s = setting
    # A tenth of a core as in hunter, with less at once (0.5 s, not 2), so that the share runs
    # out within the test however slow the machine (each preview here is about 20 ms)
    monkeypatch.setattr(tuning, "PREVIEWS", tuning.CpuShare(share=0.1, most=0.5))
    text = "We build payment tools for shops across Southeast Asia; you will run our services. "
    page = "".join(
        f'<li class="job" data-jid="p{n}"><h3><a href="https://x.test/p{n}">python job {n} in '
        f'Bangkok</a></h3><span class="price"></span><p class="desc">{text * 4}</p></li>'
        for n in range(tuning.PREVIEW_MOST)
    )
    s.board.serve("/jobs", f"<ul>{page}</ul>")
    s.poll()
    # One preview's CPU, as the chats' below cost: with a place, warm, the median of five (a
    # single cold one, on a fresh clone, cost a third more than those the share then paid for)
    recent = tuning.recent(s.store, s.clock())
    rules = dataclasses.replace(s.hunter.config.filter, places=("กรุงเทพฯ",))
    costs = []
    for _ in range(6):
        started = time.thread_time()
        tuning.preview(recent, rules)
        costs.append(time.thread_time() - started)
    each = statistics.median(costs[1:])
    began = time.monotonic()
    answers = [s.say(f"ที่ทำงาน {place}") for place in ["กรุงเทพฯ", "เชียงใหม่"] * 60]
    wall = time.monotonic() - began
    previewed = sum("would have brought" in a for a in answers)
    skipped = sum(tuning.NO_PREVIEW in a for a in answers)
    assert previewed + skipped == len(answers)  # every change answered, and kept
    assert "เชียงใหม่" in s.say("ที่ทำงาน")
    # what the previews took: the 0.5 s at once, then a tenth of a core (one preview's slack)
    assert previewed * each <= (0.5 + 0.1 * wall + each) * 1.25, (previewed, each, wall)
    assert skipped > 0


def test_why_names_no_source_hunter_toml_no_longer_reads(setting: Setting) -> None:
    """A source taken out of hunter.toml still has its listings in the store: it reads the
    site no more, so a listing there never seen is not said to be coming."""
    gone = Listing("gone:1", "gone", "python old", "https://old.test/1")
    setting.store.outbox.record("gone", [gone], set(), setting.clock())
    answer = why(setting, "https://old.test/2")
    assert "no source reads that site" in answer and "gone" not in answer


def test_a_chat_names_its_places_in_its_own_language(setting: Setting) -> None:
    """A chat that writes a country, a region and remote work in its own language ("Suiza",
    "欧洲", "远程": remote) has them as its places; a name no language has is refused."""
    answer = setting.say("places Suiza, 欧洲, 远程")
    assert "places: Suiza, 欧洲, remote" in answer, answer
    assert setting.store.chat.rules(setting.clock())[""].places == ("Suiza", "欧洲", "remote")
    assert "Qwertyville" in setting.say("places Qwertyville")
    assert setting.store.chat.rules(setting.clock())[""].places == ("Suiza", "欧洲", "remote")


def test_a_place_of_two_countries_is_said_as_the_one_taken_and_the_other_can_be_named(
    setting: Setting,
) -> None:
    """A new user's find: "Valencia" was Venezuela's, and nothing said so to a chat in Spain.
    The answer says which one it took, and how to name the other, which then holds."""
    said = setting.say("ที่ทำงาน Valencia, remote")
    assert "ที่ทำงาน · places: Valencia, remote" in said
    assert "“Valencia” is read as Valencia, VE" in said and "write “Valencia (ES)”" in said
    said = setting.say("ที่ทำงาน Valencia (ES), remote")
    assert "ที่ทำงาน · places: Valencia (ES), remote" in said and "is read as" not in said
