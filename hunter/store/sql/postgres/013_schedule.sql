-- hunter schema, version 13: each source's own schedule (issue 34). A source is read as often
-- as it posts: what hunter learned of its hours (`cadence`, hunter/poll/cadence.py) and why
-- its next read (`not_before`) is when it is (`read_reason`: busy, quiet, fixed, every,
-- site). A read is claimed before it is made, so two replicas never read one due source
-- twice; `run --once` keeps the times of its runs to learn the cron's gap.

ALTER TABLE hunter_sources ADD COLUMN IF NOT EXISTS cadence jsonb;
ALTER TABLE hunter_sources ADD COLUMN IF NOT EXISTS read_reason text;

-- As in version 9, and each note's cadence and the reason of its next read.
CREATE OR REPLACE FUNCTION hunter_note_sources(p_notes jsonb, p_now timestamptz,
                                               p_broken_after integer)
RETURNS TABLE (source text)
LANGUAGE plpgsql AS $$
DECLARE
    n        record;
    v_streak integer;
    v_broken timestamptz;
    v_notice jsonb;
    v_told   boolean;
BEGIN
    FOR n IN
        SELECT * FROM jsonb_to_recordset(p_notes) AS x(
            name text, count integer, error text, good boolean, etag text,
            last_modified text, validated_url text, keep_validators boolean,
            not_before timestamptz, broken_notice jsonb, recovered_notice jsonb,
            shape jsonb, shape_version integer, shape_notices jsonb, cadence jsonb,
            read_reason text)
        ORDER BY name
    LOOP
        INSERT INTO hunter_sources (name) VALUES (n.name) ON CONFLICT (name) DO NOTHING;
        UPDATE hunter_sources s SET
            last_poll_at = p_now,
            last_ok_at = CASE WHEN n.error IS NULL THEN p_now ELSE s.last_ok_at END,
            last_good_at = CASE WHEN n.good AND coalesce(n.count, 0) > 0 THEN p_now
                                ELSE s.last_good_at END,
            last_count = coalesce(n.count, s.last_count),
            last_error = n.error,
            fail_streak = CASE WHEN n.good THEN 0 WHEN NOT n.good THEN s.fail_streak + 1
                               ELSE s.fail_streak END,
            etag = CASE WHEN n.keep_validators THEN s.etag ELSE n.etag END,
            last_modified = CASE WHEN n.keep_validators THEN s.last_modified
                                 ELSE n.last_modified END,
            validated_url = CASE WHEN n.keep_validators THEN s.validated_url
                                 ELSE n.validated_url END,
            not_before = n.not_before,
            cadence = coalesce(n.cadence, s.cadence),
            read_reason = n.read_reason
        WHERE s.name = n.name
        RETURNING s.fail_streak, s.broken_at INTO v_streak, v_broken;
        v_told := false;
        IF n.shape IS NOT NULL AND jsonb_typeof(n.shape) = 'object' THEN
            UPDATE hunter_sources s SET shape = n.shape, shape_version = s.shape_version + 1
            WHERE s.name = n.name AND s.shape_version = coalesce(n.shape_version, 0);
            IF FOUND AND jsonb_typeof(n.shape_notices) = 'array'
               AND jsonb_array_length(n.shape_notices) > 0 THEN
                INSERT INTO hunter_seen_jobs
                    (job_id, source, status, listing, first_seen_at, last_seen_at)
                SELECT t->>'job_id', 'hunter', 'pending', t->'listing', p_now, p_now
                FROM jsonb_array_elements(n.shape_notices) t
                ON CONFLICT (job_id) DO NOTHING;
                v_told := true;
            END IF;
        END IF;
        v_notice := NULL;
        IF n.good IS FALSE AND v_streak >= p_broken_after AND v_broken IS NULL THEN
            UPDATE hunter_sources SET broken_at = p_now WHERE name = n.name;
            v_notice := n.broken_notice;
        ELSIF n.good AND v_broken IS NOT NULL THEN
            UPDATE hunter_sources SET broken_at = NULL WHERE name = n.name;
            v_notice := n.recovered_notice;
        END IF;
        IF v_notice IS NOT NULL THEN
            INSERT INTO hunter_seen_jobs
                (job_id, source, status, listing, first_seen_at, last_seen_at)
            VALUES (v_notice->>'job_id', 'hunter', 'pending', v_notice->'listing', p_now, p_now)
            ON CONFLICT (job_id) DO NOTHING;
            v_told := true;
        END IF;
        IF v_told THEN
            source := n.name;
            RETURN NEXT;
        END IF;
    END LOOP;
END $$;

-- Claim the reads of due sources: a JSON array of {name, seen}, `seen` the not_before the
-- caller read (null: never set). A source whose not_before is still what the caller saw is
-- held until p_until (the read's deadline; the read's note then sets its next read); one
-- another replica claimed first, or whose note moved it, is not. Returns the names claimed.
CREATE OR REPLACE FUNCTION hunter_claim_reads(p_claims jsonb, p_until timestamptz)
RETURNS TABLE (source text)
LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    FOR c IN
        SELECT * FROM jsonb_to_recordset(p_claims) AS x(name text, seen timestamptz)
        ORDER BY name  -- rows locked in name order, as every function here locks sources
    LOOP
        INSERT INTO hunter_sources (name) VALUES (c.name) ON CONFLICT (name) DO NOTHING;
        UPDATE hunter_sources s SET not_before = p_until
        WHERE s.name = c.name AND s.not_before IS NOT DISTINCT FROM c.seen;
        IF FOUND THEN
            source := c.name;
            RETURN NEXT;
        END IF;
    END LOOP;
END $$;

-- A `run --once` began at p_now: keep the last p_keep such times (epoch seconds, space
-- separated, in hunter_meta) and answer them, oldest first, for the cron's gap.
CREATE OR REPLACE FUNCTION hunter_tick(p_now timestamptz, p_keep integer)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_ticks text;
BEGIN
    INSERT INTO hunter_meta AS m (key, value)
    VALUES ('run_ticks', extract(epoch FROM p_now)::bigint::text)
    ON CONFLICT (key) DO UPDATE SET value = (
        SELECT string_agg(t, ' ' ORDER BY t::bigint)
        FROM (SELECT t FROM unnest(string_to_array(m.value || ' ' || excluded.value, ' ')) t
              WHERE t ~ '^[0-9]+$'
              ORDER BY t::bigint DESC LIMIT p_keep) kept)
    RETURNING m.value INTO v_ticks;
    RETURN v_ticks;
END $$;

-- The rows with their schedule (a new function, as version 9's: see there why). Version 9's
-- stays: during a deploy the old hunter still runs beside the new one and reads through it.
CREATE OR REPLACE FUNCTION hunter_source_rows()
RETURNS TABLE (name text, primed_at timestamptz, last_poll_at timestamptz,
               last_ok_at timestamptz, last_count integer, last_error text,
               last_good_at timestamptz, fail_streak integer, broken_at timestamptz, etag text,
               last_modified text, validated_url text, not_before timestamptz, shape jsonb,
               shape_version integer, cadence jsonb, read_reason text)
LANGUAGE sql STABLE AS $$
    SELECT s.name, s.primed_at, s.last_poll_at, s.last_ok_at, s.last_count, s.last_error,
           s.last_good_at, s.fail_streak, s.broken_at, s.etag, s.last_modified,
           s.validated_url, s.not_before, s.shape, s.shape_version, s.cadence, s.read_reason
    FROM hunter_sources s ORDER BY s.name;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '13')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 13;
