-- hunter schema, version 9, for SQLite: each source's shape, how often each field it reads is
-- present, so that a board that renames a field is noticed (see the PostgreSQL one).

ALTER TABLE hunter_sources ADD COLUMN shape TEXT;
ALTER TABLE hunter_sources ADD COLUMN shape_version INTEGER NOT NULL DEFAULT 0;
