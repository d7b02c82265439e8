-- hunter schema, version 6: what a chat changed of its rules from LINE (hunter/chat/tuning.py):
-- keywords added or removed, its minimum budget, a pause. hunter.toml stays the start; these
-- rows are laid over it at every poll of every replica, and `hunter tuning --reset` drops them.

CREATE TABLE IF NOT EXISTS hunter_tuning (
    chat       text NOT NULL,                  -- '' for LINE_TO, else the [[chats]] name
    word       text NOT NULL,                  -- an include keyword, case-folded
    op         text NOT NULL CHECK (op IN ('add', 'remove')),
    changed_at timestamptz NOT NULL,
    PRIMARY KEY (chat, word)
);

CREATE TABLE IF NOT EXISTS hunter_chat_settings (
    chat       text PRIMARY KEY,
    min_budget bigint,                         -- NULL: hunter.toml's; 0: no minimum
    paused     boolean NOT NULL DEFAULT false, -- pushes wait; listings are still recorded
    changed_at timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION hunter_tune_word(p_chat text, p_word text, p_op text,
                                            p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_tuning (chat, word, op, changed_at) VALUES (p_chat, p_word, p_op, p_now)
    ON CONFLICT (chat, word) DO UPDATE SET op = excluded.op, changed_at = excluded.changed_at;
$$;

-- p_budget: a new minimum (0 lifts it), or NULL to keep; p_paused likewise.
CREATE OR REPLACE FUNCTION hunter_tune_settings(p_chat text, p_budget bigint, p_paused boolean,
                                                p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s (chat, min_budget, paused, changed_at)
    VALUES (p_chat, p_budget, coalesce(p_paused, false), p_now)
    ON CONFLICT (chat) DO UPDATE SET
        min_budget = coalesce(excluded.min_budget, s.min_budget),
        paused = coalesce(p_paused, s.paused),
        changed_at = excluded.changed_at;
$$;

-- Drop what the chats changed (one chat, or all with NULL); returns how many changes went.
CREATE OR REPLACE FUNCTION hunter_reset_tuning(p_chat text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_words    integer;
    v_settings integer;
BEGIN
    DELETE FROM hunter_tuning WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_words = ROW_COUNT;
    DELETE FROM hunter_chat_settings WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_settings = ROW_COUNT;
    RETURN v_words + v_settings;
END $$;

-- Every chat's rules as the poll lays them over hunter.toml, in one read: mutes still in
-- force, keywords added or removed, and the settings.
CREATE OR REPLACE FUNCTION hunter_chat_rules(p_now timestamptz)
RETURNS TABLE (chat text, kind text, word text, until timestamptz, amount bigint,
               flag boolean)
LANGUAGE sql STABLE AS $$
    SELECT m.chat, 'mute', m.word, m.until, NULL::bigint, NULL::boolean
    FROM hunter_chat_mutes m WHERE m.until > p_now
    UNION ALL
    SELECT t.chat, t.op, t.word, NULL, NULL, NULL FROM hunter_tuning t
    UNION ALL
    SELECT s.chat, 'settings', NULL, NULL, s.min_budget, s.paused FROM hunter_chat_settings s
    ORDER BY 1, 2, 3;
$$;

-- The rows of a listing, by its id or its link: what "ทำไม" (why) explains.
CREATE OR REPLACE FUNCTION hunter_find_listing(p_ids text[], p_url text)
RETURNS TABLE (job_id text, chat text, status text, listing jsonb, first_seen_at timestamptz,
               sent_at timestamptz, last_error text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.chat, j.status, j.listing, j.first_seen_at, j.sent_at, j.last_error
    FROM hunter_seen_jobs j
    WHERE j.job_id = ANY (p_ids) OR (p_url IS NOT NULL AND j.listing->>'url' = p_url)
    ORDER BY j.job_id LIMIT 20;
$$;

-- The sources whose listings link to pages starting with p_prefix ("https://host/"): which
-- source would show a listing hunter never saw. A person asked: a scan is fine.
CREATE OR REPLACE FUNCTION hunter_sources_linking(p_prefix text)
RETURNS TABLE (source text)
LANGUAGE sql STABLE AS $$
    SELECT DISTINCT j.source FROM hunter_seen_jobs j
    WHERE j.source <> 'hunter' AND left(j.listing->>'url', length(p_prefix)) = p_prefix
    ORDER BY 1 LIMIT 5;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '6')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 6;
