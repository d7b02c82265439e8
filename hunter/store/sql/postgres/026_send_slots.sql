-- hunter schema, version 26: a channel's pace for the whole bot, shared by every replica
-- (issue 42). Telegram allows a bot about 30 messages a second in all (its FAQ); replicas
-- that each kept 28 a second for themselves passed it together. Each sender now takes its
-- moments to send from this row, a few at a time (deliver/rate.py): `tat` is the first
-- moment no replica holds yet, in seconds since 1970 (the senders' clocks, which a host
-- keeps by NTP).
CREATE TABLE IF NOT EXISTS hunter_send_slots (
    channel text PRIMARY KEY,
    tat double precision NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- p_count moments p_gap seconds apart, from the first one free at or after p_now: the first
-- one's time. A row more than a minute ahead of p_now was moved on by a clock that was
-- wrong: it starts again from p_now, so that no sender waits on it.
CREATE OR REPLACE FUNCTION hunter_take_slots(
    p_channel text, p_count integer, p_gap double precision, p_now double precision)
RETURNS double precision LANGUAGE sql AS $$
    INSERT INTO hunter_send_slots AS s (channel, tat, updated_at)
    VALUES (p_channel, p_now + p_count * p_gap, now())
    ON CONFLICT (channel) DO UPDATE
    SET tat = CASE WHEN s.tat > p_now + 60 THEN p_now ELSE greatest(s.tat, p_now) END
              + p_count * p_gap,
        updated_at = now()
    RETURNING s.tat - p_count * p_gap;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '26')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 26;
