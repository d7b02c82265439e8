-- hunter schema, version 4: webhook events are kept until they are handled (hunter/chat/).
-- LINE does not send an event again once it got its 200, so the event is written here before
-- the 200 and handled after it: a replica that stops (a deploy, a crash) leaves what it had
-- not handled to be taken over once its hold runs out. And "this bot is private" is said to a
-- stranger's chat once in a long while, not to every message.

ALTER TABLE hunter_events ADD COLUMN IF NOT EXISTS chat_id text;
ALTER TABLE hunter_events ADD COLUMN IF NOT EXISTS payload jsonb;      -- the event as LINE sent it
ALTER TABLE hunter_events ADD COLUMN IF NOT EXISTS held_by text;       -- the worker handling it
ALTER TABLE hunter_events ADD COLUMN IF NOT EXISTS held_at timestamptz;
ALTER TABLE hunter_events ADD COLUMN IF NOT EXISTS handled_at timestamptz;  -- NULL: not yet
-- Events of the releases before this one were handled the moment they were claimed.
UPDATE hunter_events SET handled_at = received_at WHERE handled_at IS NULL AND payload IS NULL;
CREATE INDEX IF NOT EXISTS hunter_events_waiting ON hunter_events (held_at)
    WHERE handled_at IS NULL;

CREATE TABLE IF NOT EXISTS hunter_chat_notes (
    chat_id    text PRIMARY KEY,               -- a user, group or room that is not configured
    private_at timestamptz NOT NULL            -- when it was last told the bot is private
);

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

CREATE OR REPLACE FUNCTION hunter_event_handled(p_event_id text, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_events SET handled_at = p_now, payload = NULL WHERE event_id = p_event_id;
$$;

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

-- A stopping worker lets go of the events it has not started.
CREATE OR REPLACE FUNCTION hunter_release_events(p_event_ids text[], p_worker text)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_events SET held_by = NULL
    WHERE event_id = ANY (p_event_ids) AND held_by = p_worker AND handled_at IS NULL;
$$;

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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '4')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 4;
