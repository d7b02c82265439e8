-- hunter schema, version 30, for SQLite: one employer's listings, newest first, for a job
-- posted in two languages under two titles (see the PostgreSQL migration; the statement is
-- queries.sql's likeness_earlier).
CREATE INDEX IF NOT EXISTS hunter_likeness_employer
    ON hunter_likeness (coalesce(json_extract(likeness, '$.company'), ''), seen_at, job_id);
