-- hunter schema, version 19: subscribers (issue 42). A stranger who presses Start (where the
-- owner lets strangers join) is a row here, keyed by its chat's id on its channel, which is
-- also the `chat` of its outbox rows and of its keywords (hunter_tuning and the others):
-- ids of chats are never 1-32 ASCII letters alone, as [[chats]]'s names are, so the two never
-- meet. 'asked' waits for the owner's Approve; 'left' ended (/stop, the bot blocked or removed)
-- and is forgotten wholly after prune_after_days. hunter_membership counts joins and leaves
-- for the status and names no chat: /forget leaves nothing of a chat behind.
CREATE TABLE IF NOT EXISTS hunter_subscribers (
    chat      text PRIMARY KEY,
    status    text NOT NULL CHECK (status IN ('asked', 'active', 'left')),
    joined_at timestamptz NOT NULL,
    left_at   timestamptz
);

CREATE TABLE IF NOT EXISTS hunter_membership (
    at     timestamptz NOT NULL,
    change text NOT NULL CHECK (change IN ('join', 'leave'))
);

CREATE INDEX IF NOT EXISTS hunter_membership_at ON hunter_membership (at);

-- Join, or ask to: 'joined' / 'asked' (a new or returning chat), 'member' / 'waiting' (it was
-- already), 'full' (p_most chats in or waiting). The table is locked, so that of 1,000 Starts
-- at once exactly p_most get in, whichever replicas take them.
CREATE OR REPLACE FUNCTION hunter_subscriber_join(
    p_chat text, p_asked boolean, p_most integer, p_now timestamptz
)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_status text;
BEGIN
    LOCK TABLE hunter_subscribers IN SHARE ROW EXCLUSIVE MODE;
    SELECT s.status INTO v_status FROM hunter_subscribers s WHERE s.chat = p_chat;
    IF v_status = 'active' THEN
        RETURN 'member';
    ELSIF v_status = 'asked' THEN
        RETURN 'waiting';
    END IF;
    IF (SELECT count(*) FROM hunter_subscribers s WHERE s.status <> 'left') >= p_most THEN
        RETURN 'full';
    END IF;
    INSERT INTO hunter_subscribers AS s (chat, status, joined_at, left_at)
    VALUES (p_chat, CASE WHEN p_asked THEN 'asked' ELSE 'active' END, p_now, NULL)
    ON CONFLICT (chat) DO UPDATE
        SET status = excluded.status, joined_at = excluded.joined_at, left_at = NULL;
    IF NOT p_asked THEN
        INSERT INTO hunter_membership (at, change) VALUES (p_now, 'join');
    END IF;
    RETURN CASE WHEN p_asked THEN 'asked' ELSE 'joined' END;
END $$;

-- The owner approves a chat that asked: true when it was waiting.
CREATE OR REPLACE FUNCTION hunter_subscriber_approve(p_chat text, p_now timestamptz)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hunter_subscribers SET status = 'active', joined_at = p_now
    WHERE chat = p_chat AND status = 'asked';
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO hunter_membership (at, change) VALUES (p_now, 'join');
    RETURN true;
END $$;

-- The chat leaves (or is refused): nothing more is sent to it, and what waited for it goes.
-- Its keywords stay until it is forgotten (/forget, or the prune), so that a Start again
-- picks them up.
CREATE OR REPLACE FUNCTION hunter_subscriber_leave(p_chat text, p_now timestamptz)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_was text;
BEGIN
    SELECT status INTO v_was FROM hunter_subscribers WHERE chat = p_chat FOR UPDATE;
    IF v_was IS NULL OR v_was = 'left' THEN
        RETURN false;
    END IF;
    UPDATE hunter_subscribers SET status = 'left', left_at = p_now WHERE chat = p_chat;
    IF v_was = 'active' THEN
        INSERT INTO hunter_membership (at, change) VALUES (p_now, 'leave');
    END IF;
    DELETE FROM hunter_batches b USING hunter_seen_jobs k
    WHERE k.chat = p_chat AND k.status NOT IN ('sent', 'primed', 'ignored')
      AND k.retry_key IS NOT NULL
      AND (b.retry_key = k.retry_key OR b.retry_key LIKE k.retry_key || '#attempt-%');
    DELETE FROM hunter_seen_jobs WHERE chat = p_chat AND status NOT IN ('sent', 'primed', 'ignored');
    RETURN true;
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

CREATE OR REPLACE FUNCTION hunter_subscriber_rows()
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at FROM hunter_subscribers s
    WHERE s.status <> 'left' ORDER BY s.joined_at, s.chat;
$$;

CREATE OR REPLACE FUNCTION hunter_subscriber_row(p_chat text)
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at FROM hunter_subscribers s
    WHERE s.chat = p_chat AND s.status <> 'left';
$$;

-- The status's counts: in, waiting for approval, joins and leaves since p_since, the oldest
-- listing waiting for a subscriber, and the listings subscribers were sent since p_recent.
CREATE OR REPLACE FUNCTION hunter_membership_counts(p_since timestamptz, p_recent timestamptz)
RETURNS TABLE (active bigint, asked bigint, joined bigint, gone bigint,
               oldest_waiting timestamptz, sent_recently bigint)
LANGUAGE sql STABLE AS $$
    SELECT (SELECT count(*) FROM hunter_subscribers WHERE status = 'active'),
           (SELECT count(*) FROM hunter_subscribers WHERE status = 'asked'),
           (SELECT count(*) FROM hunter_membership WHERE change = 'join' AND at >= p_since),
           (SELECT count(*) FROM hunter_membership WHERE change = 'leave' AND at >= p_since),
           (SELECT min(k.first_seen_at) FROM hunter_seen_jobs k
            WHERE k.status = 'pending'
              AND k.chat IN (SELECT s.chat FROM hunter_subscribers s WHERE s.status = 'active')),
           (SELECT count(*) FROM hunter_seen_jobs k
            WHERE k.status = 'sent' AND k.sent_at >= p_recent
              AND k.chat IN (SELECT s.chat FROM hunter_subscribers s));
$$;

-- A notice of hunter's own for one chat (a subscriber let in is told so in its own chat).
CREATE OR REPLACE FUNCTION hunter_enqueue_for(
    p_chat text, p_job_id text, p_listing jsonb, p_now timestamptz
)
RETURNS boolean
LANGUAGE sql AS $$
    WITH queued AS (
        INSERT INTO hunter_seen_jobs (job_id, chat, source, status, listing, first_seen_at,
                                      last_seen_at)
        VALUES (p_job_id, p_chat, 'hunter', 'pending', p_listing, p_now, p_now)
        ON CONFLICT (job_id, chat) DO NOTHING
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM queued);
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '19')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 19;
