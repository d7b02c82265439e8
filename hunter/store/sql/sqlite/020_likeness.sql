-- hunter schema, version 20, for SQLite: a job's likeness (issue 43), as the PostgreSQL one.
CREATE TABLE IF NOT EXISTS hunter_likeness (
    job_id   TEXT PRIMARY KEY,
    source   TEXT NOT NULL,
    title    TEXT NOT NULL,
    likeness TEXT NOT NULL,
    seen_at  TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS hunter_likeness_title ON hunter_likeness (title, seen_at);

CREATE INDEX IF NOT EXISTS hunter_likeness_seen ON hunter_likeness (seen_at);
