"""The sources' rows on SQLite (see hunter/store/sources.py for what each operation means)."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from hunter.store.columns import integer, optional_moment
from hunter.store.outbox import looked
from hunter.store.records import ReadRow, SourceNote
from hunter.store.sources import PollLook, SourceStore, states_of, ticks_of
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts
from hunter.store.sqlite.outbox import claim_prune_in, insert_notice

log = logging.getLogger("hunter")


class SQLiteSources(SourceStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def note(
        self,
        notes: Sequence[SourceNote],
        now: datetime,
        broken_after: int,
        reads: Sequence[ReadRow] = (),
    ) -> list[str]:
        with self._database.tx() as db:
            noted = [
                note.name
                for note in sorted(notes, key=lambda n: n.name)
                if _note(db, note, ts(now), broken_after)
            ]
            if reads:  # the history, in a savepoint: its failure fails no note
                rows = [{**r.document(), "read_at": ts(r.read_at)} for r in reads]
                db.execute("SAVEPOINT hunter_reads")
                try:
                    db.executemany(Q["keep_read"], rows)
                except sqlite3.Error as exc:
                    db.execute("ROLLBACK TO hunter_reads")
                    log.warning("the reads of this poll were not kept for the history: %s", exc)
                db.execute("RELEASE hunter_reads")
            return noted

    def lease(self, names: Sequence[str], worker: str, now: datetime, until: datetime) -> set[str]:
        leased = set()
        with self._database.tx() as db:
            for name in sorted(names):
                db.execute(Q["note_source"], {"name": name})
                params = {"name": name, "worker": worker, "now": ts(now), "until": ts(until)}
                if db.execute(Q["lease_source"], params).fetchall():
                    leased.add(name)
        return leased

    def claim(self, seen: Mapping[str, datetime | None], until: datetime) -> set[str]:
        claimed = set()
        with self._database.tx() as db:
            for name in sorted(seen):
                db.execute(Q["note_source"], {"name": name})
                params = {"name": name, "seen": ts(seen[name]), "until": ts(until)}
                if db.execute(Q["claim_read"], params).fetchall():
                    claimed.add(name)
        return claimed

    def tick(self, now: datetime, keep: int) -> list[datetime]:
        with self._database.tx() as db:
            return _tick(db, now, keep)

    def look(
        self, now: datetime, keep: int, lease_before: datetime, prune_every: timedelta
    ) -> PollLook:
        with self._database.tx() as db:
            ticks = _tick(db, now, keep)
            states = states_of(dict(r) for r in db.execute(Q["sources"]))
            params = {"now": ts(now), "lease_before": ts(lease_before)}
            claimable, due = looked(dict(db.execute(Q["outbox_look"], params).fetchone() or {}))
            prune = claim_prune_in(db, now, prune_every)
            return PollLook(ticks, states, claimable, due, prune)


def _tick(db: sqlite3.Connection, now: datetime, keep: int) -> list[datetime]:
    """`tick` inside its transaction."""
    row = db.execute(Q["ticks"]).fetchone()
    times = [*ticks_of(row["value"] if row else None), now]
    value = " ".join(str(t) for t in sorted(int(t.timestamp()) for t in times)[-keep:])
    db.execute(Q["set_ticks"], {"value": value})
    return ticks_of(value)


def _note(db: sqlite3.Connection, note: SourceNote, at: str | None, broken_after: int) -> bool:
    """Write one source's note; True when it queued a notice (broken, recovered, a field gone
    or back)."""
    document = note.document()
    document["not_before"] = ts(note.not_before)
    document["cadence"] = None if note.cadence is None else json.dumps(note.cadence)
    for unwritten in ("broken_notice", "recovered_notice", "shape", "shape_notices"):
        del document[unwritten]
    db.execute(Q["note_source"], {"name": note.name})
    row = db.execute(Q["update_source"], {**document, "now": at}).fetchone()
    told = _note_shape(db, note, at)
    streak, broken_at = integer(row, "fail_streak"), optional_moment(row, "broken_at")
    notice = None
    if note.good is False and streak >= broken_after and broken_at is None:
        db.execute(Q["set_broken"], {"name": note.name, "broken_at": at})
        notice = note.broken_notice
    elif note.good and broken_at is not None:
        db.execute(Q["set_broken"], {"name": note.name, "broken_at": None})
        notice = note.recovered_notice
    if notice is None:
        return told
    insert_notice(db, notice.job_id, notice.payload(), at)
    return True


def _note_shape(db: sqlite3.Connection, note: SourceNote, at: str | None) -> bool:
    """Write the source's new shape if it still holds the version the poll read, and then
    its notices; True when there were any."""
    if note.shape is None:
        return False
    params = {"name": note.name, "shape": json.dumps(note.shape), "version": note.shape_version}
    if db.execute(Q["update_shape"], params).rowcount != 1:
        return False  # another poll of it was written first: its verdict stands
    for notice in note.shape_notices:
        insert_notice(db, notice.job_id, notice.payload(), at)
    return bool(note.shape_notices)
