-- What each recorded listing is compared by, to find a copy of a job
-- (hunter/store/likeness.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

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
    asked AS (
        SELECT DISTINCT f.title, f.company, coalesce(f.likeness->>'language', '') AS language
        FROM fresh f WHERE f.title <> ''
    ),
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
        SELECT c.* FROM asked a CROSS JOIN LATERAL (  -- one employer's other name: "Acme
            -- Robotics" beside "Acme", "Data Dog" beside "Datadog" (same_job decides)
            SELECT x.job_id, x.source, x.title, x.likeness, x.seen_at FROM hunter_likeness x
            WHERE a.company <> '' AND x.title = a.title AND x.seen_at >= p_since
              AND coalesce(x.likeness->>'company', '') NOT IN ('', a.company)
              AND ((least(length(replace(x.likeness->>'company', ' ', '')),
                          length(replace(a.company, ' ', ''))) >= 3
                    AND (starts_with(replace(x.likeness->>'company', ' ', ''),
                                     replace(a.company, ' ', ''))
                         OR starts_with(replace(a.company, ' ', ''),
                                        replace(x.likeness->>'company', ' ', ''))))
                   -- a name in two scripts is "latin|汉字": either of its names (employer_key)
                   OR strpos(x.likeness->>'company', '|' || a.company) > 0
                   OR strpos(a.company, '|' || (x.likeness->>'company')) > 0)
              AND x.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32) c
        UNION
        SELECT c.* FROM asked a CROSS JOIN LATERAL (  -- its employer's, in another language
            -- under another title (hunter/rules/languages_apart.py): of the employer's 96
            -- newest, so that an employer of thousands costs what any costs
            SELECT y.* FROM (
                SELECT x.job_id, x.source, x.title, x.likeness, x.seen_at
                FROM hunter_likeness x
                WHERE a.company <> '' AND a.language <> ''
                  AND coalesce(x.likeness->>'company', '') = a.company AND x.seen_at >= p_since
                ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 96) y
            WHERE y.title <> a.title
              AND coalesce(y.likeness->>'language', '') NOT IN ('', a.language)
              AND y.job_id NOT IN (SELECT f.job_id FROM fresh f)
            ORDER BY y.seen_at DESC, y.job_id DESC LIMIT 32) c
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

CREATE OR REPLACE FUNCTION hunter_likeness_prune(p_before timestamptz)
RETURNS integer
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM hunter_likeness WHERE seen_at < p_before RETURNING 1)
    SELECT count(*)::integer FROM gone;
$$;
