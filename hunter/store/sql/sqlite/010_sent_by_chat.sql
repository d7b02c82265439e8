-- hunter schema, version 10, for SQLite: the sent rows of each chat by time, for what each chat
-- was sent this month (see the PostgreSQL one).

CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent_by_chat
    ON hunter_seen_jobs (chat, sent_at) WHERE status = 'sent';
