-- The history of reads, a row a read, for the status's last days (hunter/store/reads.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

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
