-- hunter schema, version 3, for SQLite: the LINE chat talks back (see the PostgreSQL one).

CREATE TABLE IF NOT EXISTS hunter_events (
    event_id    TEXT PRIMARY KEY,
    received_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS hunter_events_received ON hunter_events (received_at);

CREATE TABLE IF NOT EXISTS hunter_mutes (
    word     TEXT PRIMARY KEY,
    until    TEXT NOT NULL,
    muted_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_marks (
    job_id    TEXT PRIMARY KEY,
    mark      TEXT NOT NULL CHECK (mark IN ('dismissed', 'applied')),
    listing   TEXT NOT NULL,
    marked_at TEXT NOT NULL
);
