"""The outbox's contract: every adapter, against a real database, gives the same answers:
priming, claims, retries, leases, parking, splits, bodies, notices, the prune, races."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest

from hunter.rules.listing import Listing
from hunter.store.base import Store
from tests.conftest import open_test_store
from tests.support.outbox_rows import T0, failure, jobs, pending


def ids(listings: list[Listing]) -> set[str]:
    return {x.job_id for x in listings}


def test_first_listings_of_a_source_are_primed_silently(store: Store) -> None:
    assert store.outbox.record("a", jobs("a", 1, 2, 3), {"a:1"}, T0) == {"primed": 3}
    new = jobs("a", 4, 5)
    assert store.outbox.record("a", jobs("a", 1, 2, 3) + new, {"a:4"}, T0) == {
        "pending": 1,
        "ignored": 1,
    }
    assert store.outbox.job_states() == {
        "a:1": "primed",
        "a:2": "primed",
        "a:3": "primed",
        "a:4": "pending",
        "a:5": "ignored",
    }


def test_a_source_added_later_is_primed_on_its_own(store: Store) -> None:
    store.outbox.record("a", jobs("a", 1), set(), T0)
    assert store.outbox.record("b", jobs("b", 1, 2), {"b:1", "b:2"}, T0) == {"primed": 2}
    assert store.outbox.record("a", jobs("a", 2), {"a:2"}, T0) == {"pending": 1}


def test_an_empty_page_does_not_prime_a_source(store: Store) -> None:
    store.outbox.record("a", [], set(), T0)
    assert store.outbox.record("a", jobs("a", 1), {"a:1"}, T0) == {"primed": 1}


def test_prime_on_demand_takes_pending_rows_out_of_the_outbox(store: Store) -> None:
    store.outbox.record("a", jobs("a", 1), set(), T0)
    store.outbox.record("a", jobs("a", 1, 2), {"a:2"}, T0)
    # A person decided; what waited is said ("unsent"), never dropped in silence
    primed = store.outbox.record("a", jobs("a", 1, 2, 3), set(), T0, prime=True)
    assert primed == {"primed": 1, "unsent": 1}
    assert store.outbox.job_states() == {"a:1": "primed", "a:2": "primed", "a:3": "primed"}
    assert store.outbox.record("a", jobs("a", 1, 2, 3), set(), T0, prime=True) == {}


def test_prime_leaves_a_push_whose_delivery_is_unknown_for_retry(store: Store) -> None:
    """A new user's find: prime dropped an alert whose push got no answer; it may have
    reached the chat, and only `hunter retry` decides. One refused for good is dropped."""
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k", 1, T0)  # a:1
    lost = failure("stuck", "unknown", "delivery unknown: no answer", None, True)
    assert store.outbox.mark_failed("k", "w", lost) == 1
    store.outbox.claim_new("w", "k2", 1, T0)  # a:2
    refused = failure("stuck", "permanent", "LINE refused it", None, True)
    assert store.outbox.mark_failed("k2", "w", refused) == 1
    primed = store.outbox.record("a", jobs("a", 1, 2), set(), T0, prime=True)
    assert primed == {"unsent": 1}
    assert store.outbox.job_states() == {"a:0": "primed", "a:1": "stuck", "a:2": "primed"}


def test_claim_new_takes_each_pending_row_once(store: Store) -> None:
    pending(store, 1, 2, 3)
    first = store.outbox.claim_new("w1", "k1", 2, T0)
    assert [c.job_id for c in first] == ["a:1", "a:2"]
    assert {c.retry_key for c in first} == {"k1"}
    assert first[0].listing.title == "job 1" and first[0].listing.budget == 100
    assert [c.job_id for c in store.outbox.claim_new("w2", "k2", 10, T0)] == ["a:3"]
    assert store.outbox.claim_new("w3", "k3", 10, T0) == []


def test_sent_is_final(store: Store) -> None:
    pending(store, 1)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.mark_sent("k", T0)
    assert store.outbox.job_states()["a:1"] == "sent"
    assert store.outbox.claim_new("w", "k2", 10, T0) == []
    assert store.outbox.claim_due("w", T0 + timedelta(days=1), T0 + timedelta(days=1)) == []


def test_a_retry_keeps_its_key_and_waits_for_its_time(store: Store) -> None:
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k", 10, T0)
    assert (
        store.outbox.mark_failed(
            "k", "w", failure("retry", "transient", "HTTP 500", T0 + timedelta(seconds=5), True)
        )
        == 2
    )
    lease_before = T0 - timedelta(minutes=5)
    assert store.outbox.claim_due("w", T0 + timedelta(seconds=4), lease_before) == []
    again = store.outbox.claim_due("w2", T0 + timedelta(seconds=5), lease_before)
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [
        ("a:1", "k", 1),
        ("a:2", "k", 1),
    ]


def test_an_expired_lease_hands_the_batch_over_with_its_key(store: Store) -> None:
    pending(store, 1)
    store.outbox.claim_new("dead", "k", 10, T0)
    assert store.outbox.claim_due("w2", T0 + timedelta(seconds=30), T0) == []  # lease still valid
    taken = store.outbox.claim_due("w2", T0 + timedelta(minutes=3), T0 + timedelta(minutes=1))
    assert [(c.job_id, c.retry_key) for c in taken] == [("a:1", "k")]
    # The dead worker, back from the grave, no longer owns the batch.
    assert (
        store.outbox.mark_failed("k", "dead", failure("stuck", "permanent", "x", None, False)) == 0
    )
    store.outbox.mark_sent("k", T0)
    assert store.outbox.job_states()["a:1"] == "sent"


def test_one_look_says_whether_a_claim_would_find_anything(store: Store) -> None:
    """A quiet run's one look (issue 44) answers as the claims would: nothing on an empty
    outbox; a new row; a retry not yet due (with its time), then due; a batch whose sender
    died, once its lease ran out; nothing once sent."""
    lease = timedelta(minutes=2)
    assert store.outbox.look(T0, T0 - lease) == (False, None)
    pending(store, 1)
    assert store.outbox.look(T0, T0 - lease) == (True, None)
    store.outbox.claim_new("w", "k", 10, T0)
    assert store.outbox.look(T0, T0 - lease) == (False, None)  # being sent, within its lease
    later = T0 + timedelta(minutes=3)
    assert store.outbox.look(later, later - lease)[0]  # its sender died: the lease ran out
    due = T0 + timedelta(seconds=30)
    store.outbox.mark_failed("k", "w", failure("retry", "transient", "HTTP 500", due, True))
    assert store.outbox.look(T0, T0 - lease) == (False, due)
    assert store.outbox.look(due, due - lease) == (True, due)
    store.outbox.claim_due("w", due, due - lease)
    store.outbox.mark_sent("k", due)
    assert store.outbox.look(due, due - lease) == (False, None)


def test_parked_batches_are_requeued_by_the_next_success(store: Store) -> None:
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k1", 1, T0)
    store.outbox.mark_failed(
        "k1",
        "w",
        failure("stuck", "transient", "LINE failed 5 times", T0 + timedelta(minutes=5), True),
    )
    store.outbox.claim_new("w", "k2", 1, T0)
    assert store.outbox.mark_sent("k2", T0) == 1
    assert store.outbox.job_states()["a:1"] == "retry"
    again = store.outbox.claim_due("w", T0, T0 - timedelta(minutes=2))
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [("a:1", "k1", 0)]


def test_a_parked_batch_is_probed_when_its_time_comes(store: Store) -> None:
    pending(store, 1)
    store.outbox.claim_new("w", "k1", 1, T0)
    store.outbox.mark_failed(
        "k1", "w", failure("stuck", "transient", "down", T0 + timedelta(minutes=5), True)
    )
    assert store.outbox.claim_due("w", T0 + timedelta(minutes=4), T0) == []
    assert [c.job_id for c in store.outbox.claim_due("w", T0 + timedelta(minutes=5), T0)] == ["a:1"]


def test_permanent_failures_wait_for_a_person(store: Store) -> None:
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.mark_failed(
        "k", "w", failure("stuck", "permanent", "LINE rejected the token", None, False)
    )
    later = T0 + timedelta(days=2)
    assert (
        store.outbox.claim_due("w", later, later) == []
        and store.outbox.claim_new("w", "k2", 9, later) == []
    )
    assert store.outbox.retry_stuck(["a:2", "a:9"]) == ["a:2"]
    assert store.outbox.retry_stuck(None) == ["a:1"]
    assert [c.job_id for c in store.outbox.claim_new("w", "k3", 9, later)] == ["a:1", "a:2"]


def test_quota_puts_rows_back_without_burning_attempts(store: Store) -> None:
    pending(store, 1)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.mark_failed("k", "w", failure("pending", None, "monthly limit", None, False))
    again = store.outbox.claim_new("w", "k2", 10, T0)
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [("a:1", "k2", 0)]


def test_split_gives_each_half_a_new_key(store: Store) -> None:
    pending(store, 1, 2, 3)
    store.outbox.claim_new("w", "k", 10, T0)
    assert store.outbox.split("k", "w", [("k-a", ["a:1"]), ("k-b", ["a:2", "a:3"])], T0) == 3
    first = store.outbox.claim_due("w", T0, T0 - timedelta(minutes=2))
    second = store.outbox.claim_due("w", T0, T0 - timedelta(minutes=2))
    assert sorted([(c.job_id, c.retry_key) for c in first + second]) == [
        ("a:1", "k-a"),
        ("a:2", "k-b"),
        ("a:3", "k-b"),
    ]


def test_prune_deletes_only_rows_done_with(store: Store) -> None:
    pending(store, 1, 2, 3, 4)
    store.outbox.claim_new("w", "k", 1, T0)
    store.outbox.mark_sent("k", T0)  # a:1 sent
    store.outbox.claim_new("w", "k2", 1, T0)  # a:2 sending
    store.outbox.claim_new("w", "k3", 1, T0)
    store.outbox.mark_failed(
        "k3", "w", failure("stuck", "permanent", "bad", None, False)
    )  # a:3 stuck
    assert store.outbox.prune(T0 + timedelta(days=1)) == 2  # a:0 primed, a:1 sent
    assert store.outbox.job_states() == {"a:2": "sending", "a:3": "stuck", "a:4": "pending"}


def test_a_listing_seen_again_is_kept(store: Store) -> None:
    store.outbox.record("a", jobs("a", 1, 2), set(), T0)
    store.outbox.record("a", jobs("a", 2), set(), T0 + timedelta(days=40))
    assert store.outbox.prune(T0 + timedelta(days=10)) == 1
    assert store.outbox.job_states() == {"a:2": "primed"}


def test_the_daily_prune_is_taken_once_a_day(store: Store) -> None:
    day = timedelta(hours=24)
    assert store.outbox.claim_prune(T0, day) is True
    assert store.outbox.claim_prune(T0 + timedelta(hours=23), day) is False
    assert store.outbox.claim_prune(T0 + day, day) is True


def test_workers_at_once_split_the_work(
    store_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("migrated_pg_url") if store_kind == "postgres" else None
    api = request.getfixturevalue("supabase") if store_kind == "supabase" else None
    setup = open_test_store(store_kind, tmp_path, url, api)
    pending(setup, *range(1, 61))
    claimed: list[list[str]] = [[], [], []]
    start = threading.Barrier(3)

    def work(n: int) -> None:
        own = open_test_store(store_kind, tmp_path, url, api)
        start.wait()
        while batch := own.outbox.claim_new(f"w{n}", f"k{n}-{len(claimed[n])}", 4, T0):
            claimed[n] += [c.job_id for c in batch]
        own.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everything = [job for part in claimed for job in part]
    assert sorted(everything) == sorted(f"a:{n}" for n in range(1, 61))  # each exactly once
    setup.close()


def test_a_batch_body_is_kept_until_the_batch_is_sent(store: Store) -> None:
    pending(store, 1)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.save_batch("k", '{"first": true}', T0)
    store.outbox.save_batch("k", '{"second": true}', T0)  # the first write wins
    assert store.outbox.batch_body("k") == '{"first": true}'
    store.outbox.mark_sent("k", T0)
    assert store.outbox.batch_body("k") is None


def test_a_given_up_key_forgets_its_body(store: Store) -> None:
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.save_batch("k", "{}", T0)
    assert store.outbox.count_pending() == 0
    store.outbox.mark_failed("k", "w", failure("pending", None, "quota", None, False))
    assert store.outbox.batch_body("k") is None and store.outbox.count_pending() == 2


def test_a_notice_is_queued_once(store: Store) -> None:
    notice = Listing("hunter:quota:2026-11", "hunter", "80% used", "", None, "")
    assert store.outbox.enqueue(notice, T0) is True
    assert store.outbox.enqueue(notice, T0) is False
    assert [c.listing.title for c in store.outbox.claim_new("w", "k", 9, T0)] == ["80% used"]


def test_a_split_batch_forgets_its_body(store: Store) -> None:
    pending(store, 1, 2)
    store.outbox.claim_new("w", "k", 10, T0)
    store.outbox.save_batch("k", "{}", T0)
    store.outbox.split("k", "w", [("k-a", ["a:1"]), ("k-b", ["a:2"])], T0)
    assert store.outbox.batch_body("k") is None


def test_flood_guard_records_silently_and_queues_one_notice(store: Store) -> None:
    """A renumbered board: more new listings than the threshold, and none it showed before."""
    flood_notice = Listing("hunter:flood:a:1", "hunter", "a showed %s new listings", "", None, "")
    store.outbox.record("a", jobs("a", 1), set(), T0)
    many = jobs("a", *range(2, 41))
    result = store.outbox.record("a", many, ids(many), T0, flood=30, flood_notice=flood_notice)
    assert result == {"primed": 39, "flood": 39}
    states = store.outbox.job_states()
    assert states.pop("hunter:flood:a:1") == "pending"
    assert set(states.values()) == {"primed"}
    claimed = store.outbox.claim_new("w", "k", 9, T0)
    assert [c.listing.title for c in claimed] == ["a showed 39 new listings"]
    few = jobs("a", 41, 42)
    assert store.outbox.record("a", few, ids(few), T0, flood=30, flood_notice=flood_notice) == {
        "pending": 2
    }


def test_a_burst_above_a_listing_still_shown_is_recorded_to_be_sent(store: Store) -> None:
    """Issue 45: 39 new listings above one seen before (a late cron run, a busy hour) are
    arrivals, each pending for its chats, never recorded silently as a flood."""
    notice = Listing("hunter:flood:a:1", "hunter", "a showed %s new listings", "", None, "")
    store.outbox.record("a", jobs("a", 1), set(), T0)
    burst = jobs("a", *range(1, 41))
    chats = {j.job_id: [("studio", j)] for j in burst}
    recorded = store.outbox.record(
        "a", burst, ids(burst), T0, flood=30, flood_notice=notice, chats=chats
    )
    assert recorded == {"pending": 39, "chats": 39}
    assert store.outbox.count_pending() == 2 * 39  # the owner's and studio's
    assert "hunter:flood:a:1" not in store.outbox.job_states()


def test_a_board_id_ending_in_a_chats_name_is_its_own_listing(store: Store) -> None:
    """Issue 45, finding 3: a chat's row was "<id>#<chat>", inserted ON CONFLICT DO NOTHING.
    Ids "7" then "7#team": "7#team" reached neither the owner nor team; "7#team" then "7":
    team never got "7". Each listing now has its row in each chat it matches, in either
    order (source a, then source b), and each goes out to each."""
    for source, order in (("a", ("7", "7#team")), ("b", ("7#team", "7"))):

        def states(chat: str = "", source: str = source) -> dict[str, str]:
            return {k: v for k, v in store.outbox.job_states(chat).items() if k[0] == source}

        store.outbox.record(source, jobs(source, "seed"), set(), T0)
        for native in order:
            listings = jobs(source, native)
            chats = {x.job_id: [("team", x)] for x in listings}
            store.outbox.record(source, listings, ids(listings), T0, chats=chats)
        seven, tagged = f"{source}:7", f"{source}:7#team"
        assert states() == {f"{source}:seed": "primed", seven: "pending", tagged: "pending"}
        assert states("team") == {seven: "pending", tagged: "pending"}
        owner = store.outbox.claim_new("w", f"k-{source}", 10, T0, "")
        team = store.outbox.claim_new("w", f"k-{source}-team", 10, T0, "team")
        assert sorted((c.job_id, c.chat) for c in owner + team) == [
            (seven, ""), (seven, "team"), (tagged, ""), (tagged, "team")]  # fmt: skip
        store.outbox.mark_sent(f"k-{source}", T0)
        assert states("team") == {seven: "sending", tagged: "sending"}
        store.outbox.mark_sent(f"k-{source}-team", T0)
        assert states("team") == {seven: "sent", tagged: "sent"}
    assert store.outbox.prune(T0 + timedelta(days=1)) == 10  # each row, once


def test_instances_recording_claiming_and_sending_at_once_never_deadlock(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Four instances poll the same page over and over while it grows: each records it,
    claims, and marks batches sent. PostgreSQL detects a deadlock within a second; none may
    happen, and every listing is claimed once."""
    url = request.getfixturevalue("migrated_pg_url")
    setup = open_test_store("postgres", tmp_path, url)
    setup.outbox.record("a", jobs("a", 0), set(), T0)  # primed
    claimed: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def instance(n: int) -> None:
        own = open_test_store("postgres", tmp_path, url)
        start.wait()
        try:
            for step in range(1, 41):
                page = jobs("a", *range(max(0, step - 10), step + 1))  # old and new listings
                own.outbox.record("a", page, ids(page), T0 + timedelta(seconds=step))
                batch = own.outbox.claim_new(f"w{n}", f"k{n}-{step}", 3, T0)
                claimed.extend(c.job_id for c in batch)
                if batch:
                    own.outbox.mark_sent(batch[0].retry_key, T0)
        except BaseException as exc:
            errors.append(exc)
        finally:
            own.close()

    threads = [threading.Thread(target=instance, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(claimed) == len(set(claimed))  # nothing claimed twice
    leftover = [c.job_id for c in setup.outbox.claim_new("last", "k-last", 100, T0)]
    assert sorted(claimed + leftover) == sorted(f"a:{n}" for n in range(1, 41))
    setup.close()


def test_a_new_listing_gets_a_row_for_each_chat_it_matches(store: Store) -> None:
    store.outbox.record("a", jobs("a", 0), set(), T0)  # primes
    new = jobs("a", 1, 2)
    chats = {"a:1": [("studio", new[0]), ("partner", new[0])], "a:2": [("studio", new[1])]}
    assert store.outbox.record("a", new, {"a:1"}, T0, chats=chats) == {
        "pending": 1,
        "ignored": 1,
        "chats": 3,
    }
    assert store.outbox.pending_by_chat() == {"": 1, "partner": 1, "studio": 2}
    assert store.outbox.count_pending() == 4 and store.outbox.count_pending("studio") == 2
    # Seen again, or shown to a chat added later: nothing more for anyone.
    assert store.outbox.record("a", new, {"a:1", "a:2"}, T0, chats=chats) == {}
    batch = store.outbox.claim_new("w", "k-studio", 10, T0, "studio")
    assert [(c.job_id, c.chat) for c in batch] == [("a:1", "studio"), ("a:2", "studio")]
    assert store.outbox.claim_new("w", "k-none", 10, T0, "nobody") == []
    store.outbox.mark_sent("k-studio", T0)
    assert [x.job_id for x in store.outbox.recent_sent(5, "studio")] == ["a:1", "a:2"]
    assert store.outbox.recent_sent(5) == []  # the owner's chat got nothing yet
    # What each chat was sent since a moment (a Telegram chat's month in `hunter status`).
    assert store.outbox.sent_by_chat(T0) == {"studio": 2}
    assert store.outbox.sent_by_chat(T0 + timedelta(seconds=1)) == {}
    store.outbox.claim_new("w", "k-owner", 10, T0, "")
    store.outbox.mark_sent("k-owner", T0 + timedelta(hours=1))
    assert store.outbox.sent_by_chat(T0) == {"": 1, "studio": 2}


def test_what_waits_for_each_chat_is_counted_by_state(store: Store) -> None:
    """As `hunter status` shows a chat: a push that failed leaves its rows to retry, or
    stuck, and they still wait for that chat (a chat's "0 waiting" sat beside the outbox's
    "retry 40")."""
    store.outbox.record("a", jobs("a", 0), set(), T0)  # primes
    new = jobs("a", 1, 2)
    chats = {"a:1": [("studio", new[0]), ("partner", new[0])], "a:2": [("studio", new[1])]}
    store.outbox.record("a", new, {"a:1"}, T0, chats=chats)
    due = T0 + timedelta(minutes=1)
    assert [c.job_id for c in store.outbox.claim_new("w", "k1", 1, T0, "studio")] == ["a:1"]
    store.outbox.mark_failed("k1", "w", failure("retry", "transient", "HTTP 500", due, True))
    assert [c.job_id for c in store.outbox.claim_new("w", "k2", 1, T0, "partner")] == ["a:1"]
    store.outbox.mark_failed("k2", "w", failure("stuck", "permanent", "refused", None, False))
    assert store.outbox.waiting_by_chat() == {
        "": {"pending": 1},
        "partner": {"stuck": 1},
        "studio": {"pending": 1, "retry": 1},
    }
    assert store.outbox.pending_by_chat() == {"": 1, "studio": 1}  # what a claim may take


def test_a_flood_or_a_priming_gives_the_chats_nothing(store: Store) -> None:
    first = jobs("a", 1, 2)
    chats = {j.job_id: [("studio", j)] for j in first}
    assert store.outbox.record("a", first, set(), T0, chats=chats) == {"primed": 2}
    many = jobs("a", *range(3, 40))
    flood = {j.job_id: [("studio", j)] for j in many}
    notice = Listing("hunter:flood:a", "hunter", "%s new", "https://x.test", None, "")
    recorded = store.outbox.record("a", many, set(), T0, flood=30, flood_notice=notice, chats=flood)
    assert recorded == {"primed": 37, "flood": 37}
    assert store.outbox.count_pending("studio") == 0


def test_sent_listings_say_when_they_were_posted_found_and_sent(store: Store) -> None:
    """Issue 34: what `hunter status` measures freshness from, on every store."""
    posted = (T0 - timedelta(minutes=12)).isoformat(timespec="seconds")
    listings = [
        Listing("a:1", "a", "one", "https://x.test/1", posted=posted),
        Listing("a:2", "a", "two", "https://x.test/2"),  # its board states no time
    ]
    store.outbox.record("a", jobs("a", 0), set(), T0)  # primed first
    store.outbox.record("a", listings, {"a:1", "a:2"}, T0)
    store.outbox.claim_new("w", "k", 10, T0 + timedelta(minutes=1))
    store.outbox.mark_sent("k", T0 + timedelta(minutes=2))
    times = sorted(store.outbox.sent_times(T0 - timedelta(days=7)), key=lambda t: t.posted)
    assert [(t.source, t.posted) for t in times] == [("a", ""), ("a", posted)]
    assert all(t.found == T0 and t.sent == T0 + timedelta(minutes=2) for t in times)
    assert store.outbox.sent_times(T0 + timedelta(minutes=3)) == []  # before `since`: none
    assert len(store.outbox.sent_times(T0 - timedelta(days=7), limit=1)) == 1
