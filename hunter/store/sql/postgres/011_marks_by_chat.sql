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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '11')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 11;
