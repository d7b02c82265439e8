-- hunter schema, version 17, for SQLite: the rows `hunter status` shows say whose they are
-- (see the PostgreSQL one); SQLite's query is outbox_rows in queries.sql.
SELECT 1;
