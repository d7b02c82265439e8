-- The outbox: listings recorded, claimed in batches, marked sent or failed, pruned
-- (hunter/store/outbox.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- Each of these took rows by a subquery of job ids alone, which now names a listing's row in
-- every chat: they take rows by listing and chat.
CREATE OR REPLACE FUNCTION public.hunter_claim_chat(p_worker text, p_key text, p_limit integer, p_now timestamp with time zone, p_chat text)
 RETURNS SETOF hunter_seen_jobs
 LANGUAGE sql
AS $function$
    UPDATE hunter_seen_jobs j
    SET status = 'sending', claimed_by = p_worker, claimed_at = p_now, retry_key = p_key,
        retry_key_at = p_now, next_attempt_at = NULL, attempts = 0
    WHERE (j.job_id, j.chat) IN (
        SELECT k.job_id, k.chat FROM hunter_seen_jobs k WHERE k.status = 'pending' AND k.chat = p_chat
        ORDER BY k.first_seen_at, k.job_id, k.chat LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING j.*;
$function$;

-- Claim one existing batch, whole, keeping its retry key: a retry that is due, a parked batch
-- whose probe is due, or a batch whose sender's lease expired (it died mid-push).
CREATE OR REPLACE FUNCTION hunter_claim_due(p_worker text, p_now timestamptz,
                                            p_lease_before timestamptz)
RETURNS SETOF hunter_seen_jobs
LANGUAGE plpgsql AS $$
DECLARE
    v_key text;
BEGIN
    FOR v_key IN
        SELECT k.retry_key FROM hunter_seen_jobs k
        WHERE k.retry_key IS NOT NULL AND (
              (k.status = 'retry' AND k.next_attempt_at <= p_now)
           OR (k.status = 'stuck' AND k.error_kind = 'transient' AND k.next_attempt_at <= p_now)
           OR (k.status = 'sending' AND k.claimed_at < p_lease_before))
        GROUP BY k.retry_key
        ORDER BY bool_or(k.status = 'stuck'), min(coalesce(k.next_attempt_at, k.claimed_at))
        LIMIT 20
    LOOP
        -- The key, not a row, is the unit of ownership: whoever holds this lock owns the batch.
        CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext('hunter_batch:' || v_key));
        PERFORM 1 FROM hunter_seen_jobs
        WHERE retry_key = v_key AND status IN ('sending', 'retry', 'stuck')
        ORDER BY job_id FOR UPDATE;  -- in id order, like every other writer of these rows
        RETURN QUERY
        UPDATE hunter_seen_jobs j
        SET status = 'sending', claimed_by = p_worker, claimed_at = p_now
        WHERE j.retry_key = v_key AND (
              (j.status = 'retry' AND j.next_attempt_at <= p_now)
           OR (j.status = 'stuck' AND j.error_kind = 'transient' AND j.next_attempt_at <= p_now)
           OR (j.status = 'sending' AND j.claimed_at < p_lease_before))
        RETURNING j.*;
        IF FOUND THEN
            RETURN;
        END IF;
    END LOOP;
END $$;

-- Take the daily prune if the last one (by anyone) is older than p_every. True: prune now.
CREATE OR REPLACE FUNCTION hunter_claim_prune(p_now timestamptz, p_every interval)
RETURNS boolean
LANGUAGE sql AS $$
    WITH taken AS (
        INSERT INTO hunter_meta AS m (key, value) VALUES ('last_prune_at', p_now::text)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        WHERE m.value::timestamptz <= p_now - p_every
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM taken);
$$;

-- As before, under the new key.
CREATE OR REPLACE FUNCTION public.hunter_enqueue(p_job_id text, p_listing jsonb, p_now timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
AS $function$
    WITH queued AS (
        INSERT INTO hunter_seen_jobs (job_id, source, status, listing, first_seen_at,
                                      last_seen_at)
        VALUES (p_job_id, 'hunter', 'pending', p_listing, p_now, p_now)
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM queued);
$function$;

-- A notice of hunter's own for one chat (a subscriber let in is told so in its own chat).
CREATE OR REPLACE FUNCTION hunter_enqueue_for(
    p_chat text, p_job_id text, p_listing jsonb, p_now timestamptz
)
RETURNS boolean
LANGUAGE sql AS $$
    WITH queued AS (
        INSERT INTO hunter_seen_jobs (job_id, chat, source, status, listing, first_seen_at,
                                      last_seen_at)
        VALUES (p_job_id, p_chat, 'hunter', 'pending', p_listing, p_now, p_now)
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM queued);
$$;

-- A push failed: the rows of the batch take the state the policy decided. Only the batch's
-- current owner may do this (a worker whose lease expired has lost it).
CREATE OR REPLACE FUNCTION hunter_mark_failed(p_key text, p_worker text, p_status text,
                                              p_error_kind text, p_error text,
                                              p_next_at timestamptz, p_count_attempt boolean)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs
    SET status = p_status, error_kind = p_error_kind, last_error = p_error,
        next_attempt_at = p_next_at, claimed_by = NULL,
        attempts = attempts + CASE WHEN p_count_attempt THEN 1 ELSE 0 END,
        retry_key = CASE WHEN p_status = 'pending' THEN NULL ELSE retry_key END
    WHERE retry_key = p_key AND status = 'sending' AND claimed_by = p_worker;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF p_status = 'pending' AND v_rows > 0 THEN  -- the key is given up: LINE never took it
        DELETE FROM hunter_batches WHERE retry_key = p_key;
    END IF;
    RETURN v_rows;
END $$;

CREATE OR REPLACE FUNCTION hunter_mark_sent(p_key text, p_now timestamptz, p_ref text DEFAULT NULL)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_requeued integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs
    SET status = 'sent', sent_at = p_now, claimed_by = NULL, next_attempt_at = NULL,
        error_kind = NULL, last_error = NULL, sent_ref = p_ref
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck');
    DELETE FROM hunter_batches WHERE retry_key = p_key;
    -- In id order, skipping rows another success is re-queueing right now: no lock cycle.
    UPDATE hunter_seen_jobs j
    SET status = 'retry', attempts = 0, next_attempt_at = p_now
    WHERE (j.job_id, j.chat) IN (
        SELECT k.job_id, k.chat FROM hunter_seen_jobs k
        WHERE k.status = 'stuck' AND k.error_kind = 'transient'
        ORDER BY k.job_id, k.chat FOR UPDATE SKIP LOCKED);
    GET DIAGNOSTICS v_requeued = ROW_COUNT;
    RETURN v_requeued;
END $$;

CREATE OR REPLACE FUNCTION public.hunter_prune(p_before timestamp with time zone, p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_rows integer;
BEGIN
    DELETE FROM hunter_seen_jobs WHERE (job_id, chat) IN (
        SELECT job_id, chat FROM hunter_seen_jobs
        WHERE status IN ('primed', 'ignored', 'sent') AND last_seen_at < p_before
        LIMIT p_limit);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM hunter_batches b WHERE b.created_at < p_before AND NOT EXISTS (
        SELECT 1 FROM hunter_seen_jobs j
        WHERE j.retry_key = b.retry_key AND j.status IN ('sending', 'retry', 'stuck'));
    RETURN v_rows;
END $function$;

-- A chat's row of a new listing may come as its keywords alone:
-- the listing is the one it belongs to with the keywords that chat matched. 50
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
    v_unsent bigint := 0;
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
        -- A push whose delivery is unknown may have reached the chat: `hunter retry` decides
        WHERE (j.status IN ('pending', 'retry')
               OR (j.status = 'stuck' AND j.error_kind IS DISTINCT FROM 'unknown'))
          AND j.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e);
        GET DIAGNOSTICS v_unsent = ROW_COUNT;  -- waiting alerts a person's prime dropped: said
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
    SELECT 'flood', v_new WHERE v_flood
    UNION ALL
    SELECT 'unsent', v_unsent WHERE v_unsent > 0;
END $function$;

-- A person sends stuck rows again (all of them when p_ids is null). Returns their ids.
CREATE OR REPLACE FUNCTION hunter_retry_stuck(p_ids text[])
RETURNS TABLE (job_id text)
LANGUAGE sql AS $$
    UPDATE hunter_seen_jobs j
    SET status = 'pending', attempts = 0, retry_key = NULL, retry_key_at = NULL,
        next_attempt_at = NULL, error_kind = NULL, last_error = NULL, claimed_by = NULL
    WHERE j.status = 'stuck' AND (p_ids IS NULL OR j.job_id = ANY (p_ids))
    RETURNING j.job_id;
$$;

CREATE OR REPLACE FUNCTION hunter_save_batch(p_key text, p_body text, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_batches (retry_key, body, created_at) VALUES (p_key, p_body, p_now)
    ON CONFLICT (retry_key) DO NOTHING;
$$;

-- Split a batch LINE rejected (400) into smaller batches, each under a new key, due now.
CREATE OR REPLACE FUNCTION hunter_split(p_key text, p_worker text, p_groups jsonb,
                                        p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs j
    SET retry_key = g.new_key, retry_key_at = p_now, status = 'retry', next_attempt_at = p_now,
        claimed_by = NULL
    FROM (SELECT e->>'key' AS new_key, jsonb_array_elements_text(e->'ids') AS id
          FROM jsonb_array_elements(p_groups) e) g
    WHERE j.job_id = g.id AND j.retry_key = p_key AND j.status = 'sending'
      AND j.claimed_by = p_worker;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM hunter_batches WHERE retry_key = p_key AND v_rows > 0;
    RETURN v_rows;
END $$;
