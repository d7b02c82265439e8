-- The rooms' read-only queries, one a status line or a chat's answer
-- (hunter/store/functions/carrier.py's READS).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- The chats waiting for the owner that gave a name, with it.
CREATE OR REPLACE FUNCTION hunter_asker_names()
RETURNS TABLE (chat text, name text) LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.name FROM hunter_subscribers s
    WHERE s.status = 'asked' AND s.name IS NOT NULL AND s.name <> '';
$$;

CREATE OR REPLACE FUNCTION hunter_batch_body(p_key text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT body FROM hunter_batches WHERE retry_key = p_key;
$$;

-- The state of each of one chat's rows, by listing id (a listing has a row in each chat).
CREATE OR REPLACE FUNCTION hunter_chat_job_states(p_chat text)
RETURNS TABLE (job_id text, status text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status FROM hunter_seen_jobs j WHERE j.chat = p_chat ORDER BY j.job_id;
$$;

-- Each mark with its chat (hunter_marks_rows stays as it was, for the release before; a new
-- name, since `hunter schema` pasted again re-creates the old one as it was).
CREATE OR REPLACE FUNCTION hunter_chat_marks_rows(p_mark text)
RETURNS TABLE (job_id text, chat text, mark text, listing jsonb, marked_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT k.job_id, k.chat, k.mark, k.listing, k.marked_at FROM hunter_marks k
    WHERE k.mark = p_mark ORDER BY k.marked_at DESC, k.job_id, k.chat;
$$;

-- The rows `hunter status` shows say whose they are.
-- Since version 15 a listing's rows in two chats share its id; the chat was part of the id
-- before. A new name, since `hunter schema` pasted again re-creates hunter_outbox_rows as it
-- was (a function's columns cannot change in place), and the release before still calls it.
CREATE OR REPLACE FUNCTION hunter_chat_outbox_rows(p_limit integer)
RETURNS TABLE (job_id text, chat text, status text, listing jsonb, attempts integer,
               next_attempt_at timestamptz, claimed_by text, claimed_at timestamptz,
               error_kind text, last_error text, first_seen_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.chat, j.status, j.listing, j.attempts, j.next_attempt_at, j.claimed_by,
           j.claimed_at, j.error_kind, j.last_error, j.first_seen_at
    -- ... and the waiting rows whose chat something holds (its channel out of reach): why
    FROM hunter_seen_jobs j
    WHERE j.status IN ('sending', 'retry', 'stuck')
       OR (j.status = 'pending' AND j.last_error IS NOT NULL)
    ORDER BY j.status = 'pending', j.status, j.first_seen_at, j.job_id, j.chat LIMIT p_limit;
$$;

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

CREATE OR REPLACE FUNCTION hunter_chats_rows()
RETURNS TABLE (name text, to_id text, members integer, members_at timestamptz, month text,
               spent integer)
LANGUAGE sql STABLE AS $$
    SELECT c.name, c.to_id, c.members, c.members_at, c.month, c.spent FROM hunter_chats c
    ORDER BY c.name;
$$;

-- As in version 8, in the order of listing and chat.
CREATE OR REPLACE FUNCTION hunter_find_listing(p_ids text[], p_url text)
RETURNS TABLE (job_id text, chat text, status text, listing jsonb,
               first_seen_at timestamptz, sent_at timestamptz, last_error text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.chat, j.status, j.listing, j.first_seen_at, j.sent_at, j.last_error
    FROM hunter_seen_jobs j
    WHERE j.job_id = ANY (p_ids) OR (p_url IS NOT NULL AND j.listing->>'url' = p_url)
    ORDER BY j.job_id, j.chat LIMIT 20;
$$;

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

CREATE OR REPLACE FUNCTION hunter_meta_rows()
RETURNS TABLE (key text, value text)
LANGUAGE sql STABLE AS $$
    SELECT m.key, m.value FROM hunter_meta m ORDER BY m.key;
$$;

CREATE OR REPLACE FUNCTION hunter_next_due()
RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT min(next_attempt_at) FROM hunter_seen_jobs WHERE status = 'retry';
$$;

CREATE OR REPLACE FUNCTION hunter_outbox_counts()
RETURNS TABLE (status text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.status, count(*) FROM hunter_seen_jobs j
    WHERE j.status IN ('pending', 'sending', 'retry', 'stuck') GROUP BY j.status;
$$;

-- A quiet run asks once whether anything may be claimed (a new row, a retry due, a
-- transient stuck row due, a batch whose sender died) and when the next retry is due,
-- instead of a claim of each kind and a look at the next retry: over Supabase each call
-- crosses the internet. The same conditions as hunter_claim_due and hunter_claim_chat.
CREATE OR REPLACE FUNCTION hunter_outbox_look(p_now timestamptz, p_lease_before timestamptz)
RETURNS TABLE (claimable boolean, next_due timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT
        EXISTS (SELECT 1 FROM hunter_seen_jobs WHERE status = 'pending')
        OR EXISTS (
            SELECT 1 FROM hunter_seen_jobs k
            WHERE k.retry_key IS NOT NULL AND (
                  (k.status = 'retry' AND k.next_attempt_at <= p_now)
               OR (k.status = 'stuck' AND k.error_kind = 'transient' AND k.next_attempt_at <= p_now)
               OR (k.status = 'sending' AND k.claimed_at < p_lease_before))),
        (SELECT min(next_attempt_at) FROM hunter_seen_jobs WHERE status = 'retry');
$$;

CREATE OR REPLACE FUNCTION hunter_pace_row()
RETURNS TABLE (month text, tat double precision, pushes integer)
LANGUAGE sql STABLE AS $$
    SELECT p.month, p.tat, p.pushes FROM hunter_pace p WHERE p.id = 1;
$$;

-- What waits for each chat, by state (`hunter status`): pending and retry go by themselves,
-- stuck waits for a hand.
CREATE OR REPLACE FUNCTION hunter_waiting_by_chat()
RETURNS TABLE (chat text, status text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.chat, j.status, count(*) FROM hunter_seen_jobs j
    WHERE j.status IN ('pending', 'retry', 'stuck')
    GROUP BY j.chat, j.status ORDER BY j.chat, j.status;
$$;

CREATE OR REPLACE FUNCTION hunter_pending_by_chat()
RETURNS TABLE (chat text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.chat, count(*) FROM hunter_seen_jobs j WHERE j.status = 'pending'
    GROUP BY j.chat ORDER BY j.chat;
$$;

-- The days' sums with the merges: a new name, since 016's hunter_reads_by_day, which an older
-- hunter still calls during a deploy, cannot change its answer's shape (and `hunter schema`
-- pasted again re-creates it as it was).
CREATE OR REPLACE FUNCTION hunter_reads_of_days(p_days text)
RETURNS TABLE (source text, day integer, new bigint, matching bigint, failed bigint,
               reads bigint, merged bigint)
LANGUAGE sql STABLE AS $$
    SELECT r.source, (d.n - 1)::integer, sum(r.new), sum(r.matching), count(r.error), count(*),
           sum(r.merged)
    FROM jsonb_array_elements(p_days::jsonb) WITH ORDINALITY AS d(span, n)
    JOIN hunter_reads r ON r.read_at >= (d.span->>0)::timestamptz
                       AND r.read_at < (d.span->>1)::timestamptz
    GROUP BY r.source, d.n ORDER BY r.source, d.n;
$$;

CREATE OR REPLACE FUNCTION hunter_reads_since(p_since timestamptz, p_limit integer)
RETURNS TABLE (source text, read_s double precision, listings integer, new integer,
               matching integer, error text, seconds double precision)
LANGUAGE sql STABLE AS $$
    SELECT r.source, extract(epoch FROM r.read_at)::float8, r.listings, r.new, r.matching,
           r.error, r.seconds
    FROM hunter_reads r WHERE r.read_at >= p_since
    ORDER BY r.read_at DESC, r.source LIMIT p_limit;
$$;

CREATE OR REPLACE FUNCTION hunter_recent_listings(p_since timestamptz, p_most integer)
RETURNS TABLE (job_id text, listing jsonb) LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing FROM hunter_seen_jobs j
    WHERE j.chat = '' AND j.source <> 'hunter' AND j.first_seen_at >= p_since
    ORDER BY j.first_seen_at DESC, j.job_id LIMIT p_most;
$$;

CREATE OR REPLACE FUNCTION hunter_recent_sent_chat(p_limit integer, p_chat text)
RETURNS TABLE (job_id text, listing jsonb, sent_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.listing, j.sent_at FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.source <> 'hunter' AND j.chat = p_chat
    ORDER BY j.sent_at DESC, j.job_id LIMIT p_limit;
$$;

CREATE OR REPLACE FUNCTION hunter_sent_by_chat(p_since timestamptz)
RETURNS TABLE (chat text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.chat, count(*) FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.sent_at >= p_since AND j.source <> 'hunter'
    GROUP BY j.chat ORDER BY j.chat;
$$;

CREATE OR REPLACE FUNCTION hunter_sent_rows_since(p_since timestamptz, p_limit integer)
RETURNS TABLE (source text, posted text, found_s double precision, sent_s double precision)
LANGUAGE sql STABLE AS $$
    SELECT j.source, j.listing->>'posted', extract(epoch FROM j.first_seen_at)::float8,
           extract(epoch FROM j.sent_at)::float8
    FROM hunter_seen_jobs j
    WHERE j.status = 'sent' AND j.sent_at >= p_since AND j.source <> 'hunter'
    ORDER BY j.sent_at DESC LIMIT p_limit;
$$;

CREATE OR REPLACE FUNCTION hunter_sent_since(p_since timestamptz)
RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM hunter_seen_jobs WHERE status = 'sent' AND sent_at >= p_since;
$$;

-- The rows with their schedule (a new function, as version 9's: see there why). Version 9's
-- stays: during a deploy the old hunter still runs beside the new one and reads through it.
CREATE OR REPLACE FUNCTION hunter_source_rows()
RETURNS TABLE (name text, primed_at timestamptz, last_poll_at timestamptz,
               last_ok_at timestamptz, last_count integer, last_error text,
               last_good_at timestamptz, fail_streak integer, broken_at timestamptz, etag text,
               last_modified text, validated_url text, not_before timestamptz, shape jsonb,
               shape_version integer, cadence jsonb, read_reason text)
LANGUAGE sql STABLE AS $$
    SELECT s.name, s.primed_at, s.last_poll_at, s.last_ok_at, s.last_count, s.last_error,
           s.last_good_at, s.fail_streak, s.broken_at, s.etag, s.last_modified,
           s.validated_url, s.not_before, s.shape, s.shape_version, s.cadence, s.read_reason
    FROM hunter_sources s ORDER BY s.name;
$$;

-- The sources whose listings link to pages starting with p_prefix ("https://host/"): which
-- source would show a listing hunter never saw. A person asked: a scan is fine. The five
-- that saw one last come first: a source renamed or taken out of hunter.toml saw its last
-- long ago, and must not push a live one out of the five.
CREATE OR REPLACE FUNCTION hunter_sources_linking(p_prefix text)
RETURNS TABLE (source text)
LANGUAGE sql STABLE AS $$
    SELECT j.source FROM hunter_seen_jobs j
    WHERE j.source <> 'hunter' AND left(j.listing->>'url', length(p_prefix)) = p_prefix
    GROUP BY j.source ORDER BY max(j.last_seen_at) DESC, j.source LIMIT 5;
$$;

-- One chat's row with who started it (hunter_subscriber_row, whose answer an older hunter
-- reads, stays as it was: a function's columns cannot change in place).
CREATE OR REPLACE FUNCTION hunter_subscriber_of(p_chat text)
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz,
               started_by text)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at, s.started_by FROM hunter_subscribers s
    WHERE s.chat = p_chat AND s.status <> 'left';
$$;

CREATE OR REPLACE FUNCTION hunter_subscriber_rows()
RETURNS TABLE (chat text, status text, joined_at timestamptz, left_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.chat, s.status, s.joined_at, s.left_at FROM hunter_subscribers s
    WHERE s.status <> 'left' ORDER BY s.joined_at, s.chat;
$$;
