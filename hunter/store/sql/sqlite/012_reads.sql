-- hunter schema, version 12, for SQLite: each read of each source, for the status's history
-- (see the PostgreSQL one).
CREATE TABLE IF NOT EXISTS hunter_reads (
    source   TEXT NOT NULL,
    read_at  TEXT NOT NULL,
    listings INTEGER NOT NULL,
    new      INTEGER NOT NULL,
    matching INTEGER NOT NULL,
    error    TEXT,
    seconds  REAL NOT NULL,
    PRIMARY KEY (source, read_at)
);
CREATE INDEX IF NOT EXISTS hunter_reads_at ON hunter_reads (read_at);
