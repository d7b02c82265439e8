-- The PostgreSQL adapter's statements, by name. The work is done by the functions of the
-- schema (shared with the Supabase adapter); these are the calls and the read-only reports.

-- name: record
SELECT status, n FROM hunter_record(%(source)s, %(jobs)s::jsonb, %(now)s, %(prime)s,
                                    %(flood)s, %(notice)s::jsonb);

-- name: claim_new
SELECT * FROM hunter_claim_new(%(worker)s, %(key)s, %(limit)s, %(now)s);

-- name: claim_due
SELECT * FROM hunter_claim_due(%(worker)s, %(now)s, %(lease_before)s);

-- name: mark_sent
SELECT hunter_mark_sent(%(key)s, %(now)s);

-- name: mark_failed
SELECT hunter_mark_failed(%(key)s, %(worker)s, %(status)s, %(error_kind)s, %(error)s,
                          %(next_at)s, %(count_attempt)s);

-- name: split
SELECT hunter_split(%(key)s, %(worker)s, %(groups)s::jsonb, %(now)s);

-- name: note_sources
SELECT * FROM hunter_note_sources(%(notes)s::jsonb, %(now)s, %(broken_after)s);

-- name: claim_prune
SELECT hunter_claim_prune(%(now)s, make_interval(secs => %(every)s));

-- name: prune
SELECT hunter_prune(%(before)s, %(limit)s);

-- name: retry_stuck
SELECT * FROM hunter_retry_stuck(%(ids)s);

-- name: save_batch
INSERT INTO hunter_batches (retry_key, body, created_at) VALUES (%(key)s, %(body)s, %(now)s)
ON CONFLICT (retry_key) DO NOTHING;

-- name: batch_body
SELECT body FROM hunter_batches WHERE retry_key = %(key)s;

-- name: claim_meta
SELECT hunter_claim_meta(%(key)s, %(value)s);

-- name: count_pending
SELECT count(*) FROM hunter_seen_jobs WHERE status = 'pending';

-- name: next_due
SELECT min(next_attempt_at) FROM hunter_seen_jobs WHERE status = 'retry';

-- name: outbox_counts
SELECT status, count(*) FROM hunter_seen_jobs
WHERE status IN ('pending', 'sending', 'retry', 'stuck') GROUP BY status;

-- name: sent_since
SELECT count(*) FROM hunter_seen_jobs WHERE status = 'sent' AND sent_at >= %(since)s;

-- name: outbox_rows
SELECT job_id, status, listing, attempts, next_attempt_at, claimed_by, claimed_at, error_kind,
       last_error, first_seen_at
FROM hunter_seen_jobs WHERE status IN ('sending', 'retry', 'stuck')
ORDER BY status, first_seen_at, job_id LIMIT %(limit)s;

-- name: sources
SELECT name, primed_at, last_poll_at, last_ok_at, last_count, last_error, last_good_at,
       fail_streak, broken_at, etag, last_modified, validated_url, not_before
FROM hunter_sources ORDER BY name;

-- name: meta
SELECT key, value FROM hunter_meta;

-- name: job_states
SELECT job_id, status FROM hunter_seen_jobs ORDER BY job_id;
