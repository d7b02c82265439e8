-- hunter schema, version 3: the LINE chat talks back (see hunter/chat.py). Webhook events are
-- handled once each, whichever replica LINE reaches and however often it redelivers them; the
-- user's mutes and marks outlive restarts like everything else.

CREATE TABLE IF NOT EXISTS hunter_events (
    event_id    text PRIMARY KEY,          -- LINE's webhookEventId
    received_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS hunter_events_received ON hunter_events (received_at);

CREATE TABLE IF NOT EXISTS hunter_mutes (
    word       text PRIMARY KEY,           -- an include keyword, case-folded
    until      timestamptz NOT NULL,       -- listings matching only muted words are ignored
    muted_at   timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_marks (
    job_id    text PRIMARY KEY,
    mark      text NOT NULL CHECK (mark IN ('dismissed', 'applied')),
    listing   jsonb NOT NULL,              -- kept here: the prune may forget the seen row
    marked_at timestamptz NOT NULL
);

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

CREATE OR REPLACE FUNCTION hunter_mute(p_word text, p_until timestamptz, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_mutes (word, until, muted_at) VALUES (p_word, p_until, p_now)
    ON CONFLICT (word) DO UPDATE SET until = excluded.until, muted_at = excluded.muted_at;
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

CREATE OR REPLACE FUNCTION hunter_mutes_rows(p_now timestamptz)
RETURNS TABLE (word text, until timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT m.word, m.until FROM hunter_mutes m WHERE m.until > p_now ORDER BY m.word;
$$;

-- The user marked a listing. Dismissed: if it still waits to be sent it never will be (it is
-- ignored); applied: only kept. Returns the listing's title, or NULL for an unknown id.
CREATE OR REPLACE FUNCTION hunter_mark(p_job_id text, p_mark text, p_now timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_listing jsonb;
BEGIN
    SELECT j.listing INTO v_listing FROM hunter_seen_jobs j WHERE j.job_id = p_job_id;
    IF v_listing IS NULL THEN
        RETURN NULL;
    END IF;
    IF p_mark = 'dismissed' THEN
        UPDATE hunter_seen_jobs
        SET status = 'ignored', retry_key = NULL, claimed_by = NULL, next_attempt_at = NULL,
            error_kind = NULL, last_error = NULL
        WHERE job_id = p_job_id AND status IN ('pending', 'retry', 'stuck');
    END IF;
    INSERT INTO hunter_marks (job_id, mark, listing, marked_at)
    VALUES (p_job_id, p_mark, v_listing, p_now)
    ON CONFLICT (job_id) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at;
    RETURN coalesce(v_listing->>'title', '');
END $$;

CREATE OR REPLACE FUNCTION hunter_marks_rows(p_mark text)
RETURNS TABLE (job_id text, mark text, listing jsonb, marked_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT k.job_id, k.mark, k.listing, k.marked_at FROM hunter_marks k
    WHERE k.mark = p_mark ORDER BY k.marked_at DESC, k.job_id;
$$;

-- The listings sent last, newest first: what "งานใหม่" shows when nothing waits.
CREATE OR REPLACE FUNCTION hunter_recent_sent(p_limit integer)
RETURNS TABLE (job_id text, listing jsonb, sent_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing, j.sent_at FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.source <> 'hunter'
    ORDER BY j.sent_at DESC, j.job_id LIMIT p_limit;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '3')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 3;
