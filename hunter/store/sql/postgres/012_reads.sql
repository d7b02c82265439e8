-- hunter schema, version 12: each read of each source, kept for the status's history (issue
-- 36: a chart of the last days per source, failed reads marked) and pruned with the rest.

CREATE TABLE IF NOT EXISTS hunter_reads (
    source   text NOT NULL,
    read_at  timestamptz NOT NULL,
    listings integer NOT NULL,
    new      integer NOT NULL,
    matching integer NOT NULL,
    error    text,
    seconds  double precision NOT NULL,
    PRIMARY KEY (source, read_at)
);
CREATE INDEX IF NOT EXISTS hunter_reads_at ON hunter_reads (read_at);

-- One poll's reads, in one call: a JSON array of {source, read_at, listings, new, matching,
-- error, seconds}. A read kept already (a retry of the call) is kept once.
CREATE OR REPLACE FUNCTION hunter_keep_reads(p_reads jsonb)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_kept bigint;
BEGIN
    INSERT INTO hunter_reads (source, read_at, listings, new, matching, error, seconds)
    SELECT r.source, r.read_at, r.listings, r.new, r.matching, r.error, r.seconds
    FROM jsonb_to_recordset(p_reads) AS r(source text, read_at timestamptz, listings integer,
                                          new integer, matching integer, error text,
                                          seconds double precision)
    ON CONFLICT (source, read_at) DO NOTHING;
    GET DIAGNOSTICS v_kept = ROW_COUNT;
    RETURN v_kept;
END $$;

CREATE OR REPLACE FUNCTION hunter_prune_reads(p_before timestamptz)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_pruned bigint;
BEGIN
    DELETE FROM hunter_reads WHERE read_at < p_before;
    GET DIAGNOSTICS v_pruned = ROW_COUNT;
    RETURN v_pruned;
END $$;

CREATE OR REPLACE FUNCTION hunter_reads_since(p_since timestamptz, p_limit integer)
RETURNS TABLE (source text, read_s double precision, listings integer, new integer,
               matching integer, error text, seconds double precision)
LANGUAGE sql STABLE AS $$
    SELECT r.source, extract(epoch FROM r.read_at)::float8, r.listings, r.new, r.matching,
           r.error, r.seconds
    FROM hunter_reads r WHERE r.read_at >= p_since
    ORDER BY r.read_at DESC, r.source LIMIT p_limit;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '12')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 12;
