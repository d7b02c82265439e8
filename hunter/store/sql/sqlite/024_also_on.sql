-- hunter schema, version 24, for SQLite: the first alert of a job gains "also on <board>"
-- (issue 43), as the PostgreSQL one: each sent message's id on the channel, the copies merged
-- into a row ([source, url] pairs, JSON), and the edit due on its message.
ALTER TABLE hunter_seen_jobs ADD COLUMN sent_ref TEXT;
ALTER TABLE hunter_seen_jobs ADD COLUMN also TEXT;
ALTER TABLE hunter_seen_jobs ADD COLUMN edit_due_at TEXT;
ALTER TABLE hunter_seen_jobs ADD COLUMN edit_claimed_at TEXT;
ALTER TABLE hunter_seen_jobs ADD COLUMN edit_tries INTEGER NOT NULL DEFAULT 0;
CREATE INDEX hunter_seen_jobs_edit_due ON hunter_seen_jobs (edit_due_at)
    WHERE edit_due_at IS NOT NULL;
