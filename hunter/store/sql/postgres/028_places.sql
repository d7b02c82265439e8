-- hunter schema, version 28: where a chat can work, set from its chat (issue 54: "ที่ทำงาน
-- กรุงเทพ ปริมณฑล", "places Portugal, remote"), kept with its other settings as its languages
-- are, so that /forget, a reset and a supergroup's move take them too. NULL: hunter.toml's;
-- '': every place; else the place names apart by newlines. Of two changes said at once on two
-- replicas, the later one wins (places_at).
ALTER TABLE hunter_chat_settings
    ADD COLUMN IF NOT EXISTS places text,
    ADD COLUMN IF NOT EXISTS places_at timestamptz;

CREATE OR REPLACE FUNCTION hunter_tune_places(p_chat text, p_places text, p_now timestamptz)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s (chat, paused, changed_at, places, places_at)
    VALUES (p_chat, false, p_now, p_places, p_now)
    ON CONFLICT (chat) DO UPDATE SET
        places = CASE WHEN coalesce(s.places_at, '-infinity') <= p_now
                      THEN p_places ELSE s.places END,
        places_at = CASE WHEN coalesce(s.places_at, '-infinity') <= p_now
                         THEN p_now ELSE s.places_at END;
$$;

-- What a chat's places, languages and taps held back of its keyword hits (issue 54: nothing
-- hidden without a trace), counted by each poll and added up over a week at most (p_window:
-- older counts start again from nothing). Kept with the chat's settings, so that /forget, a
-- reset and a move take them too; a chat hunter no longer knows (forgotten while the poll
-- judged for it) gets no row.
ALTER TABLE hunter_chat_settings
    ADD COLUMN IF NOT EXISTS held_since timestamptz,
    ADD COLUMN IF NOT EXISTS held_place integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS held_language integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS held_taps integer NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION hunter_count_held(
    p_counts jsonb, p_now timestamptz, p_window interval
)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s
        (chat, paused, changed_at, held_since, held_place, held_language, held_taps)
    SELECT c.chat, false, p_now, p_now, coalesce(c.place, 0), coalesce(c.language, 0),
           coalesce(c.taps, 0)
    FROM jsonb_to_recordset(p_counts) AS c(chat text, place integer, language integer,
                                           taps integer)
    WHERE c.chat = ''
       OR EXISTS (SELECT 1 FROM hunter_subscribers x WHERE x.chat = c.chat)
       OR EXISTS (SELECT 1 FROM hunter_chat_settings x WHERE x.chat = c.chat)
       OR EXISTS (SELECT 1 FROM hunter_chats x WHERE x.name = c.chat)
    ON CONFLICT (chat) DO UPDATE SET
        held_place = CASE WHEN coalesce(s.held_since, '-infinity') < p_now - p_window
                          THEN excluded.held_place ELSE s.held_place + excluded.held_place END,
        held_language = CASE WHEN coalesce(s.held_since, '-infinity') < p_now - p_window
                             THEN excluded.held_language
                             ELSE s.held_language + excluded.held_language END,
        held_taps = CASE WHEN coalesce(s.held_since, '-infinity') < p_now - p_window
                         THEN excluded.held_taps ELSE s.held_taps + excluded.held_taps END,
        held_since = CASE WHEN coalesce(s.held_since, '-infinity') < p_now - p_window
                          THEN p_now ELSE s.held_since END;
$$;

-- 👍 under a card (issue 54) is a mark of its own, "liked", beside "dismissed" (👎) and
-- "applied" (a 👍 too).
ALTER TABLE hunter_marks DROP CONSTRAINT IF EXISTS hunter_marks_mark_check;
ALTER TABLE hunter_marks ADD CONSTRAINT hunter_marks_mark_check
    CHECK (mark IN ('dismissed', 'applied', 'liked'));
CREATE INDEX IF NOT EXISTS hunter_marks_newest ON hunter_marks (chat, marked_at DESC);

-- A 👍 of a listing marked "applied" keeps it applied (both are a 👍, and `hunter status
-- --applied` lists it); any other mark replaces the one before.
CREATE OR REPLACE FUNCTION hunter_mark_in_chat(
    p_job_id text, p_chat text, p_mark text, p_now timestamptz
)
RETURNS text LANGUAGE plpgsql AS $$
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
    INSERT INTO hunter_marks AS k (job_id, chat, mark, listing, marked_at)
    VALUES (p_job_id, p_chat, p_mark, v_listing, p_now)
    ON CONFLICT (job_id, chat) DO UPDATE SET
        mark = CASE WHEN excluded.mark = 'liked' AND k.mark = 'applied' THEN k.mark
                    ELSE excluded.mark END,
        marked_at = excluded.marked_at;
    RETURN coalesce(v_listing->>'title', '');
END $$;

-- A chat's places are a row of their own, kind 'places'; what was held back one of kind
-- 'held' (its three counts apart by spaces, since when); its newest 12 taps rows of kind 'tap',
-- each its mark, a tab, the listing's title, a newline and the start of its text (what
-- rules/taste.py compares). An older hunter passes over kinds it does not know.
CREATE OR REPLACE FUNCTION hunter_chat_rules(p_now timestamptz)
RETURNS TABLE (chat text, kind text, word text, until timestamptz, amount bigint, flag boolean)
LANGUAGE sql STABLE AS $$
    SELECT m.chat, 'mute', m.word, m.until, NULL::bigint, NULL::boolean
    FROM hunter_chat_mutes m WHERE m.until > p_now
    UNION ALL
    SELECT t.chat, t.op, t.word, NULL, NULL, NULL FROM hunter_tuning t
    UNION ALL
    SELECT s.chat, 'settings', s.languages, NULL, s.min_budget, s.paused FROM hunter_chat_settings s
    UNION ALL
    SELECT s.chat, 'places', s.places, NULL, NULL, NULL
    FROM hunter_chat_settings s WHERE s.places IS NOT NULL
    UNION ALL
    SELECT s.chat, 'held', s.held_place || ' ' || s.held_language || ' ' || s.held_taps,
           s.held_since, NULL, NULL
    FROM hunter_chat_settings s WHERE s.held_since IS NOT NULL
    UNION ALL
    SELECT k.chat, 'tap', k.mark || E'\t' || coalesce(k.listing->>'title', '') || E'\n'
               || left(coalesce(k.listing->>'summary', ''), 240), k.marked_at, NULL, NULL
    FROM (SELECT m.*, row_number() OVER (PARTITION BY m.chat ORDER BY m.marked_at DESC) AS n
          FROM hunter_marks m) k
    WHERE k.n <= 12
    UNION ALL
    SELECT f.chat, 'floor', f.currency || '/' || f.period, NULL, f.amount, NULL
    FROM hunter_chat_floors f
    ORDER BY 1, 2, 3;
$$;

-- "Try before you wait" (issue 54): when a chat changes its words, places or languages, what
-- the last week's listings would have brought. Each listing once (its owner's row), newest
-- first, read through an index of the owner's rows alone (one entry a listing, not a chat).
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_recent
    ON hunter_seen_jobs (first_seen_at) WHERE chat = '';

CREATE OR REPLACE FUNCTION hunter_recent_listings(p_since timestamptz, p_most integer)
RETURNS TABLE (job_id text, listing jsonb) LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing FROM hunter_seen_jobs j
    WHERE j.chat = '' AND j.source <> 'hunter' AND j.first_seen_at >= p_since
    ORDER BY j.first_seen_at DESC, j.job_id LIMIT p_most;
$$;

-- Supabase's Data API reaches the new functions only as hunter's own role.
SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '28')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 28;
