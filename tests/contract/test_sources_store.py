"""The sources' contract: every adapter, against a real database, keeps each source's health
(broken once, recovered once), its validators and waits, its schedule (the next read, why,
what was learned, the claim of a due read by one replica, a cron's runs), and its lease."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hunter.rules.listing import Listing
from hunter.store.base import Store
from hunter.store.records import ReadRow, SourceNote

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def notice(kind: str, n: int) -> Listing:
    return Listing(f"hunter:{kind}:a:{n}", "hunter", f"{kind} {n}", "https://x.test", None, "")


def bad(n: int) -> SourceNote:
    return SourceNote("a", None, "HTTP 500", good=False, broken_notice=notice("broken", n))


def good(n: int) -> SourceNote:
    return SourceNote("a", 3, good=True, recovered_notice=notice("recovered", n))


def test_a_broken_source_is_announced_once_and_its_recovery_once(store: Store) -> None:
    assert store.sources.note([bad(1)], T0, 3) == []
    assert store.sources.note([bad(2)], T0, 3) == []
    assert store.sources.note([bad(3)], T0, 3) == ["a"]  # the third bad poll in a row
    assert store.sources.note([bad(4)], T0, 3) == []  # not one alert per poll
    assert store.sources.note([SourceNote("a", None, good=None)], T0, 3) == []  # no verdict
    assert store.sources.states()["a"].fail_streak == 4
    assert store.sources.note([good(5)], T0, 3) == ["a"]
    assert store.sources.note([good(6)], T0, 3) == []
    assert store.outbox.job_states() == {
        "hunter:broken:a:3": "pending",
        "hunter:recovered:a:5": "pending",
    }
    assert [c.listing.title for c in store.outbox.claim_new("w", "k", 9, T0)] == [
        "broken 3",
        "recovered 5",
    ]


def test_a_good_poll_resets_the_streak(store: Store) -> None:
    store.sources.note([bad(1)], T0, 2)
    store.sources.note([good(2)], T0, 2)
    assert store.sources.note([bad(3)], T0, 2) == []  # one bad poll, not two in a row
    state = store.sources.states()["a"]
    assert state.fail_streak == 1 and state.broken_at is None


def test_validators_and_waits_are_kept_per_source(store: Store) -> None:
    later = T0 + timedelta(minutes=10)
    store.sources.note(
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
    state = store.sources.states()["a"]
    assert (state.etag, state.last_modified, state.validated_url) == (
        '"v1"',
        "Mon",
        "https://x.test/a",
    )
    assert state.not_before == later and state.last_good_at == T0
    store.sources.note([SourceNote("a", None, good=None, keep_validators=True)], later, 3)
    assert store.sources.states()["a"].etag == '"v1"'  # a 304 keeps them
    store.sources.note([SourceNote("a", 0, good=False, error="layout")], later, 3)
    assert store.sources.states()["a"].etag is None  # a bad parse drops them


def test_source_leases_give_each_source_to_one_replica(store: Store) -> None:
    until = T0 + timedelta(minutes=27)
    assert store.sources.lease(["a", "b"], "r1", T0, until) == {"a", "b"}
    assert store.sources.lease(["a", "b", "c"], "r2", T0, until) == {"c"}
    assert store.sources.lease(["a"], "r1", T0 + timedelta(minutes=1), until) == {"a"}  # its own
    later = T0 + timedelta(minutes=28)  # r1 died: its leases ran out
    assert store.sources.lease(["a", "b", "c"], "r2", later, later + timedelta(minutes=27)) == {
        "a",
        "b",
        "c",
    }


def shaped(version: int, n: int, told: bool) -> SourceNote:
    """A good poll of "a" with the shape it computed from `version`, telling a field gone."""
    notices = (notice("shape", n),) if told else ()
    document = {"pay": {"polls": 3, "items": 60, "seen": 0, "gone": told, "n": n}}
    return SourceNote("a", 20, good=True, shape=document, shape_version=version,
                      shape_notices=notices)  # fmt: skip


def test_two_replicas_computing_one_shape_change_tell_it_once(store: Store) -> None:
    """Two replicas poll one source at once: both read version 0, both decide "pay is gone".
    The first write wins (version 1, one notice); the second, computed from a version the row
    no longer holds, writes neither its shape nor its notice. A poll from version 1 then goes
    on from there."""
    assert store.sources.note([shaped(0, 1, told=True)], T0, 3) == ["a"]
    assert store.sources.note([shaped(0, 2, told=True)], T0, 3) == []
    state = store.sources.states()["a"]
    assert state.shape_version == 1 and state.shape["pay"]["n"] == 1
    assert store.outbox.job_states() == {"hunter:shape:a:1": "pending"}
    assert store.sources.note([shaped(1, 3, told=False)], T0, 3) == []
    state = store.sources.states()["a"]
    assert state.shape_version == 2 and state.shape["pay"]["n"] == 3
    assert store.sources.all()[0].shape == state.shape  # what `hunter status` shows


def test_a_due_source_is_claimed_by_one_replica(store: Store) -> None:
    """Two replicas saw the same next read; the first claim holds the source until the read's
    deadline, the second finds it moved and reads nothing (issue 34: read once)."""
    until = T0 + timedelta(seconds=80)
    assert store.sources.claim({"a": None, "b": None}, until) == {"a", "b"}  # never read
    assert store.sources.claim({"a": None}, until) == set()  # already claimed
    planned = T0 + timedelta(minutes=7)
    store.sources.note([SourceNote("a", 3, good=True, not_before=planned)], T0, 3)
    later = T0 + timedelta(minutes=8)
    assert store.sources.claim({"a": planned}, later + timedelta(seconds=80)) == {"a"}
    assert store.sources.claim({"a": planned}, later + timedelta(seconds=80)) == set()
    assert store.sources.states()["a"].not_before == later + timedelta(seconds=80)
    assert store.sources.claim({}, until) == set()


def test_a_sources_schedule_survives_the_store(store: Store) -> None:
    cadence = {"counts": [1.5] * 24, "watched": [2.0] * 24, "mark": 1.7e9, "at": 1.7e9}
    at = T0 + timedelta(minutes=9)
    store.sources.note(
        [SourceNote("a", 3, good=True, not_before=at, cadence=cadence, read_reason="busy")],
        T0,
        3,
    )
    state = store.sources.states()["a"]
    assert (state.not_before, state.read_reason, state.cadence) == (at, "busy", cadence)
    # A note without a cadence (a read that taught nothing) keeps the one learned
    store.sources.note([SourceNote("a", None, not_before=at, read_reason="site")], T0, 3)
    state = store.sources.states()["a"]
    assert (state.read_reason, state.cadence) == ("site", cadence)
    [row] = store.sources.all()
    assert (row.read_reason, row.cadence, row.not_before) == ("site", cadence, at)


def test_the_runs_of_a_cron_are_kept_for_its_gap(store: Store) -> None:
    for minutes in range(0, 75, 5):
        kept = store.sources.tick(T0 + timedelta(minutes=minutes), 12)
    assert kept == [T0 + timedelta(minutes=m) for m in range(15, 75, 5)]
    # A run before all of them (a clock gone back) leaves the gap as it was
    assert store.sources.tick(T0 + timedelta(minutes=1), 12) == kept


def test_the_notes_keep_the_reads_in_the_same_call_and_a_refused_history_fails_no_note(
    store: Store,
) -> None:
    """Issue 56: a poll's notes and its reads for the history are one round trip; the
    history is for people to look at, so a database that refuses it fails no note."""
    kept = ReadRow("a", T0, 20, 0, 0, None, 0.4)
    assert store.sources.note([bad(1)], T0, 3, [kept]) == []
    assert [(r.source, r.listings) for r in store.reads.since(T0 - timedelta(days=1))] == [
        ("a", 20)
    ]
    refused = ReadRow("a", T0 + timedelta(minutes=5), 20, 0, 0, None, None)  # type: ignore[arg-type]
    assert store.sources.note([bad(2)], T0, 3, [refused]) == []  # NOT NULL: refused, logged
    assert store.sources.states()["a"].fail_streak == 2  # the note was written all the same
    assert len(store.reads.since(T0 - timedelta(days=1))) == 1
