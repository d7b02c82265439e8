-- hunter schema, version 21: each read keeps how many of its new listings were merged with an
-- earlier copy of their job (issue 43), so that the status counts merges per source and day
-- beside the new and matching ones. An older hunter still running beside this one during a
-- deploy keeps its reads without the count (0).
ALTER TABLE hunter_reads ADD COLUMN IF NOT EXISTS merged integer NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION hunter_keep_reads(p_reads jsonb)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_kept bigint;
BEGIN
    INSERT INTO hunter_reads (source, read_at, listings, new, matching, error, seconds, merged)
    SELECT r.source, r.read_at, r.listings, r.new, r.matching, r.error, r.seconds,
           coalesce(r.merged, 0)
    FROM jsonb_to_recordset(p_reads) AS r(source text, read_at timestamptz, listings integer,
                                          new integer, matching integer, error text,
                                          seconds double precision, merged integer)
    ON CONFLICT (source, read_at) DO NOTHING;
    GET DIAGNOSTICS v_kept = ROW_COUNT;
    RETURN v_kept;
END $$;

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

-- 020's look-up read every kept likeness (a hash join over 100,000 rows: 20-35 ms a read)
-- because the planner guessed 99 titles from the JSON; the titles as an array let it use the
-- title index (0.09 ms). Same arguments and answer.
CREATE OR REPLACE FUNCTION hunter_likeness_note(
    p_jobs jsonb, p_since timestamptz, p_now timestamptz, p_keep boolean DEFAULT true
)
RETURNS TABLE (job_id text, source text, title text, likeness jsonb, seen_at timestamptz,
               fresh boolean, chats text[])
LANGUAGE sql AS $$
    WITH batch AS (
        SELECT e->>'job_id' AS job_id, e->>'source' AS source, e->>'title' AS title,
               e->'likeness' AS likeness
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
        FROM hunter_likeness l
        WHERE l.title = ANY (ARRAY(SELECT b.title FROM batch b WHERE b.title <> ''))
          AND l.seen_at >= p_since
          AND l.job_id NOT IN (SELECT f.job_id FROM fresh f)
        ORDER BY l.seen_at, l.job_id
    ) earlier;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '21')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 21;
