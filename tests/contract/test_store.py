"""The store contract: every adapter, against a real database, gives the same answers."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hunter.listing import Listing
from hunter.states import ErrorKind, RowStatus
from hunter.store.base import Store
from hunter.store.records import Failure, SourceNote
from tests.conftest import open_test_store

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def failure(
    status: str, kind: str | None, error: str, next_at: datetime | None, count: bool
) -> Failure:
    """A failed push's outcome, as the deliverer hands it to the store."""
    return Failure(RowStatus(status), ErrorKind(kind) if kind else None, error, next_at, count)


def jobs(source: str, *numbers: int) -> list[Listing]:
    return [
        Listing(f"{source}:{n}", source, f"job {n}", f"https://x.test/{n}", n * 100, "")
        for n in numbers
    ]


def ids(listings: list[Listing]) -> set[str]:
    return {x.job_id for x in listings}


def test_first_listings_of_a_source_are_primed_silently(store: Store) -> None:
    assert store.record("a", jobs("a", 1, 2, 3), {"a:1"}, T0) == {"primed": 3}
    new = jobs("a", 4, 5)
    assert store.record("a", jobs("a", 1, 2, 3) + new, {"a:4"}, T0) == {"pending": 1, "ignored": 1}
    assert store.job_states() == {
        "a:1": "primed",
        "a:2": "primed",
        "a:3": "primed",
        "a:4": "pending",
        "a:5": "ignored",
    }


def test_a_source_added_later_is_primed_on_its_own(store: Store) -> None:
    store.record("a", jobs("a", 1), set(), T0)
    assert store.record("b", jobs("b", 1, 2), {"b:1", "b:2"}, T0) == {"primed": 2}
    assert store.record("a", jobs("a", 2), {"a:2"}, T0) == {"pending": 1}


def test_an_empty_page_does_not_prime_a_source(store: Store) -> None:
    store.record("a", [], set(), T0)
    assert store.record("a", jobs("a", 1), {"a:1"}, T0) == {"primed": 1}


def test_prime_on_demand_takes_pending_rows_out_of_the_outbox(store: Store) -> None:
    store.record("a", jobs("a", 1), set(), T0)
    store.record("a", jobs("a", 1, 2), {"a:2"}, T0)
    assert store.record("a", jobs("a", 1, 2, 3), set(), T0, prime=True) == {"primed": 1}
    assert store.job_states() == {"a:1": "primed", "a:2": "primed", "a:3": "primed"}


def pending(store: Store, *numbers: int) -> None:
    store.record("a", jobs("a", 0), set(), T0)
    store.record("a", jobs("a", *numbers), {f"a:{n}" for n in numbers}, T0)


def test_claim_new_takes_each_pending_row_once(store: Store) -> None:
    pending(store, 1, 2, 3)
    first = store.claim_new("w1", "k1", 2, T0)
    assert [c.job_id for c in first] == ["a:1", "a:2"]
    assert {c.retry_key for c in first} == {"k1"}
    assert first[0].listing.title == "job 1" and first[0].listing.budget == 100
    assert [c.job_id for c in store.claim_new("w2", "k2", 10, T0)] == ["a:3"]
    assert store.claim_new("w3", "k3", 10, T0) == []


def test_sent_is_final(store: Store) -> None:
    pending(store, 1)
    store.claim_new("w", "k", 10, T0)
    store.mark_sent("k", T0)
    assert store.job_states()["a:1"] == "sent"
    assert store.claim_new("w", "k2", 10, T0) == []
    assert store.claim_due("w", T0 + timedelta(days=1), T0 + timedelta(days=1)) == []


def test_a_retry_keeps_its_key_and_waits_for_its_time(store: Store) -> None:
    pending(store, 1, 2)
    store.claim_new("w", "k", 10, T0)
    assert (
        store.mark_failed(
            "k", "w", failure("retry", "transient", "HTTP 500", T0 + timedelta(seconds=5), True)
        )
        == 2
    )
    lease_before = T0 - timedelta(minutes=5)
    assert store.claim_due("w", T0 + timedelta(seconds=4), lease_before) == []
    again = store.claim_due("w2", T0 + timedelta(seconds=5), lease_before)
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [
        ("a:1", "k", 1),
        ("a:2", "k", 1),
    ]


def test_an_expired_lease_hands_the_batch_over_with_its_key(store: Store) -> None:
    pending(store, 1)
    store.claim_new("dead", "k", 10, T0)
    assert store.claim_due("w2", T0 + timedelta(seconds=30), T0) == []  # lease still valid
    taken = store.claim_due("w2", T0 + timedelta(minutes=3), T0 + timedelta(minutes=1))
    assert [(c.job_id, c.retry_key) for c in taken] == [("a:1", "k")]
    # The dead worker, back from the grave, no longer owns the batch.
    assert store.mark_failed("k", "dead", failure("stuck", "permanent", "x", None, False)) == 0
    store.mark_sent("k", T0)
    assert store.job_states()["a:1"] == "sent"


def test_parked_batches_are_requeued_by_the_next_success(store: Store) -> None:
    pending(store, 1, 2)
    store.claim_new("w", "k1", 1, T0)
    store.mark_failed(
        "k1",
        "w",
        failure("stuck", "transient", "LINE failed 5 times", T0 + timedelta(minutes=5), True),
    )
    store.claim_new("w", "k2", 1, T0)
    assert store.mark_sent("k2", T0) == 1
    assert store.job_states()["a:1"] == "retry"
    again = store.claim_due("w", T0, T0 - timedelta(minutes=2))
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [("a:1", "k1", 0)]


def test_a_parked_batch_is_probed_when_its_time_comes(store: Store) -> None:
    pending(store, 1)
    store.claim_new("w", "k1", 1, T0)
    store.mark_failed(
        "k1", "w", failure("stuck", "transient", "down", T0 + timedelta(minutes=5), True)
    )
    assert store.claim_due("w", T0 + timedelta(minutes=4), T0) == []
    assert [c.job_id for c in store.claim_due("w", T0 + timedelta(minutes=5), T0)] == ["a:1"]


def test_permanent_failures_wait_for_a_person(store: Store) -> None:
    pending(store, 1, 2)
    store.claim_new("w", "k", 10, T0)
    store.mark_failed(
        "k", "w", failure("stuck", "permanent", "LINE rejected the token", None, False)
    )
    later = T0 + timedelta(days=2)
    assert store.claim_due("w", later, later) == [] and store.claim_new("w", "k2", 9, later) == []
    assert store.retry_stuck(["a:2", "a:9"]) == ["a:2"]
    assert store.retry_stuck(None) == ["a:1"]
    assert [c.job_id for c in store.claim_new("w", "k3", 9, later)] == ["a:1", "a:2"]


def test_quota_puts_rows_back_without_burning_attempts(store: Store) -> None:
    pending(store, 1)
    store.claim_new("w", "k", 10, T0)
    store.mark_failed("k", "w", failure("pending", None, "monthly limit", None, False))
    again = store.claim_new("w", "k2", 10, T0)
    assert [(c.job_id, c.retry_key, c.attempts) for c in again] == [("a:1", "k2", 0)]


def test_split_gives_each_half_a_new_key(store: Store) -> None:
    pending(store, 1, 2, 3)
    store.claim_new("w", "k", 10, T0)
    assert store.split("k", "w", [("k-a", ["a:1"]), ("k-b", ["a:2", "a:3"])], T0) == 3
    first = store.claim_due("w", T0, T0 - timedelta(minutes=2))
    second = store.claim_due("w", T0, T0 - timedelta(minutes=2))
    assert sorted([(c.job_id, c.retry_key) for c in first + second]) == [
        ("a:1", "k-a"),
        ("a:2", "k-b"),
        ("a:3", "k-b"),
    ]


def test_prune_deletes_only_rows_done_with(store: Store) -> None:
    pending(store, 1, 2, 3, 4)
    store.claim_new("w", "k", 1, T0)
    store.mark_sent("k", T0)  # a:1 sent
    store.claim_new("w", "k2", 1, T0)  # a:2 sending
    store.claim_new("w", "k3", 1, T0)
    store.mark_failed("k3", "w", failure("stuck", "permanent", "bad", None, False))  # a:3 stuck
    assert store.prune(T0 + timedelta(days=1)) == 2  # a:0 primed, a:1 sent
    assert store.job_states() == {"a:2": "sending", "a:3": "stuck", "a:4": "pending"}


def test_a_listing_seen_again_is_kept(store: Store) -> None:
    store.record("a", jobs("a", 1, 2), set(), T0)
    store.record("a", jobs("a", 2), set(), T0 + timedelta(days=40))
    assert store.prune(T0 + timedelta(days=10)) == 1
    assert store.job_states() == {"a:2": "primed"}


def test_the_daily_prune_is_taken_once_a_day(store: Store) -> None:
    day = timedelta(hours=24)
    assert store.claim_prune(T0, day) is True
    assert store.claim_prune(T0 + timedelta(hours=23), day) is False
    assert store.claim_prune(T0 + day, day) is True


def test_status_shows_the_outbox_and_the_sources(store: Store) -> None:
    pending(store, 1, 2, 3)
    store.claim_new("w", "k", 1, T0)
    store.mark_sent("k", T0)
    store.claim_new("w", "k2", 1, T0)
    store.mark_failed(
        "k2", "w", failure("stuck", "permanent", "LINE rejected this listing", None, False)
    )
    store.note_sources(
        [SourceNote("a", 4, good=True), SourceNote("b", None, "HTTP 500", good=False)], T0, 3
    )
    report = store.status(T0 + timedelta(hours=1))
    assert report.outbox == {"pending": 1, "sending": 0, "retry": 0, "stuck": 1}
    assert report.sent_last_24h == 1
    assert [(r.job_id, r.last_error) for r in report.rows] == [
        ("a:2", "LINE rejected this listing")
    ]
    by_name = {s.name: s for s in report.sources}
    assert by_name["a"].last_count == 4 and by_name["a"].last_ok_at == T0
    assert by_name["b"].last_error == "HTTP 500" and by_name["b"].last_ok_at is None


def test_migrate_is_idempotent(store: Store) -> None:
    pending(store, 1)
    store.migrate()
    assert store.job_states()["a:1"] == "pending"


def test_workers_at_once_split_the_work(
    store_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("pg_url") if store_kind != "sqlite" else None
    api = request.getfixturevalue("supabase") if store_kind == "supabase" else None
    setup = open_test_store(store_kind, tmp_path, url, api)
    pending(setup, *range(1, 61))
    claimed: list[list[str]] = [[], [], []]
    start = threading.Barrier(3)

    def work(n: int) -> None:
        own = open_test_store(store_kind, tmp_path, url, api)
        start.wait()
        while batch := own.claim_new(f"w{n}", f"k{n}-{len(claimed[n])}", 4, T0):
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
    store.claim_new("w", "k", 10, T0)
    store.save_batch("k", '{"first": true}', T0)
    store.save_batch("k", '{"second": true}', T0)  # the first write wins
    assert store.batch_body("k") == '{"first": true}'
    store.mark_sent("k", T0)
    assert store.batch_body("k") is None


def test_a_given_up_key_forgets_its_body(store: Store) -> None:
    pending(store, 1, 2)
    store.claim_new("w", "k", 10, T0)
    store.save_batch("k", "{}", T0)
    assert store.count_pending() == 0
    store.mark_failed("k", "w", failure("pending", None, "quota", None, False))
    assert store.batch_body("k") is None and store.count_pending() == 2


def test_a_notice_is_queued_once(store: Store) -> None:
    notice = Listing("hunter:quota:2026-11", "hunter", "80% used", "", None, "")
    assert store.enqueue(notice, T0) is True
    assert store.enqueue(notice, T0) is False
    assert [c.listing.title for c in store.claim_new("w", "k", 9, T0)] == ["80% used"]


def test_a_split_batch_forgets_its_body(store: Store) -> None:
    pending(store, 1, 2)
    store.claim_new("w", "k", 10, T0)
    store.save_batch("k", "{}", T0)
    store.split("k", "w", [("k-a", ["a:1"]), ("k-b", ["a:2"])], T0)
    assert store.batch_body("k") is None


def notice(kind: str, n: int) -> Listing:
    return Listing(f"hunter:{kind}:a:{n}", "hunter", f"{kind} {n}", "https://x.test", None, "")


def bad(n: int) -> SourceNote:
    return SourceNote("a", None, "HTTP 500", good=False, broken_notice=notice("broken", n))


def good(n: int) -> SourceNote:
    return SourceNote("a", 3, good=True, recovered_notice=notice("recovered", n))


def test_a_broken_source_is_announced_once_and_its_recovery_once(store: Store) -> None:
    assert store.note_sources([bad(1)], T0, 3) == []
    assert store.note_sources([bad(2)], T0, 3) == []
    assert store.note_sources([bad(3)], T0, 3) == ["a"]  # the third bad poll in a row
    assert store.note_sources([bad(4)], T0, 3) == []  # not one alert per poll
    assert store.note_sources([SourceNote("a", None, good=None)], T0, 3) == []  # no verdict
    assert store.source_states()["a"].fail_streak == 4
    assert store.note_sources([good(5)], T0, 3) == ["a"]
    assert store.note_sources([good(6)], T0, 3) == []
    assert store.job_states() == {"hunter:broken:a:3": "pending", "hunter:recovered:a:5": "pending"}
    assert [c.listing.title for c in store.claim_new("w", "k", 9, T0)] == [
        "broken 3",
        "recovered 5",
    ]


def test_a_good_poll_resets_the_streak(store: Store) -> None:
    store.note_sources([bad(1)], T0, 2)
    store.note_sources([good(2)], T0, 2)
    assert store.note_sources([bad(3)], T0, 2) == []  # one bad poll, not two in a row
    state = store.source_states()["a"]
    assert state.fail_streak == 1 and state.broken_at is None


def test_validators_and_waits_are_kept_per_source(store: Store) -> None:
    later = T0 + timedelta(minutes=10)
    store.note_sources(
        [
            SourceNote(
                "a",
                3,
                good=True,
                etag='"v1"',
                last_modified="Mon",
                validated_url="https://x.test/a",
                not_before=later,
            )
        ],
        T0,
        3,
    )
    state = store.source_states()["a"]
    assert (state.etag, state.last_modified, state.validated_url) == (
        '"v1"',
        "Mon",
        "https://x.test/a",
    )
    assert state.not_before == later and state.last_good_at == T0
    store.note_sources([SourceNote("a", None, good=None, keep_validators=True)], later, 3)
    assert store.source_states()["a"].etag == '"v1"'  # a 304 keeps them
    store.note_sources([SourceNote("a", 0, good=False, error="layout")], later, 3)
    assert store.source_states()["a"].etag is None  # a bad parse drops them


def test_flood_guard_records_silently_and_queues_one_notice(store: Store) -> None:
    flood_notice = Listing("hunter:flood:a:1", "hunter", "a showed %s new listings", "", None, "")
    store.record("a", jobs("a", 1), set(), T0)
    many = jobs("a", *range(1, 41))
    result = store.record("a", many, ids(many), T0, flood=30, flood_notice=flood_notice)
    assert result == {"primed": 39, "flood": 39}
    states = store.job_states()
    assert states.pop("hunter:flood:a:1") == "pending"
    assert set(states.values()) == {"primed"}
    claimed = store.claim_new("w", "k", 9, T0)
    assert [c.listing.title for c in claimed] == ["a showed 39 new listings"]
    few = jobs("a", 41, 42)
    assert store.record("a", few, ids(few), T0, flood=30, flood_notice=flood_notice) == {
        "pending": 2
    }


def test_source_leases_give_each_source_to_one_replica(store: Store) -> None:
    until = T0 + timedelta(minutes=27)
    assert store.lease_sources(["a", "b"], "r1", T0, until) == {"a", "b"}
    assert store.lease_sources(["a", "b", "c"], "r2", T0, until) == {"c"}
    assert store.lease_sources(["a"], "r1", T0 + timedelta(minutes=1), until) == {"a"}  # its own
    later = T0 + timedelta(minutes=28)  # r1 died: its leases ran out
    assert store.lease_sources(["a", "b", "c"], "r2", later, later + timedelta(minutes=27)) == {
        "a",
        "b",
        "c",
    }


def test_instances_recording_claiming_and_sending_at_once_never_deadlock(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Four instances poll the same page over and over while it grows: each records it,
    claims, and marks batches sent. PostgreSQL detects a deadlock within a second; none may
    happen, and every listing is claimed once."""
    url = request.getfixturevalue("pg_url")
    setup = open_test_store("postgres", tmp_path, url)
    setup.record("a", jobs("a", 0), set(), T0)  # primed
    claimed: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def instance(n: int) -> None:
        own = open_test_store("postgres", tmp_path, url)
        start.wait()
        try:
            for step in range(1, 41):
                page = jobs("a", *range(max(0, step - 10), step + 1))  # old and new listings
                own.record("a", page, ids(page), T0 + timedelta(seconds=step))
                batch = own.claim_new(f"w{n}", f"k{n}-{step}", 3, T0)
                claimed.extend(c.job_id for c in batch)
                if batch:
                    own.mark_sent(batch[0].retry_key, T0)
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
    leftover = [c.job_id for c in setup.claim_new("last", "k-last", 100, T0)]
    assert sorted(claimed + leftover) == sorted(f"a:{n}" for n in range(1, 41))
    setup.close()
