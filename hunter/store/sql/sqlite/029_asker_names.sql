-- hunter schema, version 29, for SQLite: the name a chat that asks to join gave with its Start
-- (issue 62, low 7; see the PostgreSQL migration). The statements are queries.sql's
-- subscriber_put, subscriber_approve and asker_names.
ALTER TABLE hunter_subscribers ADD COLUMN name TEXT;
