-- Issue 44: a quiet run asks once whether anything may be claimed (a new row, a retry due, a
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

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '18')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 18;
