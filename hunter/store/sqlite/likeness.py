"""The likeness room on SQLite (see hunter/store/likeness.py): one BEGIN IMMEDIATE
transaction a note, as the PostgreSQL function is one statement."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from hunter.rules.likeness import Likeness
from hunter.rules.listing import Listing
from hunter.store.likeness import LikenessStore, Noted, likeness_document, noted
from hunter.store.sqlite.database import Q, SQLiteDatabase, ts


class SQLiteLikeness(LikenessStore):
    def __init__(self, database: SQLiteDatabase) -> None:
        super().__init__(database)
        self._database = database

    def note(
        self,
        listings: Sequence[tuple[Listing, Likeness]],
        since: datetime,
        now: datetime,
        keep: bool = True,
    ) -> Noted:
        document = likeness_document(listings)
        ids = json.dumps([job["job_id"] for job in document])
        with self._database.tx() as db:
            fresh = [dict(row) for row in db.execute(Q["likeness_fresh"], {"ids": ids}).fetchall()]
            new = {str(row["job_id"]) for row in fresh}
            if keep:
                db.executemany(
                    Q["likeness_keep"],
                    [
                        {
                            "job_id": job["job_id"],
                            "source": job["source"],
                            "title": job["title"],
                            "likeness": json.dumps(job["likeness"], ensure_ascii=False),
                            "now": ts(now),
                        }
                        for job in document
                        if job["job_id"] in new and job["title"]
                    ],
                )
            # Only a listing never recorded can be a later copy: only its title is looked up
            # (a read of 50 listings seen before looks up nothing).
            asked = sorted(
                {
                    (str(j["title"]), str(_company(j)), str(_language(j)))
                    for j in document
                    if j["job_id"] in new and j["title"]
                }
            )
            earlier = (
                db.execute(
                    Q["likeness_earlier"],
                    {
                        "fresh": json.dumps(asked),
                        "ids": json.dumps(sorted(new)),
                        "since": ts(since),
                    },
                ).fetchall()
                if asked
                else []
            )
        return noted([{**row, "fresh": True} for row in fresh] + [dict(r) for r in earlier])

    def prune(self, before: datetime) -> int:
        with self._database.tx() as db:
            return db.execute(Q["likeness_prune"], {"before": ts(before)}).rowcount


def _company(job: dict[str, object]) -> object:
    likeness = job["likeness"]
    return likeness.get("company", "") if isinstance(likeness, dict) else ""


def _language(job: dict[str, object]) -> object:
    likeness = job["likeness"]
    return likeness.get("language", "") if isinstance(likeness, dict) else ""
