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

-- name: lease_sources
SELECT * FROM hunter_lease_sources(%(names)s, %(worker)s, %(now)s, %(until)s);

-- name: claim_prune
SELECT hunter_claim_prune(%(now)s, make_interval(secs => %(every)s));

-- name: prune
SELECT hunter_prune(%(before)s, %(limit)s);

-- name: retry_stuck
SELECT * FROM hunter_retry_stuck(%(ids)s);

-- name: save_batch
SELECT hunter_save_batch(%(key)s, %(body)s, %(now)s);

-- name: batch_body
SELECT hunter_batch_body(%(key)s);

-- name: enqueue
SELECT hunter_enqueue(%(job_id)s, %(listing)s::jsonb, %(now)s);

-- name: count_pending
SELECT hunter_count_pending();

-- name: next_due
SELECT hunter_next_due();

-- name: outbox_counts
SELECT * FROM hunter_outbox_counts();

-- name: sent_since
SELECT hunter_sent_since(%(since)s);

-- name: outbox_rows
SELECT * FROM hunter_outbox_rows(%(limit)s);

-- name: sources
SELECT * FROM hunter_sources_rows();

-- name: meta
SELECT * FROM hunter_meta_rows();

-- name: job_states
SELECT * FROM hunter_job_states();
