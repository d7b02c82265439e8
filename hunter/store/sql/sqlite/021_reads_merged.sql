-- hunter schema, version 21, for SQLite: each read keeps how many of its new listings were
-- merged with an earlier copy of their job (issue 43), as the PostgreSQL one.
ALTER TABLE hunter_reads ADD COLUMN merged INTEGER NOT NULL DEFAULT 0;
