-- hunter schema, version 29: the name a chat that asks to join gave with its Start (issue 62,
-- low 7: the owner's card of asks that a poll makes named no one, "10 ids, 0 names, and 990
-- more"). Kept only while the chat waits: approving it clears it, refusing or /forget deletes
-- the row. At most NAME_MOST characters (hunter/store/subscribers.py), cut by hunter.
ALTER TABLE hunter_subscribers ADD COLUMN IF NOT EXISTS name text;

-- The join of 027_turns.sql with the name: an older hunter still calls it (p_name has a
-- default), and its answers are the same.
DROP FUNCTION IF EXISTS hunter_subscriber_join(text, boolean, integer, timestamptz, text);
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

CREATE OR REPLACE FUNCTION hunter_subscriber_approve(p_chat text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hunter_subscribers SET status = 'active', joined_at = p_now, name = NULL
    WHERE chat = p_chat AND status = 'asked';
    RETURN FOUND;
END $$;

-- The chats waiting for the owner that gave a name, with it.
CREATE OR REPLACE FUNCTION hunter_asker_names()
RETURNS TABLE (chat text, name text) LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.name FROM hunter_subscribers s
    WHERE s.status = 'asked' AND s.name IS NOT NULL AND s.name <> '';
$$;

-- Supabase's Data API reaches the new functions only as hunter's own role.
SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '29')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 29;
