-- hunter schema, version 15, for SQLite: a row belongs to its chat by a key of listing and
-- chat, never by an id spelled "<listing id>#<chat>" (see the PostgreSQL one). SQLite cannot
-- change a table's primary key: the two tables are copied into new ones and renamed.

CREATE TABLE hunter_seen_jobs_15 (
    job_id          TEXT NOT NULL,
    chat            TEXT NOT NULL DEFAULT '',
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
    sent_at         TEXT,
    PRIMARY KEY (job_id, chat)
);

INSERT INTO hunter_seen_jobs_15
    (job_id, chat, source, status, listing, first_seen_at, last_seen_at, attempts,
     next_attempt_at, claimed_by, claimed_at, retry_key, retry_key_at, error_kind, last_error,
     sent_at)
SELECT CASE WHEN chat <> '' AND substr(job_id, -(length(chat) + 1)) = '#' || chat
            THEN substr(job_id, 1, length(job_id) - length(chat) - 1) ELSE job_id END,
       chat, source, status, listing, first_seen_at, last_seen_at, attempts, next_attempt_at, claimed_by, claimed_at,
       retry_key, retry_key_at, error_kind, last_error, sent_at
FROM hunter_seen_jobs;

DROP TABLE hunter_seen_jobs;

ALTER TABLE hunter_seen_jobs_15 RENAME TO hunter_seen_jobs;

CREATE INDEX hunter_seen_jobs_chat_pending ON hunter_seen_jobs (chat, first_seen_at)
    WHERE status = 'pending';

CREATE INDEX hunter_seen_jobs_key ON hunter_seen_jobs (retry_key)
    WHERE status IN ('sending', 'retry', 'stuck');

CREATE INDEX hunter_seen_jobs_outbox ON hunter_seen_jobs (status, next_attempt_at)
    WHERE status IN ('pending', 'sending', 'retry', 'stuck');

CREATE INDEX hunter_seen_jobs_prunable ON hunter_seen_jobs (last_seen_at)
    WHERE status IN ('primed', 'ignored', 'sent');

CREATE INDEX hunter_seen_jobs_sent_at
    ON hunter_seen_jobs (sent_at) WHERE status = 'sent';

CREATE INDEX hunter_seen_jobs_sent_by_chat
    ON hunter_seen_jobs (chat, sent_at) WHERE status = 'sent';

CREATE TABLE hunter_marks_15 (
    job_id    TEXT NOT NULL,
    chat      TEXT NOT NULL DEFAULT '',
    mark      TEXT NOT NULL CHECK (mark IN ('dismissed', 'applied')),
    listing   TEXT NOT NULL,
    marked_at TEXT NOT NULL,
    PRIMARY KEY (job_id, chat)
);

-- A mark of a chat's row was kept under its spelled id: its chat is the one whose name ends it.
INSERT INTO hunter_marks_15 (job_id, chat, mark, listing, marked_at)
SELECT coalesce(
           (SELECT substr(m.job_id, 1, length(m.job_id) - length(c.chat) - 1)
            FROM (SELECT DISTINCT chat FROM hunter_seen_jobs WHERE chat <> '') c
            WHERE substr(m.job_id, -(length(c.chat) + 1)) = '#' || c.chat
            ORDER BY length(c.chat) DESC LIMIT 1), m.job_id),
       coalesce(
           (SELECT c.chat
            FROM (SELECT DISTINCT chat FROM hunter_seen_jobs WHERE chat <> '') c
            WHERE substr(m.job_id, -(length(c.chat) + 1)) = '#' || c.chat
            ORDER BY length(c.chat) DESC LIMIT 1), ''),
       m.mark, m.listing, m.marked_at
FROM hunter_marks m WHERE true
ON CONFLICT (job_id, chat) DO NOTHING;

DROP TABLE hunter_marks;

ALTER TABLE hunter_marks_15 RENAME TO hunter_marks;
