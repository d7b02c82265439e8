-- hunter schema, version 20: a job's likeness (issue 43). Each listing hunter records is kept
-- with what it is compared by (hunter/rules/likeness.py: its normalised title, employer,
-- place, pay and a sketch of its text), bucketed by its title, so that a later copy of the
-- same job (on another board, or again under a new id) is found with one indexed look-up,
-- not by reading pages again. Pruned with the outbox rows (prune_after_days).
CREATE TABLE IF NOT EXISTS hunter_likeness (
    job_id   text PRIMARY KEY,
    source   text NOT NULL,
    title    text NOT NULL,
    likeness jsonb NOT NULL,
    seen_at  timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS hunter_likeness_title ON hunter_likeness (title, seen_at);
CREATE INDEX IF NOT EXISTS hunter_likeness_seen ON hunter_likeness (seen_at);

-- One call per source read, before its listings are recorded: which of `p_jobs` hunter never
-- recorded (fresh: only those can be a later copy), each kept (unless p_keep is false, as
-- `hunter check` asks), and the earlier listings of their titles seen since p_since, oldest
-- first, each with the chats it was or will be sent to (a row pending, in flight, sent or
-- stuck: '' is the owner's chat). A listing the batch shows again is an earlier one (a board
-- that shows a job and its re-post side by side); a fresh one never is.
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
        WHERE l.title IN (SELECT b.title FROM batch b WHERE b.title <> '')
          AND l.seen_at >= p_since
          AND l.job_id NOT IN (SELECT f.job_id FROM fresh f)
        ORDER BY l.seen_at, l.job_id
    ) earlier;
$$;

CREATE OR REPLACE FUNCTION hunter_likeness_prune(p_before timestamptz)
RETURNS integer
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM hunter_likeness WHERE seen_at < p_before RETURNING 1)
    SELECT count(*)::integer FROM gone;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '20')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 20;
