-- hunter schema, version 28, for SQLite: where a chat can work, set from its chat (issue 54;
-- see the PostgreSQL migration; the statements are queries.sql's tune_places and chat_rules).
ALTER TABLE hunter_chat_settings ADD COLUMN places TEXT;
ALTER TABLE hunter_chat_settings ADD COLUMN places_at TEXT;

-- 👍 under a card (issue 54) is a mark of its own, "liked": SQLite changes a CHECK by
-- rebuilding its table.
CREATE TABLE hunter_marks_28 (
    job_id    TEXT NOT NULL,
    chat      TEXT NOT NULL DEFAULT '',
    mark      TEXT NOT NULL CHECK (mark IN ('dismissed', 'applied', 'liked')),
    listing   TEXT NOT NULL,
    marked_at TEXT NOT NULL,
    PRIMARY KEY (job_id, chat)
);
INSERT INTO hunter_marks_28 (job_id, chat, mark, listing, marked_at)
SELECT job_id, chat, mark, listing, marked_at FROM hunter_marks;
DROP TABLE hunter_marks;
ALTER TABLE hunter_marks_28 RENAME TO hunter_marks;
CREATE INDEX hunter_marks_newest ON hunter_marks (chat, marked_at DESC);

-- "Try before you wait" (issue 54): the owner's rows by when they were first seen.
CREATE INDEX hunter_seen_jobs_recent ON hunter_seen_jobs (first_seen_at) WHERE chat = '';

-- What a chat's places, languages and taps held back (issue 54; see the PostgreSQL migration;
-- the statement is queries.sql's count_held).
ALTER TABLE hunter_chat_settings ADD COLUMN held_since TEXT;
ALTER TABLE hunter_chat_settings ADD COLUMN held_place INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hunter_chat_settings ADD COLUMN held_language INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hunter_chat_settings ADD COLUMN held_taps INTEGER NOT NULL DEFAULT 0;
