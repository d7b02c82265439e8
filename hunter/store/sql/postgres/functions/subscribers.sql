-- Strangers who join from their chat: asked, active, gone (hunter/store/subscribers.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- A turn of something hunter does at most every so often for
-- everyone (the owner's card of the chats that ask to join, at most one every few
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

CREATE OR REPLACE FUNCTION hunter_subscriber_approve(p_chat text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hunter_subscribers SET status = 'active', joined_at = p_now, name = NULL
    WHERE chat = p_chat AND status = 'asked';
    RETURN FOUND;
END $$;

-- Everything hunter holds about a chat, gone (/forget; Thailand's PDPA, the GDPR): how many
-- rows. Rows of [[chats]] (a name, never a chat id) and the owner's ('') are never matched.
CREATE OR REPLACE FUNCTION hunter_subscriber_forget(p_chat text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_gone integer := 0;
    v_n    integer;
BEGIN
    IF p_chat IS NULL OR p_chat = '' THEN
        RETURN 0;
    END IF;
    DELETE FROM hunter_batches b USING hunter_seen_jobs k
    WHERE k.chat = p_chat AND k.retry_key IS NOT NULL
      AND (b.retry_key = k.retry_key OR b.retry_key LIKE k.retry_key || '#attempt-%');
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_seen_jobs WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    -- hunter's notices about the chat in the owner's rows ("asks to join", "gone") name it
    DELETE FROM hunter_seen_jobs
    WHERE source = 'hunter' AND position(':' || p_chat || ':' IN job_id) > 0;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_marks WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_tuning WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_chat_settings WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_chat_floors WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_chat_mutes WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_chat_notes WHERE chat_id = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_events WHERE chat_id = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_chats WHERE name = p_chat OR to_id = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    DELETE FROM hunter_subscribers WHERE chat = p_chat;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_gone := v_gone + v_n;
    RETURN v_gone;
END $$;

CREATE OR REPLACE FUNCTION hunter_subscriber_join(
    p_chat text, p_asked boolean, p_most integer, p_now timestamptz, p_by text DEFAULT NULL,
    p_name text DEFAULT NULL
)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_status text;
    v_since timestamptz;
    v_fresh timestamptz := p_now - interval '7 days';
BEGIN
    LOCK TABLE hunter_subscribers IN SHARE ROW EXCLUSIVE MODE;
    SELECT s.status, s.joined_at INTO v_status, v_since
    FROM hunter_subscribers s WHERE s.chat = p_chat;
    IF v_status = 'active' THEN
        RETURN 'member';
    ELSIF v_status = 'asked' AND v_since >= v_fresh THEN
        RETURN 'waiting';
    END IF;
    IF (SELECT count(*) FROM hunter_subscribers s
        WHERE s.chat <> p_chat
          AND (s.status = 'active' OR (s.status = 'asked' AND s.joined_at >= v_fresh)))
       >= p_most THEN
        RETURN 'full';
    END IF;
    IF p_asked AND (SELECT count(*) FROM hunter_subscribers s
                    WHERE s.chat <> p_chat AND s.status = 'asked' AND s.joined_at >= v_fresh)
                   >= greatest(1, p_most / 2) THEN
        RETURN 'full';
    END IF;
    INSERT INTO hunter_subscribers AS s (chat, status, joined_at, left_at, started_by, name)
    VALUES (p_chat, CASE WHEN p_asked THEN 'asked' ELSE 'active' END, p_now, NULL, p_by,
            CASE WHEN p_asked THEN p_name END)
    ON CONFLICT (chat) DO UPDATE
        SET status = excluded.status, joined_at = excluded.joined_at, left_at = NULL,
            started_by = excluded.started_by, name = excluded.name;
    RETURN CASE WHEN p_asked THEN 'asked' ELSE 'joined' END;
END $$;

CREATE OR REPLACE FUNCTION hunter_subscriber_leave(p_chat text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    v_was text;
BEGIN
    SELECT status INTO v_was FROM hunter_subscribers WHERE chat = p_chat FOR UPDATE;
    IF v_was IS NULL OR v_was = 'left' THEN
        RETURN false;
    END IF;
    UPDATE hunter_subscribers SET status = 'left', left_at = p_now WHERE chat = p_chat;
    DELETE FROM hunter_batches b USING hunter_seen_jobs k
    WHERE k.chat = p_chat AND k.status NOT IN ('sent', 'primed', 'ignored')
      AND k.retry_key IS NOT NULL
      AND (b.retry_key = k.retry_key OR b.retry_key LIKE k.retry_key || '#attempt-%');
    DELETE FROM hunter_seen_jobs WHERE chat = p_chat AND status NOT IN ('sent', 'primed', 'ignored');
    RETURN true;
END $$;

-- A group that became a supergroup (medium 5): Telegram gives it a new id, and the
-- old one answers every message 400 "migrate_to_chat_id". A subscriber, its words, its
-- settings and its rows (waiting, sent, marked) move to the new id, and what got stuck on the
-- old one is sent again; a stranger's rows at the new id (a hint told) go first. False when
-- the old id is no subscriber's.
CREATE OR REPLACE FUNCTION hunter_subscriber_move(p_old text, p_new text)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM hunter_subscribers WHERE chat = p_old FOR UPDATE;
    IF NOT FOUND OR p_old = p_new THEN
        RETURN false;
    END IF;
    PERFORM hunter_subscriber_forget(p_new);
    UPDATE hunter_seen_jobs SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_marks SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_tuning SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_chat_settings SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_chat_floors SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_chat_mutes SET chat = p_new WHERE chat = p_old;
    DELETE FROM hunter_chat_notes WHERE chat_id = p_old;
    DELETE FROM hunter_chats WHERE name = p_old OR to_id = p_old;
    UPDATE hunter_subscribers SET chat = p_new WHERE chat = p_old;
    UPDATE hunter_seen_jobs
    SET status = 'retry', attempts = 0, next_attempt_at = now(), error_kind = NULL,
        last_error = NULL
    WHERE chat = p_new AND status = 'stuck';
    RETURN true;
END $$;

-- The chats gone (left, or never approved) since before p_before, forgotten wholly; and the
-- membership counts of before then. The chats forgotten.
CREATE OR REPLACE FUNCTION hunter_subscriber_prune(p_before timestamptz)
RETURNS TABLE (chat text)
LANGUAGE plpgsql AS $$
DECLARE
    v_chat text;
BEGIN
    DELETE FROM hunter_membership WHERE at < p_before;
    FOR v_chat IN
        SELECT s.chat FROM hunter_subscribers s
        WHERE (s.status = 'left' AND s.left_at < p_before)
           OR (s.status = 'asked' AND s.joined_at < p_before)
        ORDER BY s.chat
    LOOP
        PERFORM hunter_subscriber_forget(v_chat);
        chat := v_chat;
        RETURN NEXT;
    END LOOP;
END $$;
