-- Functions no code of this hunter calls. A hunter of an older release, still running beside
-- this one during a deploy, may; a numbered migration drops one when no release that calls it
-- can still be running.
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

CREATE OR REPLACE FUNCTION hunter_chat_mutes(p_now timestamptz)
RETURNS TABLE (chat text, word text, until timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT m.chat, m.word, m.until FROM hunter_chat_mutes m WHERE m.until > p_now
    ORDER BY m.chat, m.word;
$$;

-- True for exactly one caller per event id; events older than a week are forgotten (LINE
-- redelivers for a much shorter time than that).
CREATE OR REPLACE FUNCTION hunter_claim_event(p_event_id text, p_now timestamptz)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    DELETE FROM hunter_events WHERE received_at < p_now - interval '7 days';
    INSERT INTO hunter_events (event_id, received_at) VALUES (p_event_id, p_now)
    ON CONFLICT (event_id) DO NOTHING;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows > 0;
END $$;

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

CREATE OR REPLACE FUNCTION hunter_count_pending()
RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM hunter_seen_jobs WHERE status = 'pending';
$$;

CREATE OR REPLACE FUNCTION hunter_job_states()
RETURNS TABLE (job_id text, status text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status FROM hunter_seen_jobs j ORDER BY j.job_id;
$$;

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

CREATE OR REPLACE FUNCTION hunter_marks_rows(p_mark text)
RETURNS TABLE (job_id text, mark text, listing jsonb, marked_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT k.job_id, k.mark, k.listing, k.marked_at FROM hunter_marks k
    WHERE k.mark = p_mark ORDER BY k.marked_at DESC, k.job_id;
$$;

CREATE OR REPLACE FUNCTION hunter_mute(p_word text, p_until timestamptz, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_mutes (word, until, muted_at) VALUES (p_word, p_until, p_now)
    ON CONFLICT (word) DO UPDATE SET until = excluded.until, muted_at = excluded.muted_at;
$$;

CREATE OR REPLACE FUNCTION hunter_mutes_rows(p_now timestamptz)
RETURNS TABLE (word text, until timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT m.word, m.until FROM hunter_mutes m WHERE m.until > p_now ORDER BY m.word;
$$;

CREATE OR REPLACE FUNCTION hunter_outbox_rows(p_limit integer)
RETURNS TABLE (job_id text, status text, listing jsonb, attempts integer,
               next_attempt_at timestamptz, claimed_by text, claimed_at timestamptz,
               error_kind text, last_error text, first_seen_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status, j.listing, j.attempts, j.next_attempt_at, j.claimed_by,
           j.claimed_at, j.error_kind, j.last_error, j.first_seen_at
    FROM hunter_seen_jobs j WHERE j.status IN ('sending', 'retry', 'stuck')
    ORDER BY j.status, j.first_seen_at, j.job_id LIMIT p_limit;
$$;

-- The status's 7 days summed by the store. The history
-- read the newest 20,000 reads and summed them in Python: with 200 sources read every 30
-- minutes that is two days, so the 7-day chart showed [0,0,0,0,5,18,4] for a true
-- [13,10,7,11,7,18,4] and lost the older failed reads. The days are the user's (the caller
-- gives each day's [start, end) in time, which knows its zone's summer time).
CREATE OR REPLACE FUNCTION hunter_reads_by_day(p_days text)
RETURNS TABLE (source text, day integer, new bigint, matching bigint, failed bigint,
               reads bigint)
LANGUAGE sql STABLE AS $$
    SELECT r.source, (d.n - 1)::integer, sum(r.new), sum(r.matching), count(r.error), count(*)
    FROM jsonb_array_elements(p_days::jsonb) WITH ORDINALITY AS d(span, n)
    JOIN hunter_reads r ON r.read_at >= (d.span->>0)::timestamptz
                       AND r.read_at < (d.span->>1)::timestamptz
    GROUP BY r.source, d.n ORDER BY r.source, d.n;
$$;

-- The listings sent last, newest first: what "งานใหม่" shows when nothing waits.
CREATE OR REPLACE FUNCTION hunter_recent_sent(p_limit integer)
RETURNS TABLE (job_id text, listing jsonb, sent_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing, j.sent_at FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.source <> 'hunter'
    ORDER BY j.sent_at DESC, j.job_id LIMIT p_limit;
$$;

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

CREATE OR REPLACE FUNCTION hunter_subscriber_row(p_chat text)
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at FROM hunter_subscribers s
    WHERE s.chat = p_chat AND s.status <> 'left';
$$;

CREATE OR REPLACE FUNCTION hunter_tune_word(p_chat text, p_word text, p_op text,
                                            p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_tuning (chat, word, op, changed_at) VALUES (p_chat, p_word, p_op, p_now)
    ON CONFLICT (chat, word) DO UPDATE SET op = excluded.op, changed_at = excluded.changed_at;
$$;

CREATE OR REPLACE FUNCTION hunter_unmute(p_word text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    DELETE FROM hunter_mutes WHERE word = p_word;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END $$;
