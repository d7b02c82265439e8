-- hunter schema, version 7: a chat's pay floors in other currencies and periods, set from LINE
-- ("งบ $25/ชม.", "งบ ฿30,000 ต่อเดือน"; hunter/chat/tuning.py). A floor judges only pay in its
-- own currency and period (hunter/pay.py). Baht for a whole job stays
-- hunter_chat_settings.min_budget, as version 6 keeps it.

CREATE TABLE IF NOT EXISTS hunter_chat_floors (
    chat       text NOT NULL,                  -- '' for LINE_TO, else the [[chats]] name
    currency   text NOT NULL,                  -- ISO 4217
    period     text NOT NULL,                  -- '' a whole job; hour, day, week, month, year
    amount     bigint NOT NULL CHECK (amount >= 0),  -- 0: none in these terms
    changed_at timestamptz NOT NULL,
    PRIMARY KEY (chat, currency, period)
);

CREATE OR REPLACE FUNCTION hunter_tune_floor(p_chat text, p_currency text, p_period text,
                                             p_amount bigint, p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chat_floors (chat, currency, period, amount, changed_at)
    VALUES (p_chat, p_currency, p_period, p_amount, p_now)
    ON CONFLICT (chat, currency, period) DO UPDATE SET
        amount = excluded.amount, changed_at = excluded.changed_at;
$$;

-- As in version 6, and the floors too.
CREATE OR REPLACE FUNCTION hunter_reset_tuning(p_chat text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_words    integer;
    v_settings integer;
    v_floors   integer;
BEGIN
    DELETE FROM hunter_tuning WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_words = ROW_COUNT;
    DELETE FROM hunter_chat_settings WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_settings = ROW_COUNT;
    DELETE FROM hunter_chat_floors WHERE p_chat IS NULL OR chat = p_chat;
    GET DIAGNOSTICS v_floors = ROW_COUNT;
    RETURN v_words + v_settings + v_floors;
END $$;

-- As in version 6, and each floor as kind 'floor', word '<currency>/<period>'.
CREATE OR REPLACE FUNCTION hunter_chat_rules(p_now timestamptz)
RETURNS TABLE (chat text, kind text, word text, until timestamptz, amount bigint,
               flag boolean)
LANGUAGE sql STABLE AS $$
    SELECT m.chat, 'mute', m.word, m.until, NULL::bigint, NULL::boolean
    FROM hunter_chat_mutes m WHERE m.until > p_now
    UNION ALL
    SELECT t.chat, t.op, t.word, NULL, NULL, NULL FROM hunter_tuning t
    UNION ALL
    SELECT s.chat, 'settings', NULL, NULL, s.min_budget, s.paused FROM hunter_chat_settings s
    UNION ALL
    SELECT f.chat, 'floor', f.currency || '/' || f.period, NULL, f.amount, NULL
    FROM hunter_chat_floors f
    ORDER BY 1, 2, 3;
$$;

SELECT hunter_restrict_access();

INSERT INTO hunter_meta (key, value) VALUES ('schema_version', '7')
ON CONFLICT (key) DO UPDATE SET value = excluded.value
WHERE hunter_meta.value::integer < 7;
