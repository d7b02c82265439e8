"""The subscribers room, the same on SQLite, PostgreSQL and Supabase (issue 42): a chat joins
once, at most `max` are in or waiting however many press Start at once, the owner lets in one
that asked, /stop ends it and drops what waited, and /forget leaves no row of it in any
table."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from hunter.rules.filter_config import PayFloor
from hunter.rules.listing import Listing
from hunter.store.base import Store
from hunter.store.subscribers import NEVER, Joined, Membership, Standing

T0 = datetime(2026, 12, 3, 9, tzinfo=UTC)
ALICE = "telegram:1001"
BOB = "telegram:-1002"  # a group


def test_a_chat_joins_once_and_is_counted(store: Store) -> None:
    assert store.subscribers.join(ALICE, False, 10, T0) is Joined.JOINED
    assert store.subscribers.join(ALICE, False, 10, T0) is Joined.MEMBER
    [alice] = store.subscribers.all()
    assert (alice.chat, alice.standing, alice.joined_at) == (ALICE, Standing.ACTIVE, T0)
    assert store.subscribers.counts(T0) == Membership(active=1, joined=1)
    assert store.subscribers.counts(T0 + timedelta(seconds=1)) == Membership(active=1)


def test_one_who_asks_waits_for_the_owner(store: Store) -> None:
    assert store.subscribers.join(ALICE, True, 10, T0) is Joined.ASKED
    assert store.subscribers.join(ALICE, True, 10, T0) is Joined.WAITING
    assert [s.standing for s in store.subscribers.all()] == [Standing.ASKED]
    assert store.subscribers.counts(T0) == Membership(asked=1)  # not a join yet
    assert store.subscribers.approve(ALICE, T0 + timedelta(minutes=5))
    assert not store.subscribers.approve(ALICE, T0 + timedelta(minutes=6))  # once
    assert not store.subscribers.approve(BOB, T0)  # never asked
    assert store.subscribers.counts(T0) == Membership(active=1, joined=1)


def test_the_name_one_who_asks_gave_is_kept_while_it_waits(store: Store) -> None:
    # Issue 62, low 7: the owner's card a poll makes names them (it named no one)
    long = "So\u202emchai " + "x" * 100
    assert store.subscribers.join(ALICE, True, 10, T0, "501", long) is Joined.ASKED
    assert store.subscribers.join(BOB, True, 10, T0, "502", None) is Joined.ASKED
    assert store.subscribers.join("telegram:7", False, 10, T0, "7", "Joined") is Joined.JOINED
    assert store.subscribers.asker_names() == {ALICE: long[:64]}  # only who waits, one line
    assert store.subscribers.approve(ALICE, T0)
    assert store.subscribers.asker_names() == {}  # let in: its name is not kept
    assert store.subscribers.join(BOB, True, 10, T0 + timedelta(days=8), "502", "Team") in (
        Joined.ASKED,
    )
    assert store.subscribers.asker_names() == {BOB: "Team"}
    store.subscribers.forget(BOB)
    assert store.subscribers.asker_names() == {}


def test_no_more_than_max_are_in_or_waiting(store: Store) -> None:
    assert store.subscribers.join("telegram:1", False, 2, T0) is Joined.JOINED
    assert store.subscribers.join("telegram:2", True, 2, T0) is Joined.ASKED
    assert store.subscribers.join("telegram:3", False, 2, T0) is Joined.FULL
    assert store.subscribers.leave("telegram:1", T0)
    assert store.subscribers.join("telegram:3", False, 2, T0) is Joined.JOINED  # room again


def test_many_starts_at_once_let_in_exactly_max(store: Store) -> None:
    outcomes: list[Joined] = []
    lock = threading.Lock()

    def start(n: int) -> None:
        answer = store.subscribers.join(f"telegram:{n}", False, 7, T0)
        with lock:
            outcomes.append(answer)

    threads = [threading.Thread(target=start, args=(n,)) for n in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(Joined.JOINED) == 7 and outcomes.count(Joined.FULL) == 23
    assert len(store.subscribers.all()) == 7


def _listing(n: int, chat: str = "") -> Listing:
    job = f"{n}{chat[-4:]}"
    return Listing(f"a:{job}", "a", f"python job {job}", f"https://x.test/{job}")


def _rows_of(store: Store, chat: str) -> None:
    """A row of `chat` in every table a chat has rows in: its outbox rows (sent, waiting and
    in flight, with a batch body), a mark, keywords, a budget, a floor, a mute, a webhook
    event, "private" told, its member count."""
    store.outbox.record("a", [_listing(0)], set(), T0)  # primes the source
    listings = [_listing(n, chat) for n in (1, 2, 3)]
    chats = {x.job_id: [(chat, x)] for x in listings}
    store.outbox.record("a", listings, set(), T0, chats=chats)
    [sent] = store.outbox.claim_new("w", "k1", 1, T0, chat)
    store.outbox.save_batch("k1", "[]", T0)
    store.outbox.mark_sent("k1", T0)
    store.outbox.claim_new("w", "k2", 1, T0, chat)
    store.outbox.save_batch("k2", "[]", T0)
    store.outbox.save_batch("k2#attempt-1", "[]", T0)
    store.chat.mark(sent.job_id, "applied", T0, chat)
    store.chat.tune_word(chat, "python", "add", T0, 50)
    store.chat.tune_settings(chat, T0, min_budget=3000)
    store.chat.tune_floor(chat, PayFloor(20, "USD", "hour"), T0)
    store.chat.mute("java", T0 + timedelta(days=1), T0, chat)
    store.chat.accept([(f"{chat}:7", chat, {"update_id": 7, "text": "hello"})], "w", T0)
    store.chat.note_private(chat, T0, T0 - timedelta(days=7))
    store.pace.set_members(chat, chat, 1, T0)


def _mentions(store: Store, request: pytest.FixtureRequest, chat: str) -> list[str]:
    """Every hunter table holding `chat` anywhere in a row, read from the database itself."""
    if store.dialect == "sqlite":
        db = sqlite3.connect(store.path)  # type: ignore[attr-defined]
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        found = [
            n for n in names if any(chat in str(row) for row in db.execute(f'SELECT * FROM "{n}"'))
        ]
        db.close()
        return found
    if request.getfixturevalue("store_kind") == "supabase":
        url = request.getfixturevalue("supabase").database_url
    else:
        url = request.getfixturevalue("migrated_pg_url")
    with psycopg.connect(url) as db:
        names = [
            r[0]
            for r in db.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_name LIKE 'hunter%'"
            )
        ]
        return [
            n
            for n in names
            if any(chat in row[0] for row in db.execute(f'SELECT t::text FROM "{n}" t'))
        ]


def test_stop_ends_it_and_drops_what_waited(store: Store) -> None:
    store.subscribers.join(ALICE, False, 10, T0)
    _rows_of(store, ALICE)
    assert store.subscribers.leave(ALICE, T0 + timedelta(hours=1))
    assert not store.subscribers.leave(ALICE, T0 + timedelta(hours=2))
    assert store.subscribers.all() == []
    assert store.subscribers.counts(T0) == Membership(joined=1, left=1, sent_recently=1)
    left = store.chat.find([_listing(n, ALICE).job_id for n in (1, 2, 3)], None)
    mine = [(r["job_id"], r["status"]) for r in left if r["chat"] == ALICE]
    assert mine == [("a:11001", "sent")]  # the rest gone
    assert store.outbox.claim_new("w", "k3", 10, T0, ALICE) == []
    assert store.chat.rules(T0)[ALICE].added == ("python",)  # kept until forgotten


def test_forget_leaves_no_row_of_the_chat(store: Store, request: pytest.FixtureRequest) -> None:
    store.subscribers.join(ALICE, False, 10, T0)
    store.subscribers.join(BOB, False, 10, T0)
    _rows_of(store, ALICE)
    _rows_of(store, BOB)
    assert set(_mentions(store, request, ALICE)) >= {"hunter_seen_jobs", "hunter_subscribers"}
    assert store.subscribers.forget(ALICE) >= 12
    assert _mentions(store, request, ALICE) == []
    assert "hunter_tuning" in _mentions(store, request, BOB)  # the others' rows stay
    assert [s.chat for s in store.subscribers.all()] == [BOB]
    assert store.subscribers.forget("") == 0  # never the owner's


def test_the_prune_forgets_chats_gone_long_ago(
    store: Store, request: pytest.FixtureRequest
) -> None:
    store.subscribers.join(ALICE, False, 10, T0)
    store.subscribers.join(BOB, True, 10, T0)  # asked, never let in
    store.subscribers.join("telegram:3", False, 10, T0)
    _rows_of(store, ALICE)
    store.subscribers.leave(ALICE, T0 + timedelta(days=1))
    assert store.subscribers.prune(T0 + timedelta(hours=1)) == [BOB]  # ALICE left since
    assert store.subscribers.prune(T0 + timedelta(days=2)) == [ALICE]
    assert _mentions(store, request, ALICE) == []
    assert [s.chat for s in store.subscribers.all()] == ["telegram:3"]
    # telegram:3 is in, since T0; ALICE, forgotten, is no longer counted as gone
    assert store.subscribers.counts(T0) == Membership(active=1, joined=1)


def test_a_chat_that_starts_and_stops_all_day_is_one_person_and_one_row(
    store: Store, request: pytest.FixtureRequest
) -> None:
    """Issue 55, medium 9: every /start and /stop was a row kept 45 days, and the status
    said "today 30 joined, 30 left" of one chat."""
    for n in range(30):
        store.subscribers.join(ALICE, False, 10, T0 + timedelta(minutes=2 * n))
        store.subscribers.leave(ALICE, T0 + timedelta(minutes=2 * n + 1))
    store.subscribers.join(BOB, False, 10, T0)
    assert store.subscribers.counts(T0) == Membership(active=1, joined=2, left=1)
    assert "hunter_membership" not in _mentions(store, request, "join")
    assert _mentions(store, request, ALICE) == ["hunter_subscribers"]  # its one row


def test_asks_expire_after_a_week_and_fill_half_of_max_at_most(store: Store) -> None:
    """Issue 55, medium 6: five asks nobody answered filled `max = 5` for 45 days."""
    asked = [store.subscribers.join(f"telegram:{n}", True, 5, T0) for n in range(5)]
    assert asked == [Joined.ASKED, Joined.ASKED, Joined.FULL, Joined.FULL, Joined.FULL]
    assert store.subscribers.join("telegram:9", False, 5, T0) is Joined.JOINED  # room to join
    week = T0 + timedelta(days=7, seconds=1)
    assert store.subscribers.join("telegram:0", True, 5, week) is Joined.ASKED  # asks again
    assert store.subscribers.join("telegram:2", True, 5, week) is Joined.ASKED  # 1's expired
    assert store.subscribers.join("telegram:3", True, 5, week) is Joined.FULL  # half of 5


def test_one_chat_is_looked_up_alone(store: Store) -> None:
    store.subscribers.join(ALICE, False, 10, T0)
    store.subscribers.join(BOB, True, 10, T0)
    alice, bob = store.subscribers.of(ALICE), store.subscribers.of(BOB)
    assert alice is not None and alice.active and bob is not None and not bob.active
    assert store.subscribers.of("telegram:9") is None
    store.subscribers.leave(ALICE, T0)
    assert store.subscribers.of(ALICE) is None


def test_the_status_sees_the_longest_wait_and_the_pace(store: Store) -> None:
    store.subscribers.join(ALICE, False, 10, T0)
    _rows_of(store, ALICE)  # one sent at T0, one in flight, one waiting since T0
    counts = store.subscribers.counts(T0, T0)
    assert (counts.oldest_waiting, counts.sent_recently) == (T0, 1)
    later = store.subscribers.counts(T0, T0 + timedelta(seconds=1))
    assert later.sent_recently == 0  # none sent since


def test_a_turn_is_taken_once_per_while_and_only_after_something_new(store: Store) -> None:
    """The owner's card of the chats that ask (issue 55): the store decides whose turn."""
    every = timedelta(hours=4)
    turn = store.subscribers.take_turn
    assert turn("asks_card_at", T0, every, T0) == NEVER  # the first: taken
    assert turn("asks_card_at", T0 + timedelta(minutes=1), every, T0 + timedelta(minutes=1)) is None
    later = T0 + every
    assert turn("asks_card_at", later, every, T0) is None  # nothing new since the last
    assert turn("asks_card_at", later, every, later) == T0  # due, and someone new: taken
    assert turn("other", later, every, later) == NEVER  # another key, its own turn


def test_of_many_replicas_one_takes_a_turn(store: Store) -> None:
    taken: list[object] = []
    lock = threading.Lock()

    def take() -> None:
        answer = store.subscribers.take_turn("asks_card_at", T0, timedelta(hours=4), T0)
        with lock:
            taken.append(answer)

    threads = [threading.Thread(target=take) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(NEVER) == 1 and taken.count(None) == 5


def test_forgetting_the_chats_that_asked_never_resets_the_turn(
    store: Store, request: pytest.FixtureRequest
) -> None:
    """One stranger repeating /start and /forget: one card, whatever the rounds."""
    from hunter.chat import asks

    cards = 0
    for n in range(10):
        now = T0 + timedelta(seconds=3 * n)
        assert store.subscribers.join(ALICE, True, 10, now) is Joined.ASKED
        cards += asks.tell_owner(store, now, {ALICE: "Mallory"})
        assert store.subscribers.forget(ALICE)
    assert cards == 1
    # The ones that asked meanwhile get the next card, once its while is over; named each,
    # by the names they gave with their Start (issue 62: a poll's card named no one).
    at = T0 + timedelta(minutes=1)
    assert store.subscribers.join(ALICE, True, 10, at, "1001", "Alice") is Joined.ASKED
    at += timedelta(minutes=1)
    assert store.subscribers.join(BOB, True, 10, at, "1002", "Bob's team") is Joined.ASKED
    assert not asks.tell_owner(store, T0 + timedelta(hours=1))
    assert asks.tell_owner(store, T0 + asks.CARDS_EVERY)
    assert not asks.tell_owner(store, T0 + 2 * asks.CARDS_EVERY)  # nobody new since
    rows = store.outbox.claim_new("w", "k", 10, T0 + 3 * asks.CARDS_EVERY, "")
    [card] = [r.listing for r in rows if ALICE in r.listing.job_id]
    assert card.title == "🙋 2 chats ask to join hunter's alerts"
    assert f"Alice ({ALICE}), Bob's team ({BOB})" in card.summary
    assert "hunter_seen_jobs" in _mentions(store, request, BOB)  # the card names it
    assert store.subscribers.forget(BOB)  # and a /forget takes the card with the rest
    assert _mentions(store, request, BOB) == []


def test_who_started_a_group_is_kept_with_it_and_forgotten_with_it(
    store: Store, request: pytest.FixtureRequest
) -> None:
    assert store.subscribers.join(BOB, False, 10, T0, "501") is Joined.JOINED
    found = store.subscribers.of(BOB)
    assert found is not None and found.started_by == "501"
    assert store.subscribers.join(BOB, False, 10, T0, "502") is Joined.MEMBER  # kept as it was
    assert store.subscribers.of(BOB).started_by == "501"  # type: ignore[union-attr]
    store.subscribers.forget(BOB)
    assert _mentions(store, request, "501") == []


def test_a_group_that_became_a_supergroup_moves_with_everything_it_has(
    store: Store, request: pytest.FixtureRequest
) -> None:
    """Issue 55, medium 5: its words, settings and rows (sent, waiting, marked) move to the
    new id; what got stuck on the old one goes again; the new id's stranger rows go first."""
    new = "telegram:-1009"
    store.subscribers.join(BOB, False, 10, T0, "501")
    _rows_of(store, BOB)
    store.chat.note_private(new, T0, T0 - timedelta(days=7))  # told "private" as a stranger
    assert store.subscribers.move(BOB, new, T0 + timedelta(minutes=1))
    assert not store.subscribers.move(BOB, new, T0)  # nothing left to move
    assert not store.subscribers.move(ALICE, new, T0)  # no subscriber's
    moved = store.subscribers.of(new)
    assert moved is not None and moved.started_by == "501" and store.subscribers.of(BOB) is None
    left = set(_mentions(store, request, BOB))
    assert left <= {"hunter_events"}, left  # the inbox's memory of its handled updates
    assert store.chat.rules(T0)[new].added  # its words
    assert store.outbox.count_pending(new) >= 1  # its waiting listing, at its new id
