-- The chats: their events, kept then answered once, and what each changed of its rules
-- (hunter/store/chat.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- Keep the events of one request, held by p_worker; answers the ids that were new (an id seen
-- in the last 7 days, redelivered or sent to another replica, is not taken twice).
CREATE OR REPLACE FUNCTION hunter_accept_events(p_events jsonb, p_worker text, p_now timestamptz)
RETURNS TABLE (event_id text)
LANGUAGE sql AS $$
    DELETE FROM hunter_events WHERE received_at < p_now - interval '7 days';
    INSERT INTO hunter_events AS e (event_id, received_at, chat_id, payload, held_by, held_at)
    SELECT x.event_id, p_now, x.chat_id, x.payload, p_worker, p_now
    FROM jsonb_to_recordset(p_events) AS x(event_id text, chat_id text, payload jsonb)
    ON CONFLICT ON CONSTRAINT hunter_events_pkey DO NOTHING
    RETURNING e.event_id;
$$;

CREATE OR REPLACE FUNCTION hunter_chat_mute(p_chat text, p_word text, p_until timestamptz,
                                            p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_mutes (chat, word, until, muted_at)
    VALUES (p_chat, p_word, p_until, p_now)
    ON CONFLICT (chat, word) DO UPDATE SET until = excluded.until, muted_at = excluded.muted_at;
$$;

-- Lift a mute in one chat, or in every chat (p_chat NULL: `hunter unmute`).
CREATE OR REPLACE FUNCTION hunter_chat_unmute(p_chat text, p_word text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    DELETE FROM hunter_chat_mutes WHERE word = p_word AND (p_chat IS NULL OR chat = p_chat);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END $$;

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

-- A chat's removals of its words are kept a day (of two commands said at once, the one said
-- last wins by its time), then only those of a word hunter.toml has (`p_keep`, a JSON array):
-- a chat's add/remove churn leaves no row behind (800 commands left 400 rows).
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

CREATE OR REPLACE FUNCTION hunter_event_handled(p_event_id text, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_events SET handled_at = p_now, payload = NULL WHERE event_id = p_event_id;
$$;

-- True while the event is still p_worker's and not handled; renews the hold.
CREATE OR REPLACE FUNCTION hunter_hold_event(p_event_id text, p_worker text, p_now timestamptz)
RETURNS boolean
LANGUAGE sql AS $$
    WITH held AS (
        UPDATE hunter_events SET held_at = p_now
        WHERE event_id = p_event_id AND held_by = p_worker AND handled_at IS NULL
        RETURNING 1
    )
    SELECT count(*) > 0 FROM held;
$$;

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

-- True when the chat should be told "private" now: never told, or last told before p_before.
CREATE OR REPLACE FUNCTION hunter_note_private(
    p_chat_id text, p_now timestamptz, p_before timestamptz
)
RETURNS boolean
LANGUAGE sql AS $$
    WITH told AS (
        INSERT INTO hunter_chat_notes AS n (chat_id, private_at) VALUES (p_chat_id, p_now)
        ON CONFLICT (chat_id) DO UPDATE SET private_at = excluded.private_at
        WHERE n.private_at < p_before
        RETURNING 1
    )
    SELECT count(*) > 0 FROM told;
$$;

-- A stopping worker lets go of the events it has not started.
CREATE OR REPLACE FUNCTION hunter_release_events(p_event_ids text[], p_worker text)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_events SET held_by = NULL
    WHERE event_id = ANY (p_event_ids) AND held_by = p_worker AND handled_at IS NULL;
$$;

-- As in version 6, and the floors too.
CREATE OR REPLACE FUNCTION hunter_reset_tuning(p_chat text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_words    integer;
    v_settings integer;
    v_floors   integer;
BEGIN
    DELETE FROM hunter_tuning WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_words = ROW_COUNT;
    DELETE FROM hunter_chat_settings WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_settings = ROW_COUNT;
    DELETE FROM hunter_chat_floors WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_floors = ROW_COUNT;
    RETURN v_words + v_settings + v_floors;
END $$;

-- Events whose worker let go (stopped) or whose hold ran out before p_held_before, now held by
-- p_worker, oldest first.
CREATE OR REPLACE FUNCTION hunter_take_stranded(
    p_worker text, p_now timestamptz, p_held_before timestamptz, p_limit integer
)
RETURNS TABLE (event_id text, payload jsonb, received_at timestamptz)
LANGUAGE sql AS $$
    UPDATE hunter_events AS e SET held_by = p_worker, held_at = p_now
    WHERE e.event_id IN (
        SELECT w.event_id FROM hunter_events w
        WHERE w.handled_at IS NULL AND w.payload IS NOT NULL
          AND (w.held_by IS NULL OR w.held_at < p_held_before)
        ORDER BY w.received_at, w.event_id
        LIMIT p_limit
        FOR UPDATE SKIP LOCKED
    )
    RETURNING e.event_id, e.payload, e.received_at;
$$;

-- As in version 7, an older floor than the one kept does nothing.
CREATE OR REPLACE FUNCTION hunter_tune_floor(p_chat text, p_currency text, p_period text,
                                             p_amount bigint, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_floors AS f (chat, currency, period, amount, changed_at)
    VALUES (p_chat, p_currency, p_period, p_amount, p_now)
    ON CONFLICT (chat, currency, period) DO UPDATE SET
        amount = excluded.amount, changed_at = excluded.changed_at
    WHERE f.changed_at <= excluded.changed_at;
$$;

-- A keyword added or removed at p_at (the command's own time). An add beyond the chat's
-- p_cap added keywords is refused (false); an older change than the one kept does nothing.
-- One chat's keyword changes wait for each other, so two replicas cannot both take the last
-- place under the cap.
CREATE OR REPLACE FUNCTION hunter_tune_keyword(p_chat text, p_word text, p_op text,
                                               p_at timestamptz, p_cap integer)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('hunter_tune_keyword'), hashtext(p_chat));
    IF p_op = 'add'
       AND NOT EXISTS (SELECT 1 FROM hunter_tuning t
                       WHERE t.chat = p_chat AND t.word = p_word AND t.op = 'add')
       AND (SELECT count(*) FROM hunter_tuning t WHERE t.chat = p_chat AND t.op = 'add') >= p_cap
    THEN
        RETURN false;
    END IF;
    INSERT INTO hunter_tuning AS t (chat, word, op, changed_at)
    VALUES (p_chat, p_word, p_op, p_at)
    ON CONFLICT (chat, word) DO UPDATE SET op = excluded.op, changed_at = excluded.changed_at
    WHERE t.changed_at <= excluded.changed_at;
    RETURN true;
END $$;

CREATE OR REPLACE FUNCTION hunter_tune_languages(
    p_chat text, p_languages text, p_now timestamptz
)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s (chat, paused, changed_at, languages, languages_at)
    VALUES (p_chat, false, p_now, p_languages, p_now)
    ON CONFLICT (chat) DO UPDATE SET
        languages = CASE WHEN coalesce(s.languages_at, '-infinity') <= p_now
                         THEN p_languages ELSE s.languages END,
        languages_at = CASE WHEN coalesce(s.languages_at, '-infinity') <= p_now
                            THEN p_now ELSE s.languages_at END;
$$;

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

-- As in version 6, each of the budget and the pause kept only when p_now is not older than
-- the one in force (a value never set is older than any).
CREATE OR REPLACE FUNCTION hunter_tune_settings(p_chat text, p_budget bigint, p_paused boolean,
                                                p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s
        (chat, min_budget, paused, changed_at, budget_at, paused_at)
    VALUES (p_chat, p_budget, coalesce(p_paused, false), p_now,
            CASE WHEN p_budget IS NOT NULL THEN p_now END,
            CASE WHEN p_paused IS NOT NULL THEN p_now END)
    ON CONFLICT (chat) DO UPDATE SET
        min_budget = CASE WHEN p_budget IS NOT NULL AND coalesce(s.budget_at,
                              CASE WHEN s.min_budget IS NULL THEN '-infinity'::timestamptz END,
                              s.changed_at) <= p_now
                          THEN p_budget ELSE s.min_budget END,
        budget_at = CASE WHEN p_budget IS NOT NULL AND coalesce(s.budget_at,
                             CASE WHEN s.min_budget IS NULL THEN '-infinity'::timestamptz END,
                             s.changed_at) <= p_now
                         THEN p_now ELSE s.budget_at END,
        paused = CASE WHEN p_paused IS NOT NULL AND coalesce(s.paused_at,
                          CASE WHEN NOT s.paused THEN '-infinity'::timestamptz END,
                          s.changed_at) <= p_now
                      THEN p_paused ELSE s.paused END,
        paused_at = CASE WHEN p_paused IS NOT NULL AND coalesce(s.paused_at,
                             CASE WHEN NOT s.paused THEN '-infinity'::timestamptz END,
                             s.changed_at) <= p_now
                         THEN p_now ELSE s.paused_at END,
        changed_at = greatest(s.changed_at, p_now);
$$;
