-- hunter schema, version 16, for SQLite: the status's 7 days summed by the store (see the
-- PostgreSQL one); SQLite's query is reads_by_day in queries.sql, over the index on read_at
-- its tables already have.
SELECT 1;
