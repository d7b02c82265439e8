-- hunter schema, version 25: a bucket answers only the listings that could be the same job.
-- 022's note answered every earlier listing of a fresh listing's title, to be read and judged
-- one by one in Python: a common title ("Senior Software Engineer") seen on five boards for
-- 30 days is thousands of rows a look-up. Two listings whose boards both state an employer
-- are one job only when it is the same one (hunter/rules/likeness.py), so an earlier listing
-- of another stated employer is left out here; one without an employer, or asked for by a
-- listing without one, is answered as before. Same arguments; the answer is 022's less the
-- rows that could never be a first copy.
CREATE OR REPLACE FUNCTION hunter_likeness_note(
    p_jobs jsonb, p_since timestamptz, p_now timestamptz, p_keep boolean DEFAULT true
)
RETURNS TABLE (job_id text, source text, title text, likeness jsonb, seen_at timestamptz,
               fresh boolean, chats text[])
LANGUAGE sql AS $$
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
        WHERE l.title = ANY (ARRAY(SELECT f.title FROM fresh f WHERE f.title <> ''))
          AND l.seen_at >= p_since
          AND l.job_id NOT IN (SELECT f.job_id FROM fresh f)
          AND EXISTS (
              SELECT 1 FROM fresh f
              WHERE f.title = l.title
                AND (f.company = '' OR coalesce(l.likeness->>'company', '') IN ('', f.company))
          )
        ORDER BY l.seen_at, l.job_id
    ) earlier;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '25')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 25;
