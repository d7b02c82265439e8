-- hunter schema, version 14, for SQLite: a burst is delivered, a flood is a board that
-- renumbered (see the PostgreSQL one). SQLite's `record` is hunter/store/sqlite/outbox.py,
-- whose rule changed with it; its tables did not.
SELECT 1;
