-- hunter schema, version 6, for SQLite: what a chat changed of its rules (see the PostgreSQL one).

CREATE TABLE IF NOT EXISTS hunter_tuning (
    chat       TEXT NOT NULL,
    word       TEXT NOT NULL,
    op         TEXT NOT NULL CHECK (op IN ('add', 'remove')),
    changed_at TEXT NOT NULL,
    PRIMARY KEY (chat, word)
);

CREATE TABLE IF NOT EXISTS hunter_chat_settings (
    chat       TEXT PRIMARY KEY,
    min_budget INTEGER,
    paused     INTEGER NOT NULL DEFAULT 0,
    changed_at TEXT NOT NULL
);
