-- hunter schema, version 30: one employer's listings, newest first. A job posted in two
-- languages has a title in each (hunter/rules/languages_apart.py), so its copy is not in its
-- title's bucket: the note (functions/likeness.sql) looks up a fresh listing's employer's
-- newest listings too, and judges those in another language.
CREATE INDEX IF NOT EXISTS hunter_likeness_employer
    ON hunter_likeness (coalesce(likeness->>'company', ''), seen_at, job_id);

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '30')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 30;
