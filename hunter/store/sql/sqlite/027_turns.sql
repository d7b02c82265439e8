-- hunter schema, version 27, for SQLite: turns taken at most every so often (the owner's
-- card of the chats that ask to join) live in hunter_meta, as the PostgreSQL ones (the
-- statements are queries.sql's turn and take_turn); and a likeness bucket's look-up is an
-- index range scan with a limit whatever one board shows (queries.sql's likeness_earlier).
CREATE INDEX hunter_likeness_bucket
    ON hunter_likeness (title, coalesce(json_extract(likeness, '$.company'), ''), seen_at, job_id);
DROP INDEX hunter_likeness_title;
CREATE INDEX hunter_likeness_title ON hunter_likeness (title, seen_at, job_id);

-- Who started a group's subscription (issue 55): in a group only they, or its admins, change it.
ALTER TABLE hunter_subscribers ADD COLUMN started_by TEXT;

-- The languages a chat reads, set from its chat (issue 54; see the PostgreSQL migration).
ALTER TABLE hunter_chat_settings ADD COLUMN languages TEXT;
ALTER TABLE hunter_chat_settings ADD COLUMN languages_at TEXT;
