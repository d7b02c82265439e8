-- hunter schema, version 1, for PostgreSQL (psycopg) and Supabase (PostgREST rpc).
-- Every multi-step operation is a function, so both adapters share one implementation of the
-- exactly-once semantics, and a poll costs a constant number of round trips.

CREATE TABLE IF NOT EXISTS hunter_meta (
    key   text PRIMARY KEY,                       -- schema_version, last_prune_at, ...
    value text NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_seen_jobs (
    job_id          text PRIMARY KEY,             -- "<source>:<native id>"
    source          text NOT NULL,
    status          text NOT NULL CHECK (status IN
                        ('primed', 'ignored', 'pending', 'sending', 'retry', 'sent', 'stuck')),
    listing         jsonb NOT NULL,               -- title, url, budget, summary: enough to render
    first_seen_at   timestamptz NOT NULL,
    last_seen_at    timestamptz NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,   -- failed transient attempts of the current key
    next_attempt_at timestamptz,
    claimed_by      text,
    claimed_at      timestamptz,
    retry_key       text,                         -- X-Line-Retry-Key, fixed before the first push
    retry_key_at    timestamptz,
    error_kind      text,                         -- transient | permanent | unknown (stuck rows)
    last_error      text,
    sent_at         timestamptz
);
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_outbox
    ON hunter_seen_jobs (status, next_attempt_at)
    WHERE status IN ('pending', 'sending', 'retry', 'stuck');
-- Batches in flight only: sent rows keep their key, and there are millions of them.
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_key ON hunter_seen_jobs (retry_key)
    WHERE status IN ('sending', 'retry', 'stuck');
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_prunable ON hunter_seen_jobs (last_seen_at)
    WHERE status IN ('primed', 'ignored', 'sent');
CREATE INDEX IF NOT EXISTS hunter_seen_jobs_sent ON hunter_seen_jobs (sent_at)
    WHERE status = 'sent';

-- The exact request body of each batch, written before its first push, so that every retry
-- (after a crash, a lost answer, or a deploy of a newer hunter) sends the identical body.
CREATE TABLE IF NOT EXISTS hunter_batches (
    retry_key  text PRIMARY KEY,
    body       text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS hunter_sources (
    name          text PRIMARY KEY,
    primed_at     timestamptz,
    last_poll_at  timestamptz,
    last_ok_at    timestamptz,                  -- last fetch that worked (304 included)
    last_good_at  timestamptz,                  -- last poll that parsed listings
    last_count    integer,
    last_error    text,
    fail_streak   integer NOT NULL DEFAULT 0,   -- bad polls in a row
    broken_at     timestamptz,                  -- set when the "stopped working" alert went out
    etag          text,                         -- conditional GET validators of `url`
    last_modified text,
    validated_url text,
    not_before    timestamptz,                  -- the site asked us to wait (Retry-After)
    lease_owner   text,                         -- share_sources: the replica polling it now
    lease_until   timestamptz
);

-- Record one source's listings: new ids inserted (primed when the source never was, else pending
-- or ignored), known ids refreshed. Returns how many rows each status got. Flood guard: when a
-- primed source shows more than p_flood new listings at once (a site that renumbered them),
-- they are recorded silently and one notice row (p_notice, its title completed here) is queued.
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
    -- The source's row first, before any listing's: instances recording the same source take
    -- their turns here, and no one holding a listing's row ever waits for this one (no cycle,
    -- so no deadlock; the row is held only for this short statement).
    INSERT INTO hunter_sources (name) VALUES (p_source) ON CONFLICT (name) DO NOTHING;
    SELECT s.primed_at IS NOT NULL INTO v_primed FROM hunter_sources s
    WHERE s.name = p_source FOR UPDATE;
    v_primed := v_primed AND NOT p_prime;

    -- Seen again. SKIP LOCKED: a row another instance is touching right now is being refreshed
    -- or claimed by it; waiting for it would only add lock waits, never information.
    UPDATE hunter_seen_jobs j SET last_seen_at = p_now
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k
        WHERE k.job_id IN (SELECT e->>'job_id' FROM jsonb_array_elements(p_jobs) e)
        ORDER BY k.job_id FOR UPDATE SKIP LOCKED);

    IF p_prime THEN  -- a person decided: what is shown now is not to be sent
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

    -- Only ids not stored yet: an insert that met a known row which another transaction is
    -- updating (a claim, a mark) would wait for it, and that one may wait for our refresh.
    RETURN QUERY
    WITH inserted AS (
        INSERT INTO hunter_seen_jobs AS j
            (job_id, source, status, listing, first_seen_at, last_seen_at)
        SELECT e->>'job_id', p_source,
               CASE WHEN NOT v_primed OR v_flood THEN 'primed'
                    WHEN (e->>'matched')::boolean THEN 'pending'
                    ELSE 'ignored' END,
               e->'listing', p_now, p_now
        FROM jsonb_array_elements(p_jobs) e
        WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs k WHERE k.job_id = e->>'job_id')
        ORDER BY e->>'job_id'
        ON CONFLICT (job_id) DO NOTHING
        RETURNING j.status)
    SELECT i.status, count(*) FROM inserted i GROUP BY i.status
    UNION ALL
    SELECT 'flood', v_new WHERE v_flood;
END $$;

-- Claim up to p_limit pending rows as one batch under a new retry key.
CREATE OR REPLACE FUNCTION hunter_claim_new(p_worker text, p_key text, p_limit integer,
                                            p_now timestamptz)
RETURNS SETOF hunter_seen_jobs
LANGUAGE sql AS $$
    UPDATE hunter_seen_jobs j
    SET status = 'sending', claimed_by = p_worker, claimed_at = p_now, retry_key = p_key,
        retry_key_at = p_now, next_attempt_at = NULL, attempts = 0
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k WHERE k.status = 'pending'
        ORDER BY k.first_seen_at, k.job_id LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING j.*;
$$;

-- Claim one existing batch, whole, keeping its retry key: a retry that is due, a parked batch
-- whose probe is due, or a batch whose sender's lease expired (it died mid-push).
CREATE OR REPLACE FUNCTION hunter_claim_due(p_worker text, p_now timestamptz,
                                            p_lease_before timestamptz)
RETURNS SETOF hunter_seen_jobs
LANGUAGE plpgsql AS $$
DECLARE
    v_key text;
BEGIN
    FOR v_key IN
        SELECT k.retry_key FROM hunter_seen_jobs k
        WHERE k.retry_key IS NOT NULL AND (
              (k.status = 'retry' AND k.next_attempt_at <= p_now)
           OR (k.status = 'stuck' AND k.error_kind = 'transient' AND k.next_attempt_at <= p_now)
           OR (k.status = 'sending' AND k.claimed_at < p_lease_before))
        GROUP BY k.retry_key
        ORDER BY bool_or(k.status = 'stuck'), min(coalesce(k.next_attempt_at, k.claimed_at))
        LIMIT 20
    LOOP
        -- The key, not a row, is the unit of ownership: whoever holds this lock owns the batch.
        CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext('hunter_batch:' || v_key));
        PERFORM 1 FROM hunter_seen_jobs
        WHERE retry_key = v_key AND status IN ('sending', 'retry', 'stuck')
        ORDER BY job_id FOR UPDATE;  -- in id order, like every other writer of these rows
        RETURN QUERY
        UPDATE hunter_seen_jobs j
        SET status = 'sending', claimed_by = p_worker, claimed_at = p_now
        WHERE j.retry_key = v_key AND (
              (j.status = 'retry' AND j.next_attempt_at <= p_now)
           OR (j.status = 'stuck' AND j.error_kind = 'transient' AND j.next_attempt_at <= p_now)
           OR (j.status = 'sending' AND j.claimed_at < p_lease_before))
        RETURNING j.*;
        IF FOUND THEN
            RETURN;
        END IF;
    END LOOP;
END $$;

-- LINE accepted the batch: its rows are sent, and every batch parked by transient failures
-- goes back to the queue. Returns how many rows were re-queued.
CREATE OR REPLACE FUNCTION hunter_mark_sent(p_key text, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_requeued integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs
    SET status = 'sent', sent_at = p_now, claimed_by = NULL, next_attempt_at = NULL,
        error_kind = NULL, last_error = NULL
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck');
    DELETE FROM hunter_batches WHERE retry_key = p_key;
    -- In id order, skipping rows another success is re-queueing right now: no lock cycle.
    UPDATE hunter_seen_jobs j
    SET status = 'retry', attempts = 0, next_attempt_at = p_now
    WHERE j.job_id IN (
        SELECT k.job_id FROM hunter_seen_jobs k
        WHERE k.status = 'stuck' AND k.error_kind = 'transient'
        ORDER BY k.job_id FOR UPDATE SKIP LOCKED);
    GET DIAGNOSTICS v_requeued = ROW_COUNT;
    RETURN v_requeued;
END $$;

-- A push failed: the rows of the batch take the state the policy decided. Only the batch's
-- current owner may do this (a worker whose lease expired has lost it).
CREATE OR REPLACE FUNCTION hunter_mark_failed(p_key text, p_worker text, p_status text,
                                              p_error_kind text, p_error text,
                                              p_next_at timestamptz, p_count_attempt boolean)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs
    SET status = p_status, error_kind = p_error_kind, last_error = p_error,
        next_attempt_at = p_next_at, claimed_by = NULL,
        attempts = attempts + CASE WHEN p_count_attempt THEN 1 ELSE 0 END,
        retry_key = CASE WHEN p_status = 'pending' THEN NULL ELSE retry_key END
    WHERE retry_key = p_key AND status = 'sending' AND claimed_by = p_worker;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF p_status = 'pending' AND v_rows > 0 THEN  -- the key is given up: LINE never took it
        DELETE FROM hunter_batches WHERE retry_key = p_key;
    END IF;
    RETURN v_rows;
END $$;

-- Split a batch LINE rejected (400) into smaller batches, each under a new key, due now.
CREATE OR REPLACE FUNCTION hunter_split(p_key text, p_worker text, p_groups jsonb,
                                        p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    PERFORM 1 FROM hunter_seen_jobs
    WHERE retry_key = p_key AND status IN ('sending', 'retry', 'stuck')
    ORDER BY job_id FOR UPDATE;  -- a batch's rows in id order, like everyone else: no cycle
    UPDATE hunter_seen_jobs j
    SET retry_key = g.new_key, retry_key_at = p_now, status = 'retry', next_attempt_at = p_now,
        claimed_by = NULL
    FROM (SELECT e->>'key' AS new_key, jsonb_array_elements_text(e->'ids') AS id
          FROM jsonb_array_elements(p_groups) e) g
    WHERE j.job_id = g.id AND j.retry_key = p_key AND j.status = 'sending'
      AND j.claimed_by = p_worker;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM hunter_batches WHERE retry_key = p_key AND v_rows > 0;
    RETURN v_rows;
END $$;

-- Note each source's poll (one call for all sources) and keep its health. A note's `good` is
-- true (it fetched and parsed listings, or nothing changed), false (a failed fetch, no listings
-- where there used to be some, listings without ids), or null (no verdict). The bad poll that
-- makes `p_broken_after` in a row, and the first good one after, each queue exactly one notice
-- row (the note's broken_notice / recovered_notice): the row lock decides, whoever races.
-- Returns the names of the sources whose notice was queued.
CREATE OR REPLACE FUNCTION hunter_note_sources(p_notes jsonb, p_now timestamptz,
                                               p_broken_after integer)
RETURNS TABLE (source text)
LANGUAGE plpgsql AS $$
DECLARE
    n        record;
    v_streak integer;
    v_broken timestamptz;
    v_notice jsonb;
BEGIN
    FOR n IN
        SELECT * FROM jsonb_to_recordset(p_notes) AS x(
            name text, count integer, error text, good boolean, etag text,
            last_modified text, validated_url text, keep_validators boolean,
            not_before timestamptz, broken_notice jsonb, recovered_notice jsonb)
        ORDER BY name
    LOOP
        INSERT INTO hunter_sources (name) VALUES (n.name) ON CONFLICT (name) DO NOTHING;
        UPDATE hunter_sources s SET
            last_poll_at = p_now,
            last_ok_at = CASE WHEN n.error IS NULL THEN p_now ELSE s.last_ok_at END,
            last_good_at = CASE WHEN n.good AND coalesce(n.count, 0) > 0 THEN p_now
                                ELSE s.last_good_at END,
            last_count = coalesce(n.count, s.last_count),
            last_error = n.error,
            fail_streak = CASE WHEN n.good THEN 0 WHEN NOT n.good THEN s.fail_streak + 1
                               ELSE s.fail_streak END,
            etag = CASE WHEN n.keep_validators THEN s.etag ELSE n.etag END,
            last_modified = CASE WHEN n.keep_validators THEN s.last_modified
                                 ELSE n.last_modified END,
            validated_url = CASE WHEN n.keep_validators THEN s.validated_url
                                 ELSE n.validated_url END,
            not_before = n.not_before
        WHERE s.name = n.name
        RETURNING s.fail_streak, s.broken_at INTO v_streak, v_broken;
        v_notice := NULL;
        IF n.good IS FALSE AND v_streak >= p_broken_after AND v_broken IS NULL THEN
            UPDATE hunter_sources SET broken_at = p_now WHERE name = n.name;
            v_notice := n.broken_notice;
        ELSIF n.good AND v_broken IS NOT NULL THEN
            UPDATE hunter_sources SET broken_at = NULL WHERE name = n.name;
            v_notice := n.recovered_notice;
        END IF;
        IF v_notice IS NOT NULL THEN
            INSERT INTO hunter_seen_jobs
                (job_id, source, status, listing, first_seen_at, last_seen_at)
            VALUES (v_notice->>'job_id', 'hunter', 'pending', v_notice->'listing', p_now, p_now)
            ON CONFLICT (job_id) DO NOTHING;
            source := n.name;
            RETURN NEXT;
        END IF;
    END LOOP;
END $$;

-- share_sources: of these sources, the ones this worker polls now. A source is leased to one
-- replica per interval; a dead replica's lease simply runs out. Returns the names leased.
CREATE OR REPLACE FUNCTION hunter_lease_sources(p_names text[], p_worker text,
                                                p_now timestamptz, p_until timestamptz)
RETURNS TABLE (source text)
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO hunter_sources (name) SELECT n FROM unnest(p_names) n ORDER BY n
    ON CONFLICT (name) DO NOTHING;
    RETURN QUERY  -- rows locked in name order, as every function here locks sources
    UPDATE hunter_sources s SET lease_owner = p_worker, lease_until = p_until
    WHERE s.name IN (SELECT k.name FROM hunter_sources k WHERE k.name = ANY (p_names)
                     ORDER BY k.name FOR UPDATE)
      AND (s.lease_until IS NULL OR s.lease_until <= p_now OR s.lease_owner = p_worker)
    RETURNING s.name;
END $$;

-- Take the daily prune if the last one (by anyone) is older than p_every. True: prune now.
CREATE OR REPLACE FUNCTION hunter_claim_prune(p_now timestamptz, p_every interval)
RETURNS boolean
LANGUAGE sql AS $$
    WITH taken AS (
        INSERT INTO hunter_meta AS m (key, value) VALUES ('last_prune_at', p_now::text)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        WHERE m.value::timestamptz <= p_now - p_every
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM taken);
$$;

-- Delete up to p_limit rows that were done with and not seen since p_before.
CREATE OR REPLACE FUNCTION hunter_prune(p_before timestamptz, p_limit integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_rows integer;
BEGIN
    DELETE FROM hunter_seen_jobs WHERE job_id IN (
        SELECT job_id FROM hunter_seen_jobs
        WHERE status IN ('primed', 'ignored', 'sent') AND last_seen_at < p_before
        LIMIT p_limit);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM hunter_batches b WHERE b.created_at < p_before AND NOT EXISTS (
        SELECT 1 FROM hunter_seen_jobs j
        WHERE j.retry_key = b.retry_key AND j.status IN ('sending', 'retry', 'stuck'));
    RETURN v_rows;
END $$;

-- A person sends stuck rows again (all of them when p_ids is null). Returns their ids.
CREATE OR REPLACE FUNCTION hunter_retry_stuck(p_ids text[])
RETURNS TABLE (job_id text)
LANGUAGE sql AS $$
    UPDATE hunter_seen_jobs j
    SET status = 'pending', attempts = 0, retry_key = NULL, retry_key_at = NULL,
        next_attempt_at = NULL, error_kind = NULL, last_error = NULL, claimed_by = NULL
    WHERE j.status = 'stuck' AND (p_ids IS NULL OR j.job_id = ANY (p_ids))
    RETURNING j.job_id;
$$;

-- Queue a notice of hunter's own (its job id makes it once only); true when it was new.
CREATE OR REPLACE FUNCTION hunter_enqueue(p_job_id text, p_listing jsonb, p_now timestamptz)
RETURNS boolean
LANGUAGE sql AS $$
    WITH queued AS (
        INSERT INTO hunter_seen_jobs (job_id, source, status, listing, first_seen_at,
                                      last_seen_at)
        VALUES (p_job_id, 'hunter', 'pending', p_listing, p_now, p_now)
        ON CONFLICT (job_id) DO NOTHING
        RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM queued);
$$;

-- Reads, as functions too: the Supabase adapter reaches the database only through rpc.

CREATE OR REPLACE FUNCTION hunter_schema_version()
RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT value::integer FROM hunter_meta WHERE key = 'schema_version'), 0);
$$;

CREATE OR REPLACE FUNCTION hunter_sources_rows()
RETURNS TABLE (name text, primed_at timestamptz, last_poll_at timestamptz,
               last_ok_at timestamptz, last_count integer, last_error text,
               last_good_at timestamptz, fail_streak integer, broken_at timestamptz,
               etag text, last_modified text, validated_url text, not_before timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT name, primed_at, last_poll_at, last_ok_at, last_count, last_error, last_good_at,
           fail_streak, broken_at, etag, last_modified, validated_url, not_before
    FROM hunter_sources ORDER BY name;
$$;

CREATE OR REPLACE FUNCTION hunter_outbox_counts()
RETURNS TABLE (status text, n bigint)
LANGUAGE sql STABLE AS $$
    SELECT j.status, count(*) FROM hunter_seen_jobs j
    WHERE j.status IN ('pending', 'sending', 'retry', 'stuck') GROUP BY j.status;
$$;

CREATE OR REPLACE FUNCTION hunter_sent_since(p_since timestamptz)
RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM hunter_seen_jobs WHERE status = 'sent' AND sent_at >= p_since;
$$;

CREATE OR REPLACE FUNCTION hunter_outbox_rows(p_limit integer)
RETURNS TABLE (job_id text, status text, listing jsonb, attempts integer,
               next_attempt_at timestamptz, claimed_by text, claimed_at timestamptz,
               error_kind text, last_error text, first_seen_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status, j.listing, j.attempts, j.next_attempt_at, j.claimed_by,
           j.claimed_at, j.error_kind, j.last_error, j.first_seen_at
    FROM hunter_seen_jobs j WHERE j.status IN ('sending', 'retry', 'stuck')
    ORDER BY j.status, j.first_seen_at, j.job_id LIMIT p_limit;
$$;

CREATE OR REPLACE FUNCTION hunter_meta_rows()
RETURNS TABLE (key text, value text)
LANGUAGE sql STABLE AS $$
    SELECT m.key, m.value FROM hunter_meta m ORDER BY m.key;
$$;

CREATE OR REPLACE FUNCTION hunter_job_states()
RETURNS TABLE (job_id text, status text)
LANGUAGE sql STABLE AS $$
    SELECT j.job_id, j.status FROM hunter_seen_jobs j ORDER BY j.job_id;
$$;

CREATE OR REPLACE FUNCTION hunter_next_due()
RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT min(next_attempt_at) FROM hunter_seen_jobs WHERE status = 'retry';
$$;

CREATE OR REPLACE FUNCTION hunter_count_pending()
RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM hunter_seen_jobs WHERE status = 'pending';
$$;

CREATE OR REPLACE FUNCTION hunter_batch_body(p_key text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT body FROM hunter_batches WHERE retry_key = p_key;
$$;

CREATE OR REPLACE FUNCTION hunter_save_batch(p_key text, p_body text, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_batches (retry_key, body, created_at) VALUES (p_key, p_body, p_now)
    ON CONFLICT (retry_key) DO NOTHING;
$$;

-- Access: hunter's tables are nobody's business but hunter's. Row level security is on with no
-- policy, so only the tables' owner and roles that bypass RLS (Supabase's service_role) see a
-- row. On Supabase, where the Data API roles exist, service_role gets exactly what hunter needs
-- and anon/authenticated get nothing (older projects granted them everything by default).
-- EXECUTE on every hunter function is taken from PUBLIC, which PostgreSQL grants by default.
ALTER TABLE hunter_meta ENABLE ROW LEVEL SECURITY;
ALTER TABLE hunter_seen_jobs ENABLE ROW LEVEL SECURITY;
ALTER TABLE hunter_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE hunter_sources ENABLE ROW LEVEL SECURITY;

DO $$
DECLARE
    f    regprocedure;
    api  text;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = current_schema() AND p.proname LIKE 'hunter\_%'
    LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
        FOREACH api IN ARRAY ARRAY['anon', 'authenticated'] LOOP
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = api) THEN
                EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM %I', f, api);
            END IF;
        END LOOP;
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO service_role', f);
        END IF;
    END LOOP;
    FOREACH api IN ARRAY ARRAY['anon', 'authenticated'] LOOP
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = api) THEN
            EXECUTE format('REVOKE ALL ON hunter_meta, hunter_seen_jobs, hunter_batches, '
                           'hunter_sources FROM %I', api);
        END IF;
    END LOOP;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
        GRANT SELECT, INSERT, UPDATE, DELETE
            ON hunter_meta, hunter_seen_jobs, hunter_batches, hunter_sources TO service_role;
    END IF;
END $$;

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '1')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 1;
