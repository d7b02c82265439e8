-- hunter schema, version 10: how many listings each chat was sent since a moment (issue 28).
-- A Telegram chat spends no LINE messages, so what `hunter status` and สถานะ show of it is
-- what it was sent this month; the index keeps that count to the sent rows of one chat.

CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent_by_chat
    ON hunter_seen_jobs (chat, sent_at) WHERE status = 'sent';

CREATE OR REPLACE FUNCTION hunter_sent_by_chat(p_since timestamptz)
RETURNS TABLE (chat text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.chat, count(*) FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.sent_at >= p_since AND j.source <> 'hunter'
    GROUP BY j.chat ORDER BY j.chat;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '10')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 10;
