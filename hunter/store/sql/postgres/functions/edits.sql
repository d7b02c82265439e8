-- The edits of alerts sent: a later copy of the job named on the first alert
-- (hunter/store/edits.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- The copies a read merged, each into the row of its first copy for a chat: [{"chat",
-- "first_id", "source", "url"}]. A pair already there is not added twice, a row keeps the
-- first 10, and its edit is due now (a claim in progress no longer holds it: its edit began
-- before this copy).
CREATE OR REPLACE FUNCTION hunter_also(p_merged jsonb, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_n integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs j
    WHERE (j.job_id, j.chat) IN (
        SELECT m->>'first_id', m->>'chat' FROM jsonb_array_elements(p_merged) m)
    ORDER BY j.job_id, j.chat FOR UPDATE;  -- in key order, as every writer of these rows
    WITH merged AS (
        SELECT m->>'chat' AS chat, m->>'first_id' AS first_id,
               jsonb_agg(jsonb_build_array(m->>'source', m->>'url') ORDER BY o) AS pairs
        FROM jsonb_array_elements(p_merged) WITH ORDINALITY AS e(m, o)
        GROUP BY 1, 2)
    UPDATE hunter_seen_jobs j
    SET also = (
            SELECT jsonb_agg(kept.x ORDER BY kept.n) FROM (
                SELECT e.x, min(e.n) AS n
                FROM jsonb_array_elements(coalesce(j.also, '[]'::jsonb) || merged.pairs)
                     WITH ORDINALITY AS e(x, n)
                GROUP BY e.x ORDER BY min(e.n) LIMIT 10) kept),
        edit_due_at = p_now, edit_claimed_at = NULL
    FROM merged
    WHERE j.job_id = merged.first_id AND j.chat = merged.chat
      AND NOT coalesce(j.also, '[]'::jsonb) @> merged.pairs
      AND jsonb_array_length(coalesce(j.also, '[]'::jsonb)) < 10;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;

-- A copy merged into an alert while the alert still waited is shown by the alert's own push
-- ("also on"): its edit is no longer due once it is sent (024 edited it again, and
-- on a channel that edits nothing, the copy was told twice). Same arguments and answer.
CREATE OR REPLACE FUNCTION hunter_edits_claim(p_now timestamptz, p_stale timestamptz, p_limit integer)
RETURNS TABLE (chat text, retry_key text, sent_ref text, claimed_at timestamptz, listings jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH due AS (
        SELECT DISTINCT d.chat, d.retry_key FROM hunter_seen_jobs d
        WHERE d.edit_due_at IS NOT NULL AND d.edit_due_at <= p_now AND d.status = 'sent'
          AND d.edit_due_at >= d.sent_at
          AND d.retry_key IS NOT NULL
          AND (d.edit_claimed_at IS NULL OR d.edit_claimed_at < p_stale)
        LIMIT p_limit),
    locked AS (
        SELECT j.job_id, j.chat FROM hunter_seen_jobs j
        JOIN due ON j.chat = due.chat AND j.retry_key = due.retry_key
        WHERE j.edit_due_at IS NOT NULL
        ORDER BY j.job_id, j.chat FOR UPDATE OF j SKIP LOCKED),
    claimed AS (
        UPDATE hunter_seen_jobs j SET edit_claimed_at = p_now
        FROM locked WHERE j.job_id = locked.job_id AND j.chat = locked.chat
        RETURNING j.chat, j.retry_key)
    SELECT m.chat, m.retry_key,
           (SELECT max(r.sent_ref) FROM hunter_seen_jobs r
            WHERE r.chat = m.chat AND r.retry_key = m.retry_key),
           p_now,
           (SELECT jsonb_agg(jsonb_build_object('job_id', r.job_id, 'listing', r.listing,
                                                'also', coalesce(r.also, '[]'::jsonb))
                             ORDER BY r.first_seen_at, r.job_id)
            FROM hunter_seen_jobs r
            WHERE r.chat = m.chat AND r.retry_key = m.retry_key AND r.status = 'sent')
    FROM (SELECT DISTINCT c.chat, c.retry_key FROM claimed c) m;
END $$;

-- A claimed message's edit made or given up (p_retry_at NULL), or to be tried again at
-- p_retry_at (not after 5 tries): only its rows still under this claim (a copy merged since
-- is due again).
CREATE OR REPLACE FUNCTION hunter_edits_done(
    p_chat text, p_key text, p_claimed_at timestamptz, p_retry_at timestamptz DEFAULT NULL)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_n integer;
BEGIN
    UPDATE hunter_seen_jobs
    SET edit_due_at = CASE WHEN edit_tries + 1 >= 5 THEN NULL ELSE p_retry_at END,
        edit_claimed_at = NULL, edit_tries = edit_tries + 1
    WHERE chat = p_chat AND retry_key = p_key AND edit_claimed_at = p_claimed_at;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
