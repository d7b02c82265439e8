-- hunter schema, version 4, for SQLite: webhook events kept until handled (see the PostgreSQL one).

ALTER TABLE hunter_events ADD COLUMN chat_id TEXT;
ALTER TABLE hunter_events ADD COLUMN payload TEXT;
ALTER TABLE hunter_events ADD COLUMN held_by TEXT;
ALTER TABLE hunter_events ADD COLUMN held_at TEXT;
ALTER TABLE hunter_events ADD COLUMN handled_at TEXT;
UPDATE hunter_events SET handled_at = received_at WHERE handled_at IS NULL AND payload IS NULL;
CREATE INDEX IF NOT EXISTS hunter_events_waiting ON hunter_events (held_at)
    WHERE handled_at IS NULL;

CREATE TABLE IF NOT EXISTS hunter_chat_notes (
    chat_id    TEXT PRIMARY KEY,
    private_at TEXT NOT NULL
);
