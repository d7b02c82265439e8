"""The store as a whole: every adapter, against a real database, migrates idempotently and
reports what `hunter status` shows from all of its rooms."""

from __future__ import annotations

from datetime import timedelta

from hunter.store.base import Store
from hunter.store.records import SourceNote
from tests.support.outbox_rows import T0, failure, pending


def test_status_shows_the_outbox_and_the_sources(store: Store) -> None:
    pending(store, 1, 2, 3)
    store.outbox.claim_new("w", "k", 1, T0)
    store.outbox.mark_sent("k", T0)
    store.outbox.claim_new("w", "k2", 1, T0)
    store.outbox.mark_failed(
        "k2", "w", failure("stuck", "permanent", "LINE rejected this listing", None, False)
    )
    store.sources.note(
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
    assert store.outbox.job_states()["a:1"] == "pending"
