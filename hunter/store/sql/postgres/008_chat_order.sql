-- hunter schema, version 8: a chat's changes in the order they were said, and a cap on the
-- keywords a chat adds (issue 29). Two replicas may handle "เพิ่ม w" and "ลบ w" (or "งบ 1000"
-- and "งบ 2000") at once; the change stamped with the later LINE timestamp wins, whichever is
-- written last. The budget and the pause are stamped each on its own, so that an older
-- "งบ" never undoes a newer "หยุด" of the same row.

ALTER TABLE hunter_chat_settings ADD COLUMN IF NOT EXISTS budget_at timestamptz;
ALTER TABLE hunter_chat_settings ADD COLUMN IF NOT EXISTS paused_at timestamptz;

-- A keyword added or removed at p_at (the command's own time). An add beyond the chat's
-- p_cap added keywords is refused (false); an older change than the one kept does nothing.
-- One chat's keyword changes wait for each other, so two replicas cannot both take the last
-- place under the cap.
CREATE OR REPLACE FUNCTION hunter_tune_keyword(p_chat text, p_word text, p_op text,
                                               p_at timestamptz, p_cap integer)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('hunter_tune_keyword'), hashtext(p_chat));
    IF p_op = 'add'
       AND NOT EXISTS (SELECT 1 FROM hunter_tuning t
                       WHERE t.chat = p_chat AND t.word = p_word AND t.op = 'add')
       AND (SELECT count(*) FROM hunter_tuning t WHERE t.chat = p_chat AND t.op = 'add') >= p_cap
    THEN
        RETURN false;
    END IF;
    INSERT INTO hunter_tuning AS t (chat, word, op, changed_at)
    VALUES (p_chat, p_word, p_op, p_at)
    ON CONFLICT (chat, word) DO UPDATE SET op = excluded.op, changed_at = excluded.changed_at
    WHERE t.changed_at <= excluded.changed_at;
    RETURN true;
END $$;

-- As in version 6, each of the budget and the pause kept only when p_now is not older than
-- the one in force (a value never set is older than any).
CREATE OR REPLACE FUNCTION hunter_tune_settings(p_chat text, p_budget bigint, p_paused boolean,
                                                p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_settings AS s
        (chat, min_budget, paused, changed_at, budget_at, paused_at)
    VALUES (p_chat, p_budget, coalesce(p_paused, false), p_now,
            CASE WHEN p_budget IS NOT NULL THEN p_now END,
            CASE WHEN p_paused IS NOT NULL THEN p_now END)
    ON CONFLICT (chat) DO UPDATE SET
        min_budget = CASE WHEN p_budget IS NOT NULL AND coalesce(s.budget_at,
                              CASE WHEN s.min_budget IS NULL THEN '-infinity'::timestamptz END,
                              s.changed_at) <= p_now
                          THEN p_budget ELSE s.min_budget END,
        budget_at = CASE WHEN p_budget IS NOT NULL AND coalesce(s.budget_at,
                             CASE WHEN s.min_budget IS NULL THEN '-infinity'::timestamptz END,
                             s.changed_at) <= p_now
                         THEN p_now ELSE s.budget_at END,
        paused = CASE WHEN p_paused IS NOT NULL AND coalesce(s.paused_at,
                          CASE WHEN NOT s.paused THEN '-infinity'::timestamptz END,
                          s.changed_at) <= p_now
                      THEN p_paused ELSE s.paused END,
        paused_at = CASE WHEN p_paused IS NOT NULL AND coalesce(s.paused_at,
                             CASE WHEN NOT s.paused THEN '-infinity'::timestamptz END,
                             s.changed_at) <= p_now
                         THEN p_now ELSE s.paused_at END,
        changed_at = greatest(s.changed_at, p_now);
$$;

-- As in version 7, an older floor than the one kept does nothing.
CREATE OR REPLACE FUNCTION hunter_tune_floor(p_chat text, p_currency text, p_period text,
                                             p_amount bigint, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_floors AS f (chat, currency, period, amount, changed_at)
    VALUES (p_chat, p_currency, p_period, p_amount, p_now)
    ON CONFLICT (chat, currency, period) DO UPDATE SET
        amount = excluded.amount, changed_at = excluded.changed_at
    WHERE f.changed_at <= excluded.changed_at;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '8')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 8;
