-- hunter schema, version 2: the pace of pushes (see hunter/pace.py), one row shared by every
-- replica, so that restarts, `run --once` from cron and several instances keep one pace.

CREATE TABLE IF NOT EXISTS hunter_pace (
    id         integer PRIMARY KEY CHECK (id = 1),  -- one row
    month      text NOT NULL,              -- '2026-11', in the config's timezone
    tat        double precision NOT NULL,  -- GCRA: when the next push is due, in active seconds
                                           -- (outside quiet hours) since the month began
    pushes     integer NOT NULL,           -- pushes counted this month
    updated_at timestamptz NOT NULL
);

-- Claim one push of the month's allowance. The row lock serialises replicas: two of them never
-- spend the same allowance. A new month starts afresh with its first claim. A notice of
-- hunter's own spends the reserve (p_cap is larger for it) and leaves the pace alone.
CREATE OR REPLACE FUNCTION hunter_claim_push(p_month text, p_now double precision,
                                             p_interval double precision,
                                             p_tolerance double precision, p_cap integer,
                                             p_notice boolean, p_at timestamptz)
RETURNS TABLE (month text, tat double precision, pushes integer, granted boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_month   text;
    v_tat     double precision;
    v_pushes  integer;
    v_granted boolean;
BEGIN
    INSERT INTO hunter_pace AS p (id, month, tat, pushes, updated_at)
    VALUES (1, p_month, p_now, 0, p_at) ON CONFLICT (id) DO NOTHING;
    SELECT p.month, p.tat, p.pushes INTO v_month, v_tat, v_pushes
    FROM hunter_pace p WHERE p.id = 1 FOR UPDATE;
    IF v_month <> p_month THEN
        v_month := p_month;
        v_tat := p_now;
        v_pushes := 0;
    END IF;
    v_granted := v_pushes < p_cap AND (p_notice OR v_tat - p_tolerance <= p_now);
    IF v_granted THEN
        v_pushes := v_pushes + 1;
        IF NOT p_notice THEN
            v_tat := greatest(v_tat, p_now) + p_interval;
        END IF;
    END IF;
    UPDATE hunter_pace p SET month = v_month, tat = v_tat, pushes = v_pushes, updated_at = p_at
    WHERE p.id = 1;
    RETURN QUERY SELECT v_month, v_tat, v_pushes, v_granted;
END $$;

CREATE OR REPLACE FUNCTION hunter_pace_row()
RETURNS TABLE (month text, tat double precision, pushes integer)
LANGUAGE sql STABLE AS $$
    SELECT p.month, p.tat, p.pushes FROM hunter_pace p WHERE p.id = 1;
$$;

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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '2')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 2;
