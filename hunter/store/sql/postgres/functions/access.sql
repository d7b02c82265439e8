-- Who may call hunter's functions, and which schema the database holds.
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- Access, as 001 set it, now as a function that every later migration calls again: RLS on
-- every hunter table, EXECUTE on every hunter function only for Supabase's service_role (and
-- the owner), nothing at all for anon and authenticated.
CREATE OR REPLACE FUNCTION hunter_restrict_access()
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    f    regprocedure;
    t    text;
    api  text;
BEGIN
    FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = current_schema() AND c.relkind = 'r'
               AND c.relname LIKE 'hunter\_%'
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        FOREACH api IN ARRAY ARRAY['anon', 'authenticated'] LOOP
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = api) THEN
                EXECUTE format('REVOKE ALL ON %I FROM %I', t, api);
            END IF;
        END LOOP;
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
            EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO service_role', t);
        END IF;
    END LOOP;
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = current_schema() AND p.proname LIKE 'hunter\_%'
    LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
        FOREACH api IN ARRAY ARRAY['anon', 'authenticated'] LOOP
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = api) THEN
                EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM %I', f, api);
            END IF;
        END LOOP;
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO service_role', f);
        END IF;
    END LOOP;
END $$;

-- Reads, as functions too: the Supabase adapter reaches the database only through rpc.
CREATE OR REPLACE FUNCTION hunter_schema_version()
RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT value::integer FROM hunter_meta WHERE key = 'schema_version'), 0);
$$;

-- The schema's version and which text of these functions the database holds (a digest of
-- this folder, written by whoever applied it), in one call: the Supabase adapter's check at
-- every start.
CREATE OR REPLACE FUNCTION hunter_schema_state()
RETURNS TABLE (version integer, functions text)
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT value::integer FROM hunter_meta WHERE key = 'schema_version'), 0),
           coalesce((SELECT value FROM hunter_meta WHERE key = 'functions'), '');
$$;
