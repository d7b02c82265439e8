-- hunter schema, version 27: a turn of something hunter does at most every so often for
-- everyone (issue 55: the owner's card of the chats that ask to join, at most one every few
-- hours however many strangers Start). Kept in hunter_meta under its key, so that a chat's
-- /forget, which deletes every row naming it, cannot reset it. The turn is taken only when
-- it is due (`p_every` since the last) and something happened since the last (`p_newest`
-- after it); the answer says whether it was taken and the last turn's time (1970 when
-- never).
CREATE OR REPLACE FUNCTION hunter_claim_turn(
    p_key text, p_now timestamptz, p_every interval, p_newest timestamptz
)
RETURNS TABLE (taken boolean, last timestamptz) LANGUAGE plpgsql AS $$
DECLARE
    v_last timestamptz;
BEGIN
    INSERT INTO hunter_meta (key, value) VALUES (p_key, '1970-01-01 00:00:00+00')
    ON CONFLICT (key) DO NOTHING;
    SELECT m.value::timestamptz INTO v_last FROM hunter_meta m WHERE m.key = p_key FOR UPDATE;
    IF v_last > p_now - p_every OR v_last >= p_newest THEN
        RETURN QUERY SELECT false, v_last;
        RETURN;
    END IF;
    UPDATE hunter_meta m SET value = p_now::text WHERE m.key = p_key;
    RETURN QUERY SELECT true, v_last;
END $$;

-- A bucket's look-up costs the same whatever one board shows (issue 55, high 3). 025's note
-- answered every earlier listing of a fresh one's title and employer: a board showing 1,000
-- new listings of one title a read made each read slower by 0.9 s per 1,000 kept. Now each
-- fresh (title, employer) asks for at most 32 of the newest earlier listings of each kind
-- that could be its first copy (the same employer, or none stated on one side), each an
-- index range scan with a limit. Same arguments and answer as 025, bounded.
CREATE INDEX IF NOT EXISTS hunter_likeness_bucket
    ON hunter_likeness (title, (coalesce(likeness->>'company', '')), seen_at);

CREATE OR REPLACE FUNCTION hunter_likeness_note(
    p_jobs jsonb, p_since timestamptz, p_now timestamptz, p_keep boolean DEFAULT true
)
RETURNS TABLE (job_id text, source text, title text, likeness jsonb, seen_at timestamptz,
               fresh boolean, chats text[])
LANGUAGE sql AS $$
    WITH batch AS (
        SELECT e->>'job_id' AS job_id, e->>'source' AS source, e->>'title' AS title,
               e->'likeness' AS likeness, coalesce(e->'likeness'->>'company', '') AS company
        FROM jsonb_array_elements(p_jobs) e
    ),
    fresh AS (
        SELECT b.* FROM batch b
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = b.job_id)
    ),
    kept AS (
        INSERT INTO hunter_likeness (job_id, source, title, likeness, seen_at)
        SELECT f.job_id, f.source, f.title, f.likeness, p_now FROM fresh f
        WHERE p_keep AND f.title <> ''
        ORDER BY f.job_id
        ON CONFLICT (job_id) DO NOTHING
        RETURNING 1
    ),
    asked AS (SELECT DISTINCT f.title, f.company FROM fresh f WHERE f.title <> ''),
    candidates AS (
        SELECT c.job_id FROM asked a CROSS JOIN LATERAL (  -- the same employer, or none both
            SELECT x.job_id FROM hunter_likeness x
            WHERE x.title = a.title AND coalesce(x.likeness->>'company', '') = a.company
              AND x.seen_at >= p_since AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
        UNION
        SELECT c.job_id FROM asked a CROSS JOIN LATERAL (  -- it states one, the earlier none
            SELECT x.job_id FROM hunter_likeness x
            WHERE a.company <> '' AND x.title = a.title
              AND coalesce(x.likeness->>'company', '') = '' AND x.seen_at >= p_since
              AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
        UNION
        SELECT c.job_id FROM asked a CROSS JOIN LATERAL (  -- it states none: any employer
            SELECT x.job_id FROM hunter_likeness x
            WHERE a.company = '' AND x.title = a.title AND x.seen_at >= p_since
              AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
    )
    SELECT f.job_id, f.source, f.title, NULL::jsonb, NULL::timestamptz, true, NULL::text[]
    FROM fresh f
    UNION ALL
    SELECT * FROM (
        SELECT l.job_id, l.source, l.title, l.likeness, l.seen_at, false,
               ARRAY(SELECT j.chat FROM hunter_seen_jobs j
                     WHERE j.job_id = l.job_id
                       AND j.status IN ('pending', 'sending', 'retry', 'sent', 'stuck')
                     ORDER BY j.chat)
        FROM hunter_likeness l
        WHERE l.job_id IN (SELECT c.job_id FROM candidates c)
          AND l.job_id NOT IN (SELECT f.job_id FROM fresh f)
        ORDER BY l.seen_at, l.job_id
    ) earlier;
$$;

-- A copy merged into an alert while the alert still waited is shown by the alert's own push
-- ("also on", issue 55): its edit is no longer due once it is sent (024 edited it again, and
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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '27')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 27;
