-- hunter schema, version 15: a row belongs to its chat by a key of listing and chat (issue 45).
-- A chat's row was the listing's id spelled "<id>#<chat>", inserted with ON CONFLICT DO
-- NOTHING: a board id "7#team" then "7" (or the other way round) was one row for two
-- listings, and one of them reached neither the owner nor team. The primary key is now
-- (job_id, chat), every row's job_id its listing's own, and what ended in "#<its chat>" loses
-- it. Marks (dismissed, applied) are kept by listing and chat too. The functions that wrote
-- rows under the spelled id, or named the old key in ON CONFLICT, are replaced as they were
-- but for that; a release before this one, still running beside it during a deploy, calls
-- them by the same names and arguments.

-- Once: `hunter schema` (Supabase's SQL editor) runs every migration again, and a second pass
-- would cut "#<chat>" off a board's own id.
ALTER TABLE hunter_marks ADD COLUMN IF NOT EXISTS chat text NOT NULL DEFAULT '';

DO $$
BEGIN
    IF (SELECT value::integer FROM hunter_meta WHERE key = 'schema_version') >= 15 THEN
        RETURN;
    END IF;
    ALTER TABLE hunter_seen_jobs DROP CONSTRAINT hunter_seen_jobs_pkey;
    UPDATE hunter_seen_jobs
    SET job_id = left(job_id, length(job_id) - length(chat) - 1)
    WHERE chat <> '' AND right(job_id, length(chat) + 1) = '#' || chat;
    ALTER TABLE hunter_seen_jobs
        ADD CONSTRAINT hunter_seen_jobs_pkey PRIMARY KEY (job_id, chat);

    -- A mark of a chat's row was kept under its spelled id: its chat is the one whose name
    -- ends it.
    ALTER TABLE hunter_marks DROP CONSTRAINT hunter_marks_pkey;
    UPDATE hunter_marks m
    SET chat = c.chat, job_id = left(m.job_id, length(m.job_id) - length(c.chat) - 1)
    FROM (SELECT DISTINCT ON (k.job_id) k.job_id, s.chat
          FROM hunter_marks k
          JOIN (SELECT DISTINCT chat FROM hunter_seen_jobs WHERE chat <> '') s
            ON right(k.job_id, length(s.chat) + 1) = '#' || s.chat
          ORDER BY k.job_id, length(s.chat) DESC) c
    WHERE m.job_id = c.job_id AND m.chat = '';
    ALTER TABLE hunter_marks ADD CONSTRAINT hunter_marks_pkey PRIMARY KEY (job_id, chat);
END $$;


-- As in version 14, each chat's row under the listing's own id.
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
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING j.job_id, j.status),
    for_chats AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at, chat)
        SELECT f.e->>'job_id', p_source, 'pending', c->'listing',
               p_now, p_now, c->>'chat'
        FROM fresh f
        JOIN inserted i ON i.job_id = f.e->>'job_id'
        CROSS JOIN LATERAL jsonb_array_elements(coalesce(f.e->'chats', '[]'::jsonb)) c
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

-- A release before 11's (the owner's rows only), under the new key.
CREATE OR REPLACE FUNCTION public.hunter_mark(p_job_id text, p_mark text, p_now timestamp with time zone)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_listing jsonb;
BEGIN
    SELECT j.listing INTO v_listing FROM hunter_seen_jobs j
    WHERE j.job_id = p_job_id AND j.chat = '';
    IF v_listing IS NULL THEN
        RETURN NULL;
    END IF;
    IF p_mark = 'dismissed' THEN
        UPDATE hunter_seen_jobs
        SET status = 'ignored', retry_key = NULL, claimed_by = NULL, next_attempt_at = NULL,
            error_kind = NULL, last_error = NULL
        WHERE job_id = p_job_id AND chat = '' AND status IN ('pending', 'retry', 'stuck');
    END IF;
    INSERT INTO hunter_marks (job_id, mark, listing, marked_at)
    VALUES (p_job_id, p_mark, v_listing, p_now)
    ON CONFLICT (job_id, chat) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at;
    RETURN coalesce(v_listing->>'title', '');
END $function$;

-- A mark is the chat's own.
CREATE OR REPLACE FUNCTION public.hunter_mark_in_chat(p_job_id text, p_chat text, p_mark text, p_now timestamp with time zone)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_listing jsonb;
BEGIN
    SELECT j.listing INTO v_listing FROM hunter_seen_jobs j
    WHERE j.job_id = p_job_id AND j.chat = p_chat;
    IF v_listing IS NULL THEN
        RETURN NULL;
    END IF;
    IF p_mark = 'dismissed' THEN
        UPDATE hunter_seen_jobs
        SET status = 'ignored', retry_key = NULL, claimed_by = NULL, next_attempt_at = NULL,
            error_kind = NULL, last_error = NULL
        WHERE job_id = p_job_id AND chat = p_chat AND status IN ('pending', 'retry', 'stuck');
    END IF;
    INSERT INTO hunter_marks (job_id, chat, mark, listing, marked_at)
    VALUES (p_job_id, p_chat, p_mark, v_listing, p_now)
    ON CONFLICT (job_id, chat) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at;
    RETURN coalesce(v_listing->>'title', '');
END $function$;

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

CREATE OR REPLACE FUNCTION public.hunter_claim_new(p_worker text, p_key text, p_limit integer, p_now timestamp with time zone)
 RETURNS SETOF hunter_seen_jobs
 LANGUAGE sql
AS $function$
    UPDATE hunter_seen_jobs j
    SET status = 'sending', claimed_by = p_worker, claimed_at = p_now, retry_key = p_key,
        retry_key_at = p_now, next_attempt_at = NULL, attempts = 0
    WHERE (j.job_id, j.chat) IN (
        SELECT k.job_id, k.chat FROM hunter_seen_jobs k WHERE k.status = 'pending'
        ORDER BY k.first_seen_at, k.job_id, k.chat LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING j.*;
$function$;

CREATE OR REPLACE FUNCTION public.hunter_mark_sent(p_key text, p_now timestamp with time zone)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_requeued integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs
    SET status = 'sent', sent_at = p_now, claimed_by = NULL, next_attempt_at = NULL,
        error_kind = NULL, last_error = NULL
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
END $function$;

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

-- Each mark with its chat (hunter_marks_rows stays as it was, for the release before; a new
-- name, since `hunter schema` pasted again re-creates the old one as it was).
CREATE OR REPLACE FUNCTION hunter_chat_marks_rows(p_mark text)
RETURNS TABLE (job_id text, chat text, mark text, listing jsonb, marked_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT k.job_id, k.chat, k.mark, k.listing, k.marked_at FROM hunter_marks k
    WHERE k.mark = p_mark ORDER BY k.marked_at DESC, k.job_id, k.chat;
$$;

-- The state of each of one chat's rows, by listing id (a listing has a row in each chat).
CREATE OR REPLACE FUNCTION hunter_chat_job_states(p_chat text)
RETURNS TABLE (job_id text, status text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status FROM hunter_seen_jobs j WHERE j.chat = p_chat ORDER BY j.job_id;
$$;

-- As in version 8, in the order of listing and chat.
CREATE OR REPLACE FUNCTION hunter_find_listing(p_ids text[], p_url text)
RETURNS TABLE (job_id text, chat text, status text, listing jsonb,
               first_seen_at timestamptz, sent_at timestamptz, last_error text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.chat, j.status, j.listing, j.first_seen_at, j.sent_at, j.last_error
    FROM hunter_seen_jobs j
    WHERE j.job_id = ANY (p_ids) OR (p_url IS NOT NULL AND j.listing->>'url' = p_url)
    ORDER BY j.job_id, j.chat LIMIT 20;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '15')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 15;
