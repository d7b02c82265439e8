-- hunter schema, version 14: a burst is delivered, a flood is a board that renumbered (issue
-- 45). More new listings than p_flood in one read were all recorded silently, so a cron run
-- that came late after 31 new listings sent none of them. Now they are a flood only when
-- none of the listings the read shows was seen before: what was seen is gone from the page,
-- as when a board renumbers or a source's url changes. New listings above ones still there
-- are a burst, and go out as usual (the pace and a digest carry them). The poller passes
-- p_flood = 0 when the listings' posted times say they are new (a burst larger than a page).

-- As in version 5, with that condition.
CREATE OR REPLACE FUNCTION hunter_record(p_source text, p_jobs jsonb, p_now timestamptz,
                                         p_prime boolean, p_flood integer DEFAULT 0,
                                         p_notice jsonb DEFAULT NULL)
RETURNS TABLE (status text, n bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_primed boolean;
    v_new    bigint;
    v_shown  bigint;
    v_flood  boolean := false;
BEGIN
    INSERT INTO hunter_sources (name) VALUES (p_source) ON CONFLICT (name) DO NOTHING;
    SELECT s.primed_at IS NOT NULL INTO v_primed FROM hunter_sources s
    WHERE s.name = p_source FOR UPDATE;
    v_primed := v_primed AND NOT p_prime;

    UPDATE hunter_seen_jobs j SET last_seen_at = p_now
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k
        WHERE k.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e)
        ORDER BY k.job_id FOR UPDATE SKIP LOCKED);

    IF p_prime THEN
        UPDATE hunter_seen_jobs j
        SET status = 'primed', retry_key = NULL, claimed_by = NULL, error_kind = NULL,
            last_error = NULL, next_attempt_at = NULL
        WHERE j.status IN ('pending', 'retry', 'stuck')
          AND j.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e);
    END IF;

    IF v_primed AND p_flood > 0 AND p_notice IS NOT NULL THEN
        SELECT count(DISTINCT e->>'job_id') FILTER (WHERE NOT EXISTS (
                   SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = e->>'job_id')),
               count(DISTINCT e->>'job_id')
        INTO v_new, v_shown FROM jsonb_array_elements(p_jobs) e;
        IF v_new > p_flood AND v_new = v_shown THEN
            v_flood := true;
            INSERT INTO hunter_seen_jobs
                (job_id, source, status, listing, first_seen_at, last_seen_at)
            SELECT p_notice->>'job_id', 'hunter', 'pending',
                   jsonb_set(p_notice->'listing', '{title}', to_jsonb(format(
                       p_notice->'listing'->>'title', v_new))),
                   p_now, p_now
            ON CONFLICT (job_id) DO NOTHING;
        END IF;
    END IF;

    IF p_prime OR jsonb_array_length(p_jobs) > 0 THEN
        UPDATE hunter_sources SET primed_at = coalesce(primed_at, p_now) WHERE name = p_source;
    END IF;

    RETURN QUERY
    WITH fresh AS (
        SELECT e FROM jsonb_array_elements(p_jobs) e
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs k WHERE k.job_id = e->>'job_id')
    ),
    inserted AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at)
        SELECT f.e->>'job_id', p_source,
               CASE WHEN NOT v_primed OR v_flood THEN 'primed'
                    WHEN (f.e->>'matched')::boolean THEN 'pending'
                    ELSE 'ignored' END,
               f.e->'listing', p_now, p_now
        FROM fresh f
        ORDER BY f.e->>'job_id'
        ON CONFLICT (job_id) DO NOTHING
        RETURNING j.job_id, j.status),
    for_chats AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at, chat)
        SELECT (f.e->>'job_id') || '#' || (c->>'chat'), p_source, 'pending', c->'listing',
               p_now, p_now, c->>'chat'
        FROM fresh f
        JOIN inserted i ON i.job_id = f.e->>'job_id'
        CROSS JOIN LATERAL jsonb_array_elements(coalesce(f.e->'chats', '[]'::jsonb)) c
        WHERE v_primed AND NOT v_flood
        ORDER BY 1
        ON CONFLICT (job_id) DO NOTHING
        RETURNING j.status)
    SELECT i.status, count(*) FROM inserted i GROUP BY i.status
    UNION ALL
    SELECT 'chats', count(*) FROM for_chats HAVING count(*) > 0
    UNION ALL
    SELECT 'flood', v_new WHERE v_flood;
END $$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '14')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 14;
