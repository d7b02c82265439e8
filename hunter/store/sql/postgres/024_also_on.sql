-- hunter schema, version 24: the first alert of a job gains "also on <board>" (issue 43). A
-- later copy merged into an alert a chat got is kept on that alert's row (`also`: [source,
-- url] pairs), and where the channel can edit what it sent (Telegram, Discord) the alert's
-- message is edited: the channel's id of each sent message is kept (`sent_ref`), and an edit
-- is due (`edit_due_at`) until it is made. The rows are the outbox's own: the prune and a
-- chat's /forget take them with the rest.
ALTER TABLE hunter_seen_jobs
    ADD COLUMN IF NOT EXISTS sent_ref text,
    ADD COLUMN IF NOT EXISTS also jsonb,
    ADD COLUMN IF NOT EXISTS edit_due_at timestamptz,
    ADD COLUMN IF NOT EXISTS edit_claimed_at timestamptz,
    ADD COLUMN IF NOT EXISTS edit_tries integer NOT NULL DEFAULT 0;

CREATE INDEX IF NOT EXISTS hunter_seen_jobs_edit_due ON hunter_seen_jobs (edit_due_at)
    WHERE edit_due_at IS NOT NULL;

-- mark_sent keeps the message's id: p_ref has a default, so an older hunter's two-argument
-- call (a deploy overlapping the old instance) still finds it.
DROP FUNCTION IF EXISTS hunter_mark_sent(text, timestamptz);
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

-- Up to p_limit sent messages with an edit due (not held by a live claim), claimed: each
-- one's chat, retry key, the channel's id of it, when it was claimed (what done() is given
-- back), and its sent rows in the order they were claimed for it, each with its `also`.
CREATE OR REPLACE FUNCTION hunter_edits_claim(p_now timestamptz, p_stale timestamptz, p_limit integer)
RETURNS TABLE (chat text, retry_key text, sent_ref text, claimed_at timestamptz, listings jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH due AS (
        SELECT DISTINCT d.chat, d.retry_key FROM hunter_seen_jobs d
        WHERE d.edit_due_at IS NOT NULL AND d.edit_due_at <= p_now AND d.status = 'sent'
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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '24')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 24;
