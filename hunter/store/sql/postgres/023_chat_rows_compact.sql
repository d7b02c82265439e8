-- hunter schema, version 23: a chat's row of a new listing may come as its keywords alone
-- (issue 42): the listing is the one it belongs to with the keywords that chat matched. 50
-- listings for 10,000 subscribers are 54,000 rows; each with its whole listing the record's
-- document was 40 MB of JSON (over HTTPS to Supabase, and held in memory on both sides). A
-- row with its whole `listing` is still read as before (an older hunter during a deploy).
-- And each job's parts are read from its element once: a job of 1,000 chats was read whole
-- for each of its rows (10,000 subscribers' second read of 50 listings took over 7 minutes).
CREATE OR REPLACE FUNCTION public.hunter_record(p_source text, p_jobs jsonb, p_now timestamp with time zone, p_prime boolean, p_flood integer DEFAULT 0, p_notice jsonb DEFAULT NULL::jsonb)
 RETURNS TABLE(status text, n bigint)
 LANGUAGE plpgsql
AS $function$
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
    WHERE (j.job_id, j.chat) IN (
        SELECT k.job_id, k.chat FROM hunter_seen_jobs k
        WHERE k.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e)
        ORDER BY k.job_id, k.chat FOR UPDATE SKIP LOCKED);

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
            ON CONFLICT (job_id, chat) DO NOTHING;
        END IF;
    END IF;

    IF p_prime OR jsonb_array_length(p_jobs) > 0 THEN
        UPDATE hunter_sources SET primed_at = coalesce(primed_at, p_now) WHERE name = p_source;
    END IF;

    RETURN QUERY
    WITH fresh AS (
        -- Each job's parts as columns: read from the whole element once, not again for each
        -- of its chats' rows (a job of 1,000 chats read whole 1,000 times was minutes).
        SELECT e->>'job_id' AS job_id, (e->>'matched')::boolean AS matched,
               e->'listing' AS listing, e->'chats' AS chats
        FROM jsonb_array_elements(p_jobs) e
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs k WHERE k.job_id = e->>'job_id')
    ),
    inserted AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at)
        SELECT f.job_id, p_source,
               CASE WHEN NOT v_primed OR v_flood THEN 'primed'
                    WHEN f.matched THEN 'pending'
                    ELSE 'ignored' END,
               f.listing, p_now, p_now
        FROM fresh f
        ORDER BY f.job_id
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING j.job_id, j.status),
    for_chats AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at, chat)
        SELECT f.job_id, p_source, 'pending',
               coalesce(c->'listing', jsonb_set(f.listing, '{keywords}',
                                                coalesce(c->'keywords', '[]'::jsonb))),
               p_now, p_now, c->>'chat'
        FROM fresh f
        JOIN inserted i ON i.job_id = f.job_id
        CROSS JOIN LATERAL jsonb_array_elements(coalesce(f.chats, '[]'::jsonb)) c
        WHERE v_primed AND NOT v_flood
        ORDER BY 1, 7
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING j.status)
    SELECT i.status, count(*) FROM inserted i GROUP BY i.status
    UNION ALL
    SELECT 'chats', count(*) FROM for_chats HAVING count(*) > 0
    UNION ALL
    SELECT 'flood', v_new WHERE v_flood;
END $function$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '23')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 23;
