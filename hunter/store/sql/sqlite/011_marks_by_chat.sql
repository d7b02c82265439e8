-- hunter schema, version 11, for SQLite: a card's button now acts only on a row whose own
-- `chat` column is the tapping chat's (queries.sql: job_listing and dismiss), never on one
-- found by parsing its job id; and the sent rows by time, for each source's freshness in
-- `hunter status` (see the PostgreSQL one).
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent_at
    ON hunter_seen_jobs (sent_at) WHERE status = 'sent';
