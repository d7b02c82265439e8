-- The sources: their notes after each read, the leases that share them among replicas, the
-- cron's ticks (hunter/store/sources.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

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

-- share_sources: of these sources, the ones this worker polls now. A source is leased to one
-- replica per interval; a dead replica's lease simply runs out. Returns the names leased.
CREATE OR REPLACE FUNCTION hunter_lease_sources(p_names text[], p_worker text,
                                                p_now timestamptz, p_until timestamptz)
RETURNS TABLE (source text)
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO hunter_sources (name) SELECT n FROM unnest(p_names) n ORDER BY n
    ON CONFLICT (name) DO NOTHING;
    RETURN QUERY  -- rows locked in name order, as every function here locks sources
    UPDATE hunter_sources s SET lease_owner = p_worker, lease_until = p_until
    WHERE s.name IN (SELECT k.name FROM hunter_sources k WHERE k.name = ANY (p_names)
                     ORDER BY k.name FOR UPDATE)
      AND (s.lease_until IS NULL OR s.lease_until <= p_now OR s.lease_owner = p_worker)
    RETURNING s.name;
END $$;

-- A poll's notes of its sources and its reads kept for the history, in one round trip.
-- The history is for people to look at: a database that refuses it (in a
-- subtransaction of its own) fails no note, as the two calls did apart.
CREATE OR REPLACE FUNCTION hunter_note_reads(
    p_notes jsonb, p_now timestamptz, p_broken_after integer, p_reads jsonb
)
RETURNS TABLE (source text) LANGUAGE plpgsql AS $$
BEGIN
    IF jsonb_array_length(coalesce(p_reads, '[]'::jsonb)) > 0 THEN
        BEGIN
            PERFORM hunter_keep_reads(p_reads);
        EXCEPTION WHEN OTHERS THEN
            RAISE WARNING 'the reads of this poll were not kept for the history: %', SQLERRM;
        END;
    END IF;
    RETURN QUERY SELECT n.source FROM hunter_note_sources(p_notes, p_now, p_broken_after) n;
END $$;

-- As before, under the new key.
CREATE OR REPLACE FUNCTION public.hunter_note_sources(p_notes jsonb, p_now timestamp with time zone, p_broken_after integer)
 RETURNS TABLE(source text)
 LANGUAGE plpgsql
AS $function$
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
                ON CONFLICT (job_id, chat) DO NOTHING;
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
            ON CONFLICT (job_id, chat) DO NOTHING;
            v_told := true;
        END IF;
        IF v_told THEN
            source := n.name;
            RETURN NEXT;
        END IF;
    END LOOP;
END $function$;

-- A cron run's look, in one round trip: the run's time kept with the last ones,
-- every source's row, whether anything in the outbox may be claimed and when the next retry
-- is due, and the daily prune's claim. A run with nothing due costs this call and the store's
-- opening, where it cost five; the functions it calls are the ones a run called one by one.
CREATE OR REPLACE FUNCTION hunter_poll_look(
    p_now timestamptz, p_keep integer, p_lease_before timestamptz, p_prune_every interval
)
RETURNS TABLE (look_ticks text, look_sources jsonb, look_claimable boolean,
               look_next_due timestamptz, look_prune boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_ticks text := hunter_tick(p_now, p_keep);
    v_prune boolean := hunter_claim_prune(p_now, p_prune_every);
BEGIN
    RETURN QUERY
    SELECT v_ticks,
           coalesce((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.name) FROM hunter_source_rows() r),
                    '[]'::jsonb),
           l.claimable, l.next_due, v_prune
    FROM hunter_outbox_look(p_now, p_lease_before) l;
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
