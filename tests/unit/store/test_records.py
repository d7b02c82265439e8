"""What the store is sent when a read is recorded (store/records.py)."""

from __future__ import annotations

import json
from dataclasses import replace

from hunter.rules.listing import Listing
from hunter.store.records import jobs_document, jobs_json


def test_the_record_documents_text_is_its_document_written_a_listing_at_a_time() -> None:
    """PostgreSQL and Supabase are sent jobs_json (written a listing at a time, so a big read's
    dicts never stand whole beside their text); it says what jobs_document says, chats,
    keywords, marks, Thai and all."""
    one = Listing("a:1", "a", "นักพัฒนา Python “ด่วน”", "https://a.test/1", summary="ข้อความ")
    two = Listing("a:2", "a", "Designer", "https://a.test/2")
    chats = {
        "a:1": [
            ("telegram:1", replace(one, keywords=("python",))),
            ("telegram:2", replace(one, kin="Backend Developer")),
        ]
    }
    for matched in (set(), {"a:1"}):
        written = jobs_json([two, one], matched, chats)
        assert json.loads(written) == jobs_document([two, one], matched, chats)
    assert jobs_json([], set()) == "[]"
