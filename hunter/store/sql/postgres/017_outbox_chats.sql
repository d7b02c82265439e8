-- hunter schema, version 17: the rows `hunter status` shows say whose they are (issue 45).
-- Since version 15 a listing's rows in two chats share its id; the chat was part of the id
-- before. A new name, since `hunter schema` pasted again re-creates hunter_outbox_rows as it
-- was (a function's columns cannot change in place), and the release before still calls it.
CREATE OR REPLACE FUNCTION hunter_chat_outbox_rows(p_limit integer)
RETURNS TABLE (job_id text, chat text, status text, listing jsonb, attempts integer,
               next_attempt_at timestamptz, claimed_by text, claimed_at timestamptz,
               error_kind text, last_error text, first_seen_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.chat, j.status, j.listing, j.attempts, j.next_attempt_at, j.claimed_by,
           j.claimed_at, j.error_kind, j.last_error, j.first_seen_at
    FROM hunter_seen_jobs j WHERE j.status IN ('sending', 'retry', 'stuck')
    ORDER BY j.status, j.first_seen_at, j.job_id, j.chat LIMIT p_limit;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '17')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 17;
