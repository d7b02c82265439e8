-- hunter schema, version 1, for SQLite. Same tables and meaning as the PostgreSQL schema;
-- times are UTC ISO-8601 strings of fixed width, so they compare as text.

CREATE TABLE IF NOT EXISTS hunter_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_seen_jobs (
    job_id          TEXT PRIMARY KEY,
    source          TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN
                        ('primed', 'ignored', 'pending', 'sending', 'retry', 'sent', 'stuck')),
    listing         TEXT NOT NULL,
    first_seen_at   TEXT NOT NULL,
    last_seen_at    TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    claimed_by      TEXT,
    claimed_at      TEXT,
    retry_key       TEXT,
    retry_key_at    TEXT,
    error_kind      TEXT,
    last_error      TEXT,
    sent_at         TEXT
);
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_outbox ON hunter_seen_jobs (status, next_attempt_at)
    WHERE status IN ('pending', 'sending', 'retry', 'stuck');
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_key ON hunter_seen_jobs (retry_key)
    WHERE status IN ('sending', 'retry', 'stuck');
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_prunable ON hunter_seen_jobs (last_seen_at)
    WHERE status IN ('primed', 'ignored', 'sent');
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent ON hunter_seen_jobs (sent_at)
    WHERE status = 'sent';

CREATE TABLE IF NOT EXISTS hunter_batches (
    retry_key  TEXT PRIMARY KEY,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_sources (
    name          TEXT PRIMARY KEY,
    primed_at     TEXT,
    last_poll_at  TEXT,
    last_ok_at    TEXT,
    last_good_at  TEXT,
    last_count    INTEGER,
    last_error    TEXT,
    fail_streak   INTEGER NOT NULL DEFAULT 0,
    broken_at     TEXT,
    etag          TEXT,
    last_modified TEXT,
    validated_url TEXT,
    not_before    TEXT,
    lease_owner   TEXT,
    lease_until   TEXT
);
