-- hunter schema, version 22, for SQLite: only the fresh listings' titles are looked up (the
-- statement is queries.sql's likeness_earlier); no table changes.
SELECT 1;
