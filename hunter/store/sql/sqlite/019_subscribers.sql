-- hunter schema, version 19, for SQLite: subscribers (issue 42), as the PostgreSQL one.
CREATE TABLE IF NOT EXISTS hunter_subscribers (
    chat      TEXT PRIMARY KEY,
    status    TEXT NOT NULL CHECK (status IN ('asked', 'active', 'left')),
    joined_at TEXT NOT NULL,
    left_at   TEXT
);

CREATE TABLE IF NOT EXISTS hunter_membership (
    at     TEXT NOT NULL,
    change TEXT NOT NULL CHECK (change IN ('join', 'leave'))
);

CREATE INDEX IF NOT EXISTS hunter_membership_at ON hunter_membership (at);
