-- hunter schema, version 5: several chats, each with its own filter, and a push paid per
-- member (see hunter/chats.py). A listing matching a configured chat gets an outbox row of its
-- own for that chat ("<job id>#<chat>", chat = the chat's name), next to its row for the
-- owner's chat (LINE_TO, chat = ''): each goes through claim, retry key, lease, split, retry
-- and stuck on its own, so a listing reaches each chat once. The pace counts messages: a push
-- to a group costs its members, as LINE counts it.

ALTER TABLE hunter_seen_jobs ADD COLUMN IF NOT EXISTS chat text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_chat_pending ON hunter_seen_jobs (chat, first_seen_at)
    WHERE status = 'pending';

-- Each chat's recipients (LINE's member count, refreshed daily and when members come or go)
-- and the messages its pushes spent this month.
CREATE TABLE IF NOT EXISTS hunter_chats (
    name       text PRIMARY KEY,               -- '' for LINE_TO, else the [[chats]] name
    to_id      text,                           -- the user, group or room id
    members    integer,                        -- recipients of one push; NULL: not read yet
    members_at timestamptz,
    month      text,
    spent      integer NOT NULL DEFAULT 0      -- messages this month, in `month`
);

-- Mutes belong to the chat where the button was tapped. Version 3's table (one chat) is kept
-- as it was, so that its functions can still be created when `hunter schema` runs again; its
-- mutes move here, as the owner's.
CREATE TABLE IF NOT EXISTS hunter_chat_mutes (
    chat     text NOT NULL,                -- '' for LINE_TO, else the [[chats]] name
    word     text NOT NULL,
    until    timestamptz NOT NULL,
    muted_at timestamptz NOT NULL,
    PRIMARY KEY (chat, word)
);
INSERT INTO hunter_chat_mutes (chat, word, until, muted_at)
SELECT '', m.word, m.until, m.muted_at FROM hunter_mutes m
ON CONFLICT (chat, word) DO NOTHING;
DELETE FROM hunter_mutes;

-- As in version 1, and a new listing also gets a pending row for each chat in its `chats`
-- ([{"chat": name, "listing": {...}}]): never while the source is primed or flooded.
CREATE OR REPLACE FUNCTION hunter_record(p_source text, p_jobs jsonb, p_now timestamptz,
                                         p_prime boolean, p_flood integer DEFAULT 0,
                                         p_notice jsonb DEFAULT NULL)
RETURNS TABLE (status text, n bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_primed boolean;
    v_new    bigint;
    v_flood  boolean := false;
BEGIN
    INSERT INTO hunter_sources (name) VALUES (p_source) ON CONFLICT (name) DO NOTHING;
    SELECT s.primed_at IS NOT NULL INTO v_primed FROM hunter_sources s
    WHERE s.name = p_source FOR UPDATE;
    v_primed := v_primed AND NOT p_prime;

    UPDATE hunter_seen_jobs j SET last_seen_at = p_now
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k
        WHERE k.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e)
        ORDER BY k.job_id FOR UPDATE SKIP LOCKED);

    IF p_prime THEN
        UPDATE hunter_seen_jobs j
        SET status = 'primed', retry_key = NULL, claimed_by = NULL, error_kind = NULL,
            last_error = NULL, next_attempt_at = NULL
        WHERE j.status IN ('pending', 'retry', 'stuck')
          AND j.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e);
    END IF;

    IF v_primed AND p_flood > 0 AND p_notice IS NOT NULL THEN
        SELECT count(*) INTO v_new FROM jsonb_array_elements(p_jobs) e
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = e->>'job_id');
        IF v_new > p_flood THEN
            v_flood := true;
            INSERT INTO hunter_seen_jobs
                (job_id, source, status, listing, first_seen_at, last_seen_at)
            SELECT p_notice->>'job_id', 'hunter', 'pending',
                   jsonb_set(p_notice->'listing', '{title}', to_jsonb(format(
                       p_notice->'listing'->>'title', v_new))),
                   p_now, p_now
            ON CONFLICT (job_id) DO NOTHING;
        END IF;
    END IF;

    IF p_prime OR jsonb_array_length(p_jobs) > 0 THEN
        UPDATE hunter_sources SET primed_at = coalesce(primed_at, p_now) WHERE name = p_source;
    END IF;

    RETURN QUERY
    WITH fresh AS (
        SELECT e FROM jsonb_array_elements(p_jobs) e
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs k WHERE k.job_id = e->>'job_id')
    ),
    inserted AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at)
        SELECT f.e->>'job_id', p_source,
               CASE WHEN NOT v_primed OR v_flood THEN 'primed'
                    WHEN (f.e->>'matched')::boolean THEN 'pending'
                    ELSE 'ignored' END,
               f.e->'listing', p_now, p_now
        FROM fresh f
        ORDER BY f.e->>'job_id'
        ON CONFLICT (job_id) DO NOTHING
        RETURNING j.job_id, j.status),
    for_chats AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at, chat)
        SELECT (f.e->>'job_id') || '#' || (c->>'chat'), p_source, 'pending', c->'listing',
               p_now, p_now, c->>'chat'
        FROM fresh f
        JOIN inserted i ON i.job_id = f.e->>'job_id'
        CROSS JOIN LATERAL jsonb_array_elements(coalesce(f.e->'chats', '[]'::jsonb)) c
        WHERE v_primed AND NOT v_flood
        ORDER BY 1
        ON CONFLICT (job_id) DO NOTHING
        RETURNING j.status)
    SELECT i.status, count(*) FROM inserted i GROUP BY i.status
    UNION ALL
    SELECT 'chats', count(*) FROM for_chats HAVING count(*) > 0
    UNION ALL
    SELECT 'flood', v_new WHERE v_flood;
END $$;

-- Up to p_limit pending rows of one chat, as one batch under a new retry key.
CREATE OR REPLACE FUNCTION hunter_claim_chat(p_worker text, p_key text, p_limit integer,
                                             p_now timestamptz, p_chat text)
RETURNS SETOF hunter_seen_jobs
LANGUAGE sql AS $$
    UPDATE hunter_seen_jobs j
    SET status = 'sending', claimed_by = p_worker, claimed_at = p_now, retry_key = p_key,
        retry_key_at = p_now, next_attempt_at = NULL, attempts = 0
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k WHERE k.status = 'pending' AND k.chat = p_chat
        ORDER BY k.first_seen_at, k.job_id LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING j.*;
$$;

CREATE OR REPLACE FUNCTION hunter_pending_by_chat()
RETURNS TABLE (chat text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.chat, count(*) FROM hunter_seen_jobs j WHERE j.status = 'pending'
    GROUP BY j.chat ORDER BY j.chat;
$$;

CREATE OR REPLACE FUNCTION hunter_recent_sent_chat(p_limit integer, p_chat text)
RETURNS TABLE (job_id text, listing jsonb, sent_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing, j.sent_at FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.source <> 'hunter' AND j.chat = p_chat
    ORDER BY j.sent_at DESC, j.job_id LIMIT p_limit;
$$;

-- Claim one push costing p_cost messages (a chat's members) for chat p_chat: as version 2's
-- hunter_claim_push, with the pace advanced and the cap checked by the cost, and the chat's
-- spending counted.
CREATE OR REPLACE FUNCTION hunter_claim_messages(p_month text, p_now double precision,
                                                 p_interval double precision,
                                                 p_tolerance double precision, p_cap integer,
                                                 p_notice boolean, p_at timestamptz,
                                                 p_cost integer, p_chat text)
RETURNS TABLE (month text, tat double precision, pushes integer, granted boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_month   text;
    v_tat     double precision;
    v_pushes  integer;
    v_granted boolean;
BEGIN
    INSERT INTO hunter_pace AS p (id, month, tat, pushes, updated_at)
    VALUES (1, p_month, p_now, 0, p_at) ON CONFLICT (id) DO NOTHING;
    SELECT p.month, p.tat, p.pushes INTO v_month, v_tat, v_pushes
    FROM hunter_pace p WHERE p.id = 1 FOR UPDATE;
    IF v_month <> p_month THEN
        v_month := p_month;
        v_tat := p_now;
        v_pushes := 0;
    END IF;
    v_granted := v_pushes + p_cost <= p_cap AND (p_notice OR v_tat - p_tolerance <= p_now);
    IF v_granted THEN
        v_pushes := v_pushes + p_cost;
        IF NOT p_notice THEN
            v_tat := greatest(v_tat, p_now) + p_interval * p_cost;
        END IF;
        INSERT INTO hunter_chats AS c (name, month, spent) VALUES (p_chat, p_month, p_cost)
        ON CONFLICT (name) DO UPDATE SET
            spent = CASE WHEN c.month = excluded.month THEN c.spent + excluded.spent
                         ELSE excluded.spent END,
            month = excluded.month;
    END IF;
    UPDATE hunter_pace p SET month = v_month, tat = v_tat, pushes = v_pushes, updated_at = p_at
    WHERE p.id = 1;
    RETURN QUERY SELECT v_month, v_tat, v_pushes, v_granted;
END $$;

CREATE OR REPLACE FUNCTION hunter_set_members(p_chat text, p_to text, p_members integer,
                                              p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chats AS c (name, to_id, members, members_at)
    VALUES (p_chat, p_to, p_members, p_now)
    ON CONFLICT (name) DO UPDATE SET
        to_id = excluded.to_id, members = excluded.members, members_at = excluded.members_at;
$$;

-- Members came or went (LINE's webhook): the count is read again before the next push.
CREATE OR REPLACE FUNCTION hunter_forget_members(p_to text)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_chats SET members_at = NULL WHERE to_id = p_to;
$$;

CREATE OR REPLACE FUNCTION hunter_chats_rows()
RETURNS TABLE (name text, to_id text, members integer, members_at timestamptz, month text,
               spent integer)
LANGUAGE sql STABLE AS $$
    SELECT c.name, c.to_id, c.members, c.members_at, c.month, c.spent FROM hunter_chats c
    ORDER BY c.name;
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

CREATE OR REPLACE FUNCTION hunter_chat_mutes(p_now timestamptz)
RETURNS TABLE (chat text, word text, until timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT m.chat, m.word, m.until FROM hunter_chat_mutes m WHERE m.until > p_now
    ORDER BY m.chat, m.word;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '5')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 5;
