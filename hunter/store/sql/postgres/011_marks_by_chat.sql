-- hunter schema, version 11: a card's button acts only on a row of the chat that tapped it
-- (issue 37). A chat's rows were found by parsing "<listing id>#<chat>" out of the job id, so
-- a board id ending in "#team" let a team member's forged "dismiss" reach the owner's row. The
-- row's own `chat` column decides now. hunter_mark stays for a hunter of the release before,
-- still running beside this one during a deploy.

CREATE OR REPLACE FUNCTION hunter_mark_in_chat(
    p_job_id text, p_chat text, p_mark text, p_now timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
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
    INSERT INTO hunter_marks (job_id, mark, listing, marked_at)
    VALUES (p_job_id, p_mark, v_listing, p_now)
    ON CONFLICT (job_id) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at;
    RETURN coalesce(v_listing->>'title', '');
END $$;

-- A chat's removals of its words are kept a day (of two commands said at once, the one said
-- last wins by its time), then only those of a word hunter.toml has (`p_keep`, a JSON array):
-- a chat's add/remove churn leaves no row behind (issue 37: 800 commands left 400 rows).
CREATE OR REPLACE FUNCTION hunter_drop_removals(p_before timestamptz, p_keep text)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_dropped bigint;
BEGIN
    DELETE FROM hunter_tuning t
    WHERE t.op = 'remove' AND t.changed_at < p_before AND NOT (p_keep::jsonb ? t.word);
    GET DIAGNOSTICS v_dropped = ROW_COUNT;
    RETURN v_dropped;
END $$;

-- When each listing sent lately was posted (by its board), found and sent: `hunter status`'s
-- freshness, per source (issue 34). The index keeps it to the sent rows of the last days.
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent_at
    ON hunter_seen_jobs (sent_at) WHERE status = 'sent';

CREATE OR REPLACE FUNCTION hunter_sent_rows_since(p_since timestamptz, p_limit integer)
RETURNS TABLE (source text, posted text, found_s double precision, sent_s double precision)
LANGUAGE sql STABLE AS $$
    SELECT j.source, j.listing->>'posted', extract(epoch FROM j.first_seen_at)::float8,
           extract(epoch FROM j.sent_at)::float8
    FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.sent_at >= p_since AND j.source <> 'hunter'
    ORDER BY j.sent_at DESC LIMIT p_limit;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '11')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 11;
