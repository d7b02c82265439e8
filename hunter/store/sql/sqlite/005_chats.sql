-- hunter schema, version 5, for SQLite: several chats, a push paid per member (see the
-- PostgreSQL one).

ALTER TABLE hunter_seen_jobs ADD COLUMN chat TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_chat_pending ON hunter_seen_jobs (chat, first_seen_at)
    WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS hunter_chats (
    name       TEXT PRIMARY KEY,
    to_id      TEXT,
    members    INTEGER,
    members_at TEXT,
    month      TEXT,
    spent      INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS hunter_chat_mutes (
    chat     TEXT NOT NULL,
    word     TEXT NOT NULL,
    until    TEXT NOT NULL,
    muted_at TEXT NOT NULL,
    PRIMARY KEY (chat, word)
);
INSERT INTO hunter_chat_mutes (chat, word, until, muted_at)
SELECT '', word, until, muted_at FROM hunter_mutes WHERE true
ON CONFLICT (chat, word) DO NOTHING;
DELETE FROM hunter_mutes;
