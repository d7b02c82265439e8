-- hunter schema, version 27, for SQLite: turns taken at most every so often (the owner's
-- card of the chats that ask to join) live in hunter_meta, as the PostgreSQL ones (the
-- statements are queries.sql's turn and take_turn); no table changes.
SELECT 1;
