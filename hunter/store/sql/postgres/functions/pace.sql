-- The month's messages and a bot's moments to send, shared by every replica
-- (hunter/store/pace.py).
--
-- Each function's current text, once: hunter applies this folder whenever its text differs
-- from what the database holds (hunter/store/sql/postgres/functions/README.md).

-- Claim one push costing p_cost messages (a chat's members) for chat p_chat: as version 2's
-- hunter_claim_push, with the pace advanced and the cap checked by the cost, and the chat's
-- spending counted.
CREATE OR REPLACE FUNCTION hunter_claim_messages(p_month text, p_now double precision,
                                                 p_interval double precision,
                                                 p_tolerance double precision, p_cap integer,
                                                 p_notice boolean, p_at timestamptz,
                                                 p_cost integer, p_chat text)
RETURNS TABLE (month text, tat double precision, pushes integer, granted boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_month   text;
    v_tat     double precision;
    v_pushes  integer;
    v_granted boolean;
BEGIN
    INSERT INTO hunter_pace AS p (id, month, tat, pushes, updated_at)
    VALUES (1, p_month, p_now, 0, p_at) ON CONFLICT (id) DO NOTHING;
    SELECT p.month, p.tat, p.pushes INTO v_month, v_tat, v_pushes
    FROM hunter_pace p WHERE p.id = 1 FOR UPDATE;
    IF v_month <> p_month THEN
        v_month := p_month;
        v_tat := p_now;
        v_pushes := 0;
    END IF;
    v_granted := v_pushes + p_cost <= p_cap AND (p_notice OR v_tat - p_tolerance <= p_now);
    IF v_granted THEN
        v_pushes := v_pushes + p_cost;
        IF NOT p_notice THEN
            v_tat := greatest(v_tat, p_now) + p_interval * p_cost;
        END IF;
        INSERT INTO hunter_chats AS c (name, month, spent) VALUES (p_chat, p_month, p_cost)
        ON CONFLICT (name) DO UPDATE SET
            spent = CASE WHEN c.month = excluded.month THEN c.spent + excluded.spent
                         ELSE excluded.spent END,
            month = excluded.month;
    END IF;
    UPDATE hunter_pace p SET month = v_month, tat = v_tat, pushes = v_pushes, updated_at = p_at
    WHERE p.id = 1;
    RETURN QUERY SELECT v_month, v_tat, v_pushes, v_granted;
END $$;

-- Members came or went (LINE's webhook): the count is read again before the next push.
CREATE OR REPLACE FUNCTION hunter_forget_members(p_to text)
RETURNS void
LANGUAGE sql AS $$
    UPDATE hunter_chats SET members_at = NULL WHERE to_id = p_to;
$$;

CREATE OR REPLACE FUNCTION hunter_set_members(p_chat text, p_to text, p_members integer,
                                              p_now timestamptz)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO hunter_chats AS c (name, to_id, members, members_at)
    VALUES (p_chat, p_to, p_members, p_now)
    ON CONFLICT (name) DO UPDATE SET
        to_id = excluded.to_id, members = excluded.members, members_at = excluded.members_at;
$$;

-- A channel's moments to send are timed by the database's clock (medium 7). 026
-- timed them by each replica's: one whose clock ran 50 s fast took the moments 50 s ahead,
-- and the others waited 5 s a message (Telegram: 28 messages a second fell to 0.2). The row
-- now holds the database's time; a sender's `p_now` is only how it asks, and the answer is in
-- its own clock again (the database's first moment plus how far the sender's clock is off).
CREATE OR REPLACE FUNCTION hunter_take_slots(
    p_channel text, p_count integer, p_gap double precision, p_now double precision
)
RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE
    v_db double precision := extract(epoch FROM clock_timestamp());
    v_first double precision;
BEGIN
    INSERT INTO hunter_send_slots AS s (channel, tat, updated_at)
    VALUES (p_channel, v_db + p_count * p_gap, now())
    ON CONFLICT (channel) DO UPDATE
    SET tat = CASE WHEN s.tat > v_db + 60 THEN v_db ELSE greatest(s.tat, v_db) END
              + p_count * p_gap,
        updated_at = now()
    RETURNING s.tat - p_count * p_gap INTO v_first;
    RETURN v_first - v_db + p_now;
END $$;
