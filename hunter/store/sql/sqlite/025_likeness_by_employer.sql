-- hunter schema, version 25, for SQLite: a bucket answers only the earlier listings that could
-- be the same job, none of another stated employer (the statement is queries.sql's
-- likeness_earlier); no table changes.
SELECT 1;
