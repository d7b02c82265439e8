-- hunter schema, version 26, for SQLite: a channel's pace for the whole bot, shared by every
-- process on the file, as the PostgreSQL one (the statement is queries.sql's take_slots).
CREATE TABLE hunter_send_slots (
    channel TEXT PRIMARY KEY,
    tat REAL NOT NULL,
    updated_at TEXT NOT NULL
);
