-- hunter schema, version 27: a turn of something hunter does at most every so often for
-- everyone (issue 55: the owner's card of the chats that ask to join, at most one every few
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

-- A bucket's look-up costs the same whatever one board shows (issue 55, high 3). 025's note
-- answered every earlier listing of a fresh one's title and employer: a board showing 1,000
-- new listings of one title a read made each read slower by 0.9 s per 1,000 kept. Now each
-- fresh (title, employer) asks for at most 32 of the newest earlier listings of each kind
-- that could be its first copy (the same employer, or none stated on one side), each an
-- index range scan with a limit. Same arguments and answer as 025, bounded.
-- Each with the order it is read in (the newest first, job ids apart), so that a look-up
-- reads its 32 rows from the index and sorts nothing, however many share its title.
CREATE INDEX IF NOT EXISTS hunter_likeness_bucket
    ON hunter_likeness (title, (coalesce(likeness->>'company', '')), seen_at, job_id);
DROP INDEX IF EXISTS hunter_likeness_title;
CREATE INDEX hunter_likeness_title ON hunter_likeness (title, seen_at, job_id);

CREATE OR REPLACE FUNCTION hunter_likeness_note(
    p_jobs jsonb, p_since timestamptz, p_now timestamptz, p_keep boolean DEFAULT true
)
RETURNS TABLE (job_id text, source text, title text, likeness jsonb, seen_at timestamptz,
               fresh boolean, chats text[])
-- A bucket is read from its index, newest first, whatever the planner guesses of its size
-- (a guess from before a board filled it chose a bitmap scan and a sort of the whole bucket).
LANGUAGE sql SET enable_bitmapscan = off AS $$
    WITH batch AS (
        SELECT e->>'job_id' AS job_id, e->>'source' AS source, e->>'title' AS title,
               e->'likeness' AS likeness, coalesce(e->'likeness'->>'company', '') AS company
        FROM jsonb_array_elements(p_jobs) e
    ),
    fresh AS (
        SELECT b.* FROM batch b
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = b.job_id)
    ),
    kept AS (
        INSERT INTO hunter_likeness (job_id, source, title, likeness, seen_at)
        SELECT f.job_id, f.source, f.title, f.likeness, p_now FROM fresh f
        WHERE p_keep AND f.title <> ''
        ORDER BY f.job_id
        ON CONFLICT (job_id) DO NOTHING
        RETURNING 1
    ),
    asked AS (SELECT DISTINCT f.title, f.company FROM fresh f WHERE f.title <> ''),
    candidates AS (
        SELECT c.* FROM asked a CROSS JOIN LATERAL (  -- the same employer, or none both
            SELECT x.job_id, x.source, x.title, x.likeness, x.seen_at FROM hunter_likeness x
            WHERE x.title = a.title AND coalesce(x.likeness->>'company', '') = a.company
              AND x.seen_at >= p_since AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
        UNION
        SELECT c.* FROM asked a CROSS JOIN LATERAL (  -- it states one, the earlier none
            SELECT x.job_id, x.source, x.title, x.likeness, x.seen_at FROM hunter_likeness x
            WHERE a.company <> '' AND x.title = a.title
              AND coalesce(x.likeness->>'company', '') = '' AND x.seen_at >= p_since
              AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
        UNION
        SELECT c.* FROM asked a CROSS JOIN LATERAL (  -- it states none: any employer
            SELECT x.job_id, x.source, x.title, x.likeness, x.seen_at FROM hunter_likeness x
            WHERE a.company = '' AND x.title = a.title AND x.seen_at >= p_since
              AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
    )
    SELECT f.job_id, f.source, f.title, NULL::jsonb, NULL::timestamptz, true, NULL::text[]
    FROM fresh f
    UNION ALL
    SELECT * FROM (
        SELECT l.job_id, l.source, l.title, l.likeness, l.seen_at, false,
               ARRAY(SELECT j.chat FROM hunter_seen_jobs j
                     WHERE j.job_id = l.job_id
                       AND j.status IN ('pending', 'sending', 'retry', 'sent', 'stuck')
                     ORDER BY j.chat)
        FROM candidates l
        ORDER BY l.seen_at, l.job_id
    ) earlier;
$$;

-- A copy merged into an alert while the alert still waited is shown by the alert's own push
-- ("also on", issue 55): its edit is no longer due once it is sent (024 edited it again, and
-- on a channel that edits nothing, the copy was told twice). Same arguments and answer.
CREATE OR REPLACE FUNCTION hunter_edits_claim(p_now timestamptz, p_stale timestamptz, p_limit integer)
RETURNS TABLE (chat text, retry_key text, sent_ref text, claimed_at timestamptz, listings jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH due AS (
        SELECT DISTINCT d.chat, d.retry_key FROM hunter_seen_jobs d
        WHERE d.edit_due_at IS NOT NULL AND d.edit_due_at <= p_now AND d.status = 'sent'
          AND d.edit_due_at >= d.sent_at
          AND d.retry_key IS NOT NULL
          AND (d.edit_claimed_at IS NULL OR d.edit_claimed_at < p_stale)
        LIMIT p_limit),
    locked AS (
        SELECT j.job_id, j.chat FROM hunter_seen_jobs j
        JOIN due ON j.chat = due.chat AND j.retry_key = due.retry_key
        WHERE j.edit_due_at IS NOT NULL
        ORDER BY j.job_id, j.chat FOR UPDATE OF j SKIP LOCKED),
    claimed AS (
        UPDATE hunter_seen_jobs j SET edit_claimed_at = p_now
        FROM locked WHERE j.job_id = locked.job_id AND j.chat = locked.chat
        RETURNING j.chat, j.retry_key)
    SELECT m.chat, m.retry_key,
           (SELECT max(r.sent_ref) FROM hunter_seen_jobs r
            WHERE r.chat = m.chat AND r.retry_key = m.retry_key),
           p_now,
           (SELECT jsonb_agg(jsonb_build_object('job_id', r.job_id, 'listing', r.listing,
                                                'also', coalesce(r.also, '[]'::jsonb))
                             ORDER BY r.first_seen_at, r.job_id)
            FROM hunter_seen_jobs r
            WHERE r.chat = m.chat AND r.retry_key = m.retry_key AND r.status = 'sent')
    FROM (SELECT DISTINCT c.chat, c.retry_key FROM claimed c) m;
END $$;

-- A channel's moments to send are timed by the database's clock (issue 55, medium 7). 026
-- timed them by each replica's: one whose clock ran 50 s fast took the moments 50 s ahead,
-- and the others waited 5 s a message (Telegram: 28 messages a second fell to 0.2). The row
-- now holds the database's time; a sender's `p_now` is only how it asks, and the answer is in
-- its own clock again (the database's first moment plus how far the sender's clock is off).
CREATE OR REPLACE FUNCTION hunter_take_slots(
    p_channel text, p_count integer, p_gap double precision, p_now double precision
)
RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE
    v_db double precision := extract(epoch FROM clock_timestamp());
    v_first double precision;
BEGIN
    INSERT INTO hunter_send_slots AS s (channel, tat, updated_at)
    VALUES (p_channel, v_db + p_count * p_gap, now())
    ON CONFLICT (channel) DO UPDATE
    SET tat = CASE WHEN s.tat > v_db + 60 THEN v_db ELSE greatest(s.tat, v_db) END
              + p_count * p_gap,
        updated_at = now()
    RETURNING s.tat - p_count * p_gap INTO v_first;
    RETURN v_first - v_db + p_now;
END $$;

-- Strangers who ask, and the counts of who joined (issue 55, medium 6 and 9; the join is
-- below, with who started it). An ask nobody
-- answers expires after a week (a Start asks again) and counts against `max` only until
-- then; asks fill at most half of `max` (at least one), so that five unanswered Starts no
-- longer close a bot of `max = 5`. Every /start and /stop was a row of hunter_membership for
-- 45 days (about 94 MB a chat at 20 commands a minute) and the status counted commands as
-- people ("30 joined, 30 left" from one chat): the counts are now of chats, from their one
-- row (joined since: its joined_at; left since: its left_at), and nothing more is written.
-- Who started a group's subscription (issue 55, medium 4): in a group only they, or the
-- group's administrators, change it. `started_by` is the user's id on the chat's channel,
-- kept with the chat's row (a /forget deletes it with the rest). An older hunter's call of
-- hunter_subscriber_join (a deploy overlapping it) still finds it: p_by has a default.
ALTER TABLE hunter_subscribers ADD COLUMN IF NOT EXISTS started_by text;

DROP FUNCTION IF EXISTS hunter_subscriber_join(text, boolean, integer, timestamptz);
CREATE OR REPLACE FUNCTION hunter_subscriber_join(
    p_chat text, p_asked boolean, p_most integer, p_now timestamptz, p_by text DEFAULT NULL
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
    INSERT INTO hunter_subscribers AS s (chat, status, joined_at, left_at, started_by)
    VALUES (p_chat, CASE WHEN p_asked THEN 'asked' ELSE 'active' END, p_now, NULL, p_by)
    ON CONFLICT (chat) DO UPDATE
        SET status = excluded.status, joined_at = excluded.joined_at, left_at = NULL,
            started_by = excluded.started_by;
    RETURN CASE WHEN p_asked THEN 'asked' ELSE 'joined' END;
END $$;

-- One chat's row with who started it (hunter_subscriber_row, whose answer an older hunter
-- reads, stays as it was: a function's columns cannot change in place).
CREATE OR REPLACE FUNCTION hunter_subscriber_of(p_chat text)
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz,
               started_by text)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at, s.started_by FROM hunter_subscribers s
    WHERE s.chat = p_chat AND s.status <> 'left';
$$;

CREATE OR REPLACE FUNCTION hunter_subscriber_approve(p_chat text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hunter_subscribers SET status = 'active', joined_at = p_now
    WHERE chat = p_chat AND status = 'asked';
    RETURN FOUND;
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

CREATE OR REPLACE FUNCTION hunter_membership_counts(p_since timestamptz, p_recent timestamptz)
RETURNS TABLE (active bigint, asked bigint, joined bigint, gone bigint,
               oldest_waiting timestamptz, sent_recently bigint)
LANGUAGE sql STABLE AS $$
    SELECT (SELECT count(*) FROM hunter_subscribers WHERE status = 'active'),
           (SELECT count(*) FROM hunter_subscribers WHERE status = 'asked'),
           (SELECT count(*) FROM hunter_subscribers
            WHERE status <> 'asked' AND joined_at >= p_since),
           (SELECT count(*) FROM hunter_subscribers WHERE status = 'left' AND left_at >= p_since),
           (SELECT min(k.first_seen_at) FROM hunter_seen_jobs k
            WHERE k.status = 'pending'
              AND k.chat IN (SELECT s.chat FROM hunter_subscribers s WHERE s.status = 'active')),
           (SELECT count(*) FROM hunter_seen_jobs k
            WHERE k.status = 'sent' AND k.sent_at >= p_recent
              AND k.chat IN (SELECT s.chat FROM hunter_subscribers s));
$$;

-- A group that became a supergroup (issue 55, medium 5): Telegram gives it a new id, and the
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

-- The languages a chat reads, set from its chat (issue 54: "ภาษา en th", "languages all"), kept
-- with its other settings, so that /forget, a reset and a supergroup's move take them too.
-- NULL: hunter.toml's; '': every language; else ISO 639-1 codes apart by spaces. Of two
-- changes said at once on two replicas, the later one wins (languages_at), as for the budget.
ALTER TABLE hunter_chat_settings
    ADD COLUMN IF NOT EXISTS languages text,
    ADD COLUMN IF NOT EXISTS languages_at timestamptz;

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

-- A chat's settings row says its languages in `word` (an older hunter reads no `word` there).
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
    SELECT f.chat, 'floor', f.currency || '/' || f.period, NULL, f.amount, NULL
    FROM hunter_chat_floors f
    ORDER BY 1, 2, 3;
$$;

-- A cron run's look, in one round trip (issue 56): the run's time kept with the last ones,
-- every source's row, whether anything in the outbox may be claimed and when the next retry
-- is due, and the daily prune's claim. A run with nothing due costs this call and the store's
-- opening, where it cost five; the functions it calls are the ones a run called one by one.
CREATE OR REPLACE FUNCTION hunter_poll_look(
    p_now timestamptz, p_keep integer, p_lease_before timestamptz, p_prune_every interval
)
RETURNS TABLE (look_ticks text, look_sources jsonb, look_claimable boolean,
               look_next_due timestamptz, look_prune boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_ticks text := hunter_tick(p_now, p_keep);
    v_prune boolean := hunter_claim_prune(p_now, p_prune_every);
BEGIN
    RETURN QUERY
    SELECT v_ticks,
           coalesce((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.name) FROM hunter_source_rows() r),
                    '[]'::jsonb),
           l.claimable, l.next_due, v_prune
    FROM hunter_outbox_look(p_now, p_lease_before) l;
END $$;

-- A poll's notes of its sources and its reads kept for the history, in one round trip
-- (issue 56). The history is for people to look at: a database that refuses it (in a
-- subtransaction of its own) fails no note, as the two calls did apart.
CREATE OR REPLACE FUNCTION hunter_note_reads(
    p_notes jsonb, p_now timestamptz, p_broken_after integer, p_reads jsonb
)
RETURNS TABLE (source text) LANGUAGE plpgsql AS $$
BEGIN
    IF jsonb_array_length(coalesce(p_reads, '[]'::jsonb)) > 0 THEN
        BEGIN
            PERFORM hunter_keep_reads(p_reads);
        EXCEPTION WHEN OTHERS THEN
            RAISE WARNING 'the reads of this poll were not kept for the history: %', SQLERRM;
        END;
    END IF;
    RETURN QUERY SELECT n.source FROM hunter_note_sources(p_notes, p_now, p_broken_after) n;
END $$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '27')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 27;
