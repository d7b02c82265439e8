-- hunter schema, version 23, for SQLite: a chat's row of a new listing may come as its
-- keywords alone (the record's statement is in queries.sql); no table changes.
SELECT 1;
