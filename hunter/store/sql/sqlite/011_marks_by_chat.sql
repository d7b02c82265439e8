-- hunter schema, version 11, for SQLite: nothing to change in the tables; a card's button now
-- acts only on a row whose own `chat` column is the tapping chat's (queries.sql: job_listing
-- and dismiss), never on one found by parsing its job id (see the PostgreSQL one).
SELECT 1;
