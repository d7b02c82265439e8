-- hunter schema, version 27: a turn of something hunter does at most every so often for
-- everyone (issue 55: the owner's card of the chats that ask to join, at most one every few
-- hours however many strangers Start). Kept in hunter_meta under its key, so that a chat's
-- /forget, which deletes every row naming it, cannot reset it. The turn is taken only when
-- it is due (`p_every` since the last) and something happened since the last (`p_newest`
-- after it); the answer says whether it was taken and the last turn's time (1970 when
-- never).
CREATE OR REPLACE FUNCTION hunter_claim_turn(
    p_key text, p_now timestamptz, p_every interval, p_newest timestamptz
)
RETURNS TABLE (taken boolean, last timestamptz) LANGUAGE plpgsql AS $$
DECLARE
    v_last timestamptz;
BEGIN
    INSERT INTO hunter_meta (key, value) VALUES (p_key, '1970-01-01 00:00:00+00')
    ON CONFLICT (key) DO NOTHING;
    SELECT m.value::timestamptz INTO v_last FROM hunter_meta m WHERE m.key = p_key FOR UPDATE;
    IF v_last > p_now - p_every OR v_last >= p_newest THEN
        RETURN QUERY SELECT false, v_last;
        RETURN;
    END IF;
    UPDATE hunter_meta m SET value = p_now::text WHERE m.key = p_key;
    RETURN QUERY SELECT true, v_last;
END $$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '27')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 27;
