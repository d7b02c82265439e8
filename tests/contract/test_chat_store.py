"""What the chat keeps, the same on SQLite, PostgreSQL and Supabase: each webhook event once,
mutes with an end, marks that outlive the seen row, and the listings sent last."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hunter.listing import Listing
from hunter.store.base import Store

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)


def test_each_event_is_claimed_once_and_forgotten_after_a_week(store: Store) -> None:
    assert store.claim_event("E1", T0) is True
    assert store.claim_event("E1", T0 + timedelta(seconds=5)) is False
    assert store.claim_event("E2", T0 + timedelta(days=8)) is True  # E1 is forgotten now
    assert store.claim_event("E1", T0 + timedelta(days=8)) is True


def test_mutes_end_and_can_be_lifted(store: Store) -> None:
    store.mute("python", T0 + timedelta(days=30), T0)
    store.mute("django", T0 + timedelta(days=1), T0)
    assert set(store.mutes(T0)) == {"django", "python"}
    assert set(store.mutes(T0 + timedelta(days=2))) == {"python"}
    assert store.unmute("python") is True and store.unmute("python") is False
    assert store.mutes(T0) == {"django": T0 + timedelta(days=1)}


def test_marks_and_the_last_sent(store: Store) -> None:
    seed = Listing("a:seed", "a", "seed", "https://x.test/")
    store.record("a", [seed], set(), T0)
    jobs = [Listing(f"a:{n}", "a", f"job {n}", f"https://x.test/{n}") for n in range(3)]
    store.record("a", jobs, {j.job_id for j in jobs}, T0)
    assert store.mark("a:0", "dismissed", T0) == "job 0"
    assert store.mark("a:1", "applied", T0) == "job 1"
    assert store.mark("a:nope", "applied", T0) is None
    states = store.job_states()
    assert (states["a:0"], states["a:1"], states["a:2"]) == ("ignored", "pending", "pending")
    [applied] = store.marks("applied")
    assert (applied.job_id, applied.listing.url) == ("a:1", "https://x.test/1")
    batch = store.claim_new("w", "k1", 10, T0)
    store.mark_sent("k1", T0 + timedelta(minutes=1))
    assert [x.title for x in store.recent_sent(10)] == sorted(c.listing.title for c in batch)
