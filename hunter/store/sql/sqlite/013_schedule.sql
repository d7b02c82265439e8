-- hunter schema, version 13, for SQLite: each source's own schedule (see the PostgreSQL one).
ALTER TABLE hunter_sources ADD COLUMN cadence TEXT;
ALTER TABLE hunter_sources ADD COLUMN read_reason TEXT;
