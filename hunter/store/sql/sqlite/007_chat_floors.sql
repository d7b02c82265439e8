-- hunter schema, version 7, for SQLite: a chat's pay floors in other currencies and periods
-- (see the PostgreSQL one).

CREATE TABLE IF NOT EXISTS hunter_chat_floors (
    chat       TEXT NOT NULL,
    currency   TEXT NOT NULL,
    period     TEXT NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    changed_at TEXT NOT NULL,
    PRIMARY KEY (chat, currency, period)
);
