-- hunter schema, version 18, for SQLite: a quiet run's one look at the outbox (see the
-- PostgreSQL one); SQLite's query is outbox_look in queries.sql, over the tables it has.
SELECT 1;
