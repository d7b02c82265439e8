"""The alerts to edit, the same on SQLite, PostgreSQL and Supabase (issue 43): a sent message
keeps the channel's id of it; a copy merged into one of its listings makes its edit due,
claimed with its listings as they are now ("also on"); a claim is a lease; an edit refused
for now comes back at its time, five times at most; a copy merged while an edit is made
stays due; a listing still waiting is sent with its copies already on it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hunter.rules.listing import Listing
from hunter.store.base import Store
from hunter.store.edits import Merged

T0 = datetime(2026, 12, 3, 9, tzinfo=UTC)
LATER = T0 + timedelta(minutes=1)


def job(n: int) -> Listing:
    return Listing(f"one:{n}", "one", f"python job {n}", f"https://one.test/{n}")


def sent_to_team(store: Store, *numbers: int, ref: str | None = "42") -> None:
    """Listings `numbers` recorded for the chat "team" and sent to it as one message."""
    store.outbox.record("one", [job(0)], set(), T0)  # primes the source
    listings = [job(n) for n in numbers]
    chats = {x.job_id: [("team", x)] for x in listings}
    store.outbox.record("one", listings, set(), T0, chats=chats)
    assert len(store.outbox.claim_new("w", "k1", 10, T0, "team")) == len(numbers)
    store.outbox.mark_sent("k1", T0, ref)


def copy(first: int, board: str = "two", chat: str = "team") -> Merged:
    return Merged(chat, f"one:{first}", board, f"https://{board}.test/{first}")


def test_a_merged_copy_makes_its_message_due_with_the_listings_as_they_are(store: Store) -> None:
    sent_to_team(store, 1, 2)
    assert store.edits.claim(LATER, T0, 10) == []  # nothing merged: nothing due
    assert store.edits.add([copy(2), copy(2, "three")], T0) >= 1
    [message] = store.edits.claim(LATER, T0, 10)
    assert (message.chat, message.retry_key, message.ref) == ("team", "k1", "42")
    assert [x.job_id for x in message.listings] == ["one:1", "one:2"]  # as it was sent
    assert message.listings[0].also_on == ()
    assert message.listings[1].also_on == (
        ("two", "https://two.test/2"),
        ("three", "https://three.test/2"),
    )
    assert message.listings[1].title == "python job 2"
    assert store.edits.claim(LATER, T0, 10) == []  # claimed: a lease, not twice at once
    assert store.edits.done(message) == 1  # the row it was due for
    stale = LATER + timedelta(minutes=10)
    assert store.edits.claim(stale, stale, 10) == []  # made: no more


def test_a_claim_whose_replica_died_goes_to_another_after_its_lease(store: Store) -> None:
    sent_to_team(store, 1)
    store.edits.add([copy(1)], T0)
    [first] = store.edits.claim(LATER, T0, 10)
    assert store.edits.claim(LATER + timedelta(minutes=1), LATER - timedelta(seconds=1), 10) == []
    [again] = store.edits.claim(LATER + timedelta(minutes=6), LATER + timedelta(minutes=1), 10)
    assert again.retry_key == first.retry_key
    assert store.edits.done(first) == 0  # the dead claim's word no longer counts
    assert store.edits.done(again) == 1


def test_a_copy_merged_while_its_edit_is_made_stays_due(store: Store) -> None:
    sent_to_team(store, 1)
    store.edits.add([copy(1)], T0)
    [message] = store.edits.claim(LATER, T0, 10)
    store.edits.add([copy(1, "three")], LATER)  # came while the edit was on its way
    assert store.edits.done(message) == 0
    [again] = store.edits.claim(LATER, T0, 10)
    assert [board for board, _url in again.listings[0].also_on] == ["two", "three"]


def test_a_pair_is_kept_once_and_ten_at_most(store: Store) -> None:
    sent_to_team(store, 1)
    store.edits.add([copy(1), copy(1)], T0)
    store.edits.add([copy(1)], T0)
    store.edits.add([copy(1, f"b{n:02}") for n in range(12)], T0)
    [message] = store.edits.claim(LATER, T0, 10)
    boards = [board for board, _url in message.listings[0].also_on]
    assert boards == ["two", *[f"b{n:02}" for n in range(9)]]


def test_an_edit_refused_for_now_comes_back_at_its_time_five_times_at_most(store: Store) -> None:
    sent_to_team(store, 1)
    store.edits.add([copy(1)], T0)
    now = LATER
    for _ in range(4):
        [message] = store.edits.claim(now, now - timedelta(minutes=5), 10)
        store.edits.done(message, now + timedelta(minutes=1))
        assert store.edits.claim(now + timedelta(seconds=30), now, 10) == []  # not yet
        now += timedelta(minutes=2)
    [fifth] = store.edits.claim(now, now - timedelta(minutes=5), 10)
    store.edits.done(fifth, now + timedelta(minutes=1))
    later = now + timedelta(hours=1)
    assert store.edits.claim(later, later, 10) == []  # given up after five tries


def test_a_listing_still_waiting_goes_with_its_copies_on_it(store: Store) -> None:
    store.outbox.record("one", [job(0)], set(), T0)
    store.outbox.record("one", [job(1)], set(), T0, chats={"one:1": [("team", job(1))]})
    store.edits.add([copy(1)], T0)
    assert store.edits.claim(LATER, T0, 10) == []  # not sent yet: nothing to edit
    [claimed] = store.outbox.claim_new("w", "k1", 10, LATER, "team")
    assert claimed.listing.also_on == (("two", "https://two.test/1"),)
    assert claimed.listing.payload().get("also_on") is None  # kept on its row, not its payload


def test_a_message_without_an_id_is_claimed_and_its_ref_is_none(store: Store) -> None:
    """A channel that gave no id (LINE; a push of an older hunter): the deliverer gives its
    edit up (deliver/editor.py)."""
    sent_to_team(store, 1, ref=None)
    store.edits.add([copy(1)], T0)
    [message] = store.edits.claim(LATER, T0, 10)
    assert message.ref is None
    assert store.edits.done(message) == 1
