-- hunter schema, version 8, for SQLite: the budget and the pause stamped each on its own, so
-- that a chat's changes keep the order they were said in (see the PostgreSQL one).

ALTER TABLE hunter_chat_settings ADD COLUMN budget_at TEXT;
ALTER TABLE hunter_chat_settings ADD COLUMN paused_at TEXT;
