-- hunter schema, version 9: each source's shape (issue 27). A board can rename a field and
-- nothing fails: its listings come without their pay, or their link. hunter keeps, per source,
-- how often each field it reads is present (hunter/rules/shape.py decides what is gone), and
-- tells the owner once when one that was there is no longer found, and once when it is back.
-- The poll writes the shape it computed from the version it read, only if the row still holds
-- that version: two replicas polling one source at once never tell one change twice.

ALTER TABLE hunter_sources ADD COLUMN IF NOT EXISTS shape jsonb;
ALTER TABLE hunter_sources ADD COLUMN IF NOT EXISTS shape_version integer NOT NULL DEFAULT 0;

-- As in version 1, and each note's shape with its notices.
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
            shape jsonb, shape_version integer, shape_notices jsonb)
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
            not_before = n.not_before
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

-- The rows with their shape. A new function, not version 1's made anew: a paste of the whole
-- schema runs version 1 again, and it could not replace a function whose answer has changed.
DROP FUNCTION IF EXISTS hunter_sources_rows();
CREATE OR REPLACE FUNCTION hunter_sources_all()
RETURNS TABLE (name text, primed_at timestamptz, last_poll_at timestamptz,
               last_ok_at timestamptz, last_count integer, last_error text,
               last_good_at timestamptz, fail_streak integer, broken_at timestamptz, etag text,
               last_modified text, validated_url text, not_before timestamptz, shape jsonb,
               shape_version integer)
LANGUAGE sql STABLE AS $$
    SELECT s.name, s.primed_at, s.last_poll_at, s.last_ok_at, s.last_count, s.last_error,
           s.last_good_at, s.fail_streak, s.broken_at, s.etag, s.last_modified,
           s.validated_url, s.not_before, s.shape, s.shape_version
    FROM hunter_sources s ORDER BY s.name;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '9')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 9;
