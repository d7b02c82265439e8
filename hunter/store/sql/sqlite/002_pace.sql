-- hunter schema, version 2, for SQLite: the pace of pushes (see the PostgreSQL migration).

CREATE TABLE IF NOT EXISTS hunter_pace (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    month      TEXT NOT NULL,
    tat        REAL NOT NULL,
    pushes     INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
