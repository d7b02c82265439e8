-- hunter schema, version 16: the status's 7 days summed by the store (issue 45). The history
-- read the newest 20,000 reads and summed them in Python: with 200 sources read every 30
-- minutes that is two days, so the 7-day chart showed [0,0,0,0,5,18,4] for a true
-- [13,10,7,11,7,18,4] and lost the older failed reads. The days are the user's (the caller
-- gives each day's [start, end) in time, which knows its zone's summer time).
CREATE OR REPLACE FUNCTION hunter_reads_by_day(p_days text)
RETURNS TABLE (source text, day integer, new bigint, matching bigint, failed bigint,
               reads bigint)
LANGUAGE sql STABLE AS $$
    SELECT r.source, (d.n - 1)::integer, sum(r.new), sum(r.matching), count(r.error), count(*)
    FROM jsonb_array_elements(p_days::jsonb) WITH ORDINALITY AS d(span, n)
    JOIN hunter_reads r ON r.read_at >= (d.span->>0)::timestamptz
                       AND r.read_at < (d.span->>1)::timestamptz
    GROUP BY r.source, d.n ORDER BY r.source, d.n;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '16')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 16;
