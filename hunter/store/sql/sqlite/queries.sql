-- The SQLite adapter's statements, by name. Each runs inside a BEGIN IMMEDIATE transaction when
-- it is one step of several, so SQLite's single writer makes every claim atomic.

-- name: meta_exists
SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = 'hunter_meta';

-- name: schema_version
SELECT value FROM hunter_meta WHERE key = 'schema_version';

-- name: set_schema_version
INSERT INTO hunter_meta (key, value) VALUES ('schema_version', :version)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;

-- name: source_primed
SELECT primed_at IS NOT NULL AS primed FROM hunter_sources WHERE name = :source;

-- name: refresh_seen
UPDATE hunter_seen_jobs SET last_seen_at = :now
WHERE job_id IN (SELECT value FROM json_each(:ids));

-- name: prime_known
UPDATE hunter_seen_jobs
SET status = 'primed', retry_key = NULL, claimed_by = NULL, error_kind = NULL,
    last_error = NULL, next_attempt_at = NULL
WHERE (status IN ('pending', 'retry') OR (status = 'stuck' AND coalesce(error_kind, '') <> 'unknown'))
  AND job_id IN (SELECT value FROM json_each(:ids));

-- name: mark_primed
INSERT INTO hunter_sources (name, primed_at) VALUES (:source, :now)
ON CONFLICT (name) DO UPDATE SET primed_at = coalesce(primed_at, excluded.primed_at);

-- name: insert_new
-- No conflict target here and below: a row's key is (job_id, chat) since version 15 (job_id
-- alone before), and any duplicate of it is a listing already recorded.
INSERT INTO hunter_seen_jobs (job_id, source, status, listing, first_seen_at, last_seen_at)
SELECT json_extract(value, '$.job_id'), :source,
       CASE WHEN NOT :primed OR :flood THEN 'primed'
            WHEN json_extract(value, '$.matched') THEN 'pending'
            ELSE 'ignored' END,
       json_extract(value, '$.listing'), :now, :now
FROM json_each(:jobs) WHERE true
ON CONFLICT DO NOTHING
RETURNING job_id, status;

-- name: claim_new
UPDATE hunter_seen_jobs
SET status = 'sending', claimed_by = :worker, claimed_at = :now, retry_key = :key,
    retry_key_at = :now, next_attempt_at = NULL, attempts = 0
WHERE (job_id, chat) IN (SELECT job_id, chat FROM hunter_seen_jobs
                         WHERE status = 'pending' AND chat = :chat
                         ORDER BY first_seen_at, job_id LIMIT :limit)
RETURNING *;

-- name: insert_for_chats
-- A new listing's row for each chat it matches (its key: the listing's id and the chat),
-- pending. One flat element a row, in (job_id, chat) order: a nested document was parsed
-- again for each of its rows (50 listings for 1,000 chats each took 28 s).
INSERT INTO hunter_seen_jobs
    (job_id, source, status, listing, first_seen_at, last_seen_at, chat)
SELECT json_extract(value, '$.job_id'), :source, 'pending', json_extract(value, '$.listing'),
       :now, :now, json_extract(value, '$.chat')
FROM json_each(:rows) WHERE true
ON CONFLICT DO NOTHING
RETURNING status;

-- name: waiting_by_chat
SELECT chat, status, count(*) AS n FROM hunter_seen_jobs
WHERE status IN ('pending', 'retry', 'stuck') GROUP BY chat, status ORDER BY chat, status;

-- name: pending_by_chat
SELECT chat, count(*) AS n FROM hunter_seen_jobs WHERE status = 'pending' GROUP BY chat
ORDER BY chat;

-- name: sent_by_chat
SELECT chat, count(*) AS n FROM hunter_seen_jobs
WHERE status = 'sent' AND sent_at >= :since AND source <> 'hunter' GROUP BY chat ORDER BY chat;

-- name: sent_rows_since
-- Times as epoch seconds: the status reads thousands, and a number is cheap to take in.
SELECT source, json_extract(listing, '$.posted') AS posted,
       (julianday(first_seen_at) - 2440587.5) * 86400.0 AS found_s,
       (julianday(sent_at) - 2440587.5) * 86400.0 AS sent_s
FROM hunter_seen_jobs
WHERE status = 'sent' AND sent_at >= :since AND source <> 'hunter'
ORDER BY sent_at DESC LIMIT :limit;

-- name: recent_sent_chat
SELECT job_id, listing, sent_at FROM hunter_seen_jobs
WHERE status = 'sent' AND source <> 'hunter' AND chat = :chat
ORDER BY sent_at DESC, job_id LIMIT :limit;

-- name: count_chat_spend
INSERT INTO hunter_chats (name, month, spent) VALUES (:chat, :month, :cost)
ON CONFLICT (name) DO UPDATE SET
    spent = CASE WHEN month = excluded.month THEN spent + excluded.spent ELSE excluded.spent END,
    month = excluded.month;

-- name: set_members
INSERT INTO hunter_chats (name, to_id, members, members_at) VALUES (:chat, :to, :members, :now)
ON CONFLICT (name) DO UPDATE SET
    to_id = excluded.to_id, members = excluded.members, members_at = excluded.members_at;

-- name: forget_members
UPDATE hunter_chats SET members_at = NULL WHERE to_id = :to;

-- name: chats
SELECT name, to_id, members, members_at, month, spent FROM hunter_chats ORDER BY name;

-- name: claim_due
UPDATE hunter_seen_jobs
SET status = 'sending', claimed_by = :worker, claimed_at = :now
WHERE retry_key = (
        SELECT retry_key FROM hunter_seen_jobs
        WHERE retry_key IS NOT NULL AND (
              (status = 'retry' AND next_attempt_at <= :now)
           OR (status = 'stuck' AND error_kind = 'transient' AND next_attempt_at <= :now)
           OR (status = 'sending' AND claimed_at < :lease_before))
        GROUP BY retry_key
        ORDER BY max(status = 'stuck'), min(coalesce(next_attempt_at, claimed_at))
        LIMIT 1)
  AND ((status = 'retry' AND next_attempt_at <= :now)
    OR (status = 'stuck' AND error_kind = 'transient' AND next_attempt_at <= :now)
    OR (status = 'sending' AND claimed_at < :lease_before))
RETURNING *;

-- name: mark_sent
UPDATE hunter_seen_jobs
SET status = 'sent', sent_at = :now, claimed_by = NULL, next_attempt_at = NULL,
    error_kind = NULL, last_error = NULL, sent_ref = :ref
WHERE retry_key = :key AND status IN ('sending', 'retry', 'stuck');

-- name: forget_batch
DELETE FROM hunter_batches WHERE retry_key = :key;

-- name: requeue_parked
UPDATE hunter_seen_jobs SET status = 'retry', attempts = 0, next_attempt_at = :now
WHERE status = 'stuck' AND error_kind = 'transient';

-- name: mark_failed
UPDATE hunter_seen_jobs
SET status = :status, error_kind = :error_kind, last_error = :error, next_attempt_at = :next_at,
    claimed_by = NULL, attempts = attempts + :count_attempt,
    retry_key = CASE WHEN :status = 'pending' THEN NULL ELSE retry_key END
WHERE retry_key = :key AND status = 'sending' AND claimed_by = :worker;

-- name: split
UPDATE hunter_seen_jobs
SET retry_key = :new_key, retry_key_at = :now, status = 'retry', next_attempt_at = :now,
    claimed_by = NULL
WHERE retry_key = :key AND status = 'sending' AND claimed_by = :worker
  AND job_id IN (SELECT value FROM json_each(:ids));

-- name: note_source
INSERT INTO hunter_sources (name) VALUES (:name) ON CONFLICT (name) DO NOTHING;

-- name: update_source
UPDATE hunter_sources SET
    last_poll_at = :now,
    last_ok_at = CASE WHEN :error IS NULL THEN :now ELSE last_ok_at END,
    last_good_at = CASE WHEN :good AND coalesce(:count, 0) > 0 THEN :now ELSE last_good_at END,
    last_count = coalesce(:count, last_count),
    last_error = :error,
    fail_streak = CASE WHEN :good THEN 0 WHEN NOT :good THEN fail_streak + 1
                       ELSE fail_streak END,
    etag = CASE WHEN :keep_validators THEN etag ELSE :etag END,
    last_modified = CASE WHEN :keep_validators THEN last_modified ELSE :last_modified END,
    validated_url = CASE WHEN :keep_validators THEN validated_url ELSE :validated_url END,
    not_before = :not_before,
    cadence = coalesce(:cadence, cadence),
    read_reason = :read_reason
WHERE name = :name
RETURNING fail_streak, broken_at;

-- name: update_shape
UPDATE hunter_sources SET shape = :shape, shape_version = shape_version + 1
WHERE name = :name AND shape_version = :version;

-- name: set_broken
UPDATE hunter_sources SET broken_at = :broken_at WHERE name = :name;

-- name: insert_notice
INSERT INTO hunter_seen_jobs (job_id, source, status, listing, first_seen_at, last_seen_at)
VALUES (:job_id, 'hunter', 'pending', :listing, :now, :now)
ON CONFLICT DO NOTHING;

-- name: insert_notice_for
INSERT INTO hunter_seen_jobs (job_id, chat, source, status, listing, first_seen_at, last_seen_at)
VALUES (:job_id, :chat, 'hunter', 'pending', :listing, :now, :now)
ON CONFLICT DO NOTHING;

-- name: count_unknown
SELECT count(DISTINCT value) AS unknown FROM json_each(:ids)
WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = json_each.value);

-- name: lease_source
UPDATE hunter_sources SET lease_owner = :worker, lease_until = :until
WHERE name = :name AND (lease_until IS NULL OR lease_until <= :now OR lease_owner = :worker)
RETURNING name;

-- name: claim_read
UPDATE hunter_sources SET not_before = :until WHERE name = :name AND not_before IS :seen
RETURNING name;

-- name: ticks
SELECT value FROM hunter_meta WHERE key = 'run_ticks';

-- name: set_ticks
INSERT INTO hunter_meta (key, value) VALUES ('run_ticks', :value)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;

-- name: claim_prune
INSERT INTO hunter_meta (key, value) VALUES ('last_prune_at', :now)
ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <= :due_before
RETURNING key;

-- name: turn
-- A turn taken at most every so often (027_turns.sql): when it was taken last.
SELECT value FROM hunter_meta WHERE key = :key;

-- name: take_turn
INSERT INTO hunter_meta (key, value) VALUES (:key, :now)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;

-- name: prune
DELETE FROM hunter_seen_jobs WHERE (job_id, chat) IN (
    SELECT job_id, chat FROM hunter_seen_jobs
    WHERE status IN ('primed', 'ignored', 'sent') AND last_seen_at < :before LIMIT :limit);

-- name: retry_stuck
UPDATE hunter_seen_jobs
SET status = 'pending', attempts = 0, retry_key = NULL, retry_key_at = NULL,
    next_attempt_at = NULL, error_kind = NULL, last_error = NULL, claimed_by = NULL
WHERE status = 'stuck' AND (:all OR job_id IN (SELECT value FROM json_each(:ids)))
RETURNING job_id;

-- name: prune_batches
DELETE FROM hunter_batches WHERE created_at < :before AND NOT EXISTS (
    SELECT 1 FROM hunter_seen_jobs j WHERE j.retry_key = hunter_batches.retry_key
    AND j.status IN ('sending', 'retry', 'stuck'));

-- name: save_batch
INSERT INTO hunter_batches (retry_key, body, created_at) VALUES (:key, :body, :now)
ON CONFLICT (retry_key) DO NOTHING;

-- name: batch_body
SELECT body AS value FROM hunter_batches WHERE retry_key = :key;

-- name: outbox_look
-- Whether anything may be claimed now, and when the next retry is due (claim_due's and
-- claim_new's conditions): a quiet run's one look instead of a claim of each kind.
SELECT
    EXISTS (SELECT 1 FROM hunter_seen_jobs WHERE status = 'pending')
    OR EXISTS (
        SELECT 1 FROM hunter_seen_jobs
        WHERE retry_key IS NOT NULL AND (
              (status = 'retry' AND next_attempt_at <= :now)
           OR (status = 'stuck' AND error_kind = 'transient' AND next_attempt_at <= :now)
           OR (status = 'sending' AND claimed_at < :lease_before))) AS claimable,
    (SELECT min(next_attempt_at) FROM hunter_seen_jobs WHERE status = 'retry') AS next_due;

-- name: next_due
SELECT min(next_attempt_at) AS value FROM hunter_seen_jobs WHERE status = 'retry';

-- name: outbox_counts
SELECT status, count(*) AS n FROM hunter_seen_jobs
WHERE status IN ('pending', 'sending', 'retry', 'stuck') GROUP BY status;

-- name: sent_since
SELECT count(*) AS value FROM hunter_seen_jobs WHERE status = 'sent' AND sent_at >= :since;

-- name: outbox_rows
SELECT job_id, chat, status, listing, attempts, next_attempt_at, claimed_by, claimed_at,
       error_kind, last_error, first_seen_at
FROM hunter_seen_jobs
WHERE status IN ('sending', 'retry', 'stuck') OR (status = 'pending' AND last_error IS NOT NULL)
ORDER BY status = 'pending', status, first_seen_at, job_id, chat LIMIT :limit;

-- name: sources
SELECT name, primed_at, last_poll_at, last_ok_at, last_count, last_error, last_good_at,
       fail_streak, broken_at, etag, last_modified, validated_url, not_before, shape,
       shape_version, cadence, read_reason
FROM hunter_sources ORDER BY name;

-- name: meta
SELECT key, value FROM hunter_meta;

-- name: job_states
SELECT job_id, status FROM hunter_seen_jobs WHERE chat = :chat ORDER BY job_id;

-- name: start_pace
-- The pace row, reset when a new month begins (see hunter/pace.py).
INSERT INTO hunter_pace (id, month, tat, pushes, updated_at)
VALUES (1, :month, :now_active, 0, :at)
ON CONFLICT (id) DO UPDATE SET
    tat = CASE WHEN month <> excluded.month THEN excluded.tat ELSE tat END,
    pushes = CASE WHEN month <> excluded.month THEN 0 ELSE pushes END,
    month = excluded.month;

-- name: take_push
UPDATE hunter_pace
SET pushes = pushes + :cost, updated_at = :at,
    tat = CASE WHEN :notice THEN tat ELSE max(tat, :now_active) + :interval * :cost END
WHERE id = 1 AND pushes + :cost <= :cap AND (:notice OR tat - :tolerance <= :now_active)
RETURNING month, tat, pushes;

-- name: pace
SELECT month, tat, pushes FROM hunter_pace WHERE id = 1;

-- name: take_slots
-- :count moments :gap seconds apart for a channel's sender, from the first one free at or
-- after :now (see the PostgreSQL migration 026): the first one's time.
INSERT INTO hunter_send_slots (channel, tat, updated_at)
VALUES (:channel, :now + :count * :gap, :at)
ON CONFLICT (channel) DO UPDATE
SET tat = CASE WHEN tat > :now + 60 THEN :now ELSE max(tat, :now) END + :count * :gap,
    updated_at = :at
RETURNING tat - :count * :gap AS first;

-- name: forget_events
DELETE FROM hunter_events WHERE received_at < :before;

-- name: mute
INSERT INTO hunter_chat_mutes (chat, word, until, muted_at) VALUES (:chat, :word, :until, :now)
ON CONFLICT (chat, word) DO UPDATE SET until = excluded.until, muted_at = excluded.muted_at;

-- name: unmute
DELETE FROM hunter_chat_mutes WHERE word = :word AND (:chat IS NULL OR chat = :chat);

-- name: job_listing
SELECT listing FROM hunter_seen_jobs WHERE job_id = :job_id AND chat = :chat;

-- name: dismiss
UPDATE hunter_seen_jobs
SET status = 'ignored', retry_key = NULL, claimed_by = NULL, next_attempt_at = NULL,
    error_kind = NULL, last_error = NULL
WHERE job_id = :job_id AND chat = :chat AND status IN ('pending', 'retry', 'stuck');

-- name: mark
-- A 👍 of a listing marked "applied" keeps it applied (028_places.sql).
INSERT INTO hunter_marks (job_id, chat, mark, listing, marked_at)
VALUES (:job_id, :chat, :mark, :listing, :now)
ON CONFLICT (job_id, chat) DO UPDATE SET
    mark = CASE WHEN excluded.mark = 'liked' AND hunter_marks.mark = 'applied'
                THEN hunter_marks.mark ELSE excluded.mark END,
    marked_at = excluded.marked_at;

-- name: marks
SELECT job_id, chat, mark, listing, marked_at FROM hunter_marks WHERE mark = :mark
ORDER BY marked_at DESC, job_id, chat;

-- name: accept_event
INSERT INTO hunter_events (event_id, received_at, chat_id, payload, held_by, held_at)
VALUES (:event_id, :now, :chat_id, :payload, :worker, :now)
ON CONFLICT (event_id) DO NOTHING;

-- name: hold_event
UPDATE hunter_events SET held_at = :now
WHERE event_id = :event_id AND held_by = :worker AND handled_at IS NULL;

-- name: event_handled
UPDATE hunter_events SET handled_at = :now, payload = NULL WHERE event_id = :event_id;

-- name: take_stranded
UPDATE hunter_events SET held_by = :worker, held_at = :now
WHERE event_id IN (
    SELECT event_id FROM hunter_events
    WHERE handled_at IS NULL AND payload IS NOT NULL
      AND (held_by IS NULL OR held_at < :held_before)
    ORDER BY received_at, event_id LIMIT :limit
)
RETURNING event_id, payload, received_at;

-- name: release_events
UPDATE hunter_events SET held_by = NULL
WHERE event_id IN (SELECT value FROM json_each(:ids)) AND held_by = :worker
  AND handled_at IS NULL;

-- name: note_private
INSERT INTO hunter_chat_notes (chat_id, private_at) VALUES (:chat_id, :now)
ON CONFLICT (chat_id) DO UPDATE SET private_at = excluded.private_at
WHERE hunter_chat_notes.private_at < :before;

-- name: keyword_room
-- Whether `chat` may add `word` under the cap: it is added already, or fewer are.
SELECT EXISTS (SELECT 1 FROM hunter_tuning WHERE chat = :chat AND word = :word AND op = 'add')
       OR (SELECT count(*) FROM hunter_tuning WHERE chat = :chat AND op = 'add') < :cap
       AS room;

-- name: tune_word
-- A change older than the one kept does nothing: the last command said wins.
INSERT INTO hunter_tuning (chat, word, op, changed_at) VALUES (:chat, :word, :op, :now)
ON CONFLICT (chat, word) DO UPDATE SET op = excluded.op, changed_at = excluded.changed_at
WHERE hunter_tuning.changed_at <= excluded.changed_at;

-- name: drop_removals
-- A chat's removals past a day, but for a word hunter.toml has (:keep, a JSON array).
DELETE FROM hunter_tuning
WHERE op = 'remove' AND changed_at < :before
  AND word NOT IN (SELECT value FROM json_each(:keep));

-- name: tune_settings
-- Each of the budget and the pause kept only when :now is not older than the one in force
-- (a value never set is older than any: '').
INSERT INTO hunter_chat_settings (chat, min_budget, paused, changed_at, budget_at, paused_at)
VALUES (:chat, :budget, coalesce(:paused, 0), :now,
        CASE WHEN :budget IS NOT NULL THEN :now END, CASE WHEN :paused IS NOT NULL THEN :now END)
ON CONFLICT (chat) DO UPDATE SET
    min_budget = CASE WHEN :budget IS NOT NULL AND coalesce(hunter_chat_settings.budget_at,
                          CASE WHEN hunter_chat_settings.min_budget IS NULL THEN '' END,
                          hunter_chat_settings.changed_at) <= :now
                      THEN :budget ELSE hunter_chat_settings.min_budget END,
    budget_at = CASE WHEN :budget IS NOT NULL AND coalesce(hunter_chat_settings.budget_at,
                         CASE WHEN hunter_chat_settings.min_budget IS NULL THEN '' END,
                         hunter_chat_settings.changed_at) <= :now
                     THEN :now ELSE hunter_chat_settings.budget_at END,
    paused = CASE WHEN :paused IS NOT NULL AND coalesce(hunter_chat_settings.paused_at,
                      CASE WHEN NOT hunter_chat_settings.paused THEN '' END,
                      hunter_chat_settings.changed_at) <= :now
                  THEN :paused ELSE hunter_chat_settings.paused END,
    paused_at = CASE WHEN :paused IS NOT NULL AND coalesce(hunter_chat_settings.paused_at,
                         CASE WHEN NOT hunter_chat_settings.paused THEN '' END,
                         hunter_chat_settings.changed_at) <= :now
                     THEN :now ELSE hunter_chat_settings.paused_at END,
    changed_at = max(hunter_chat_settings.changed_at, :now);

-- name: reset_words
DELETE FROM hunter_tuning WHERE :chat IS NULL OR chat = :chat;

-- name: tune_floor
INSERT INTO hunter_chat_floors (chat, currency, period, amount, changed_at)
VALUES (:chat, :currency, :period, :amount, :now)
ON CONFLICT (chat, currency, period) DO UPDATE SET
    amount = excluded.amount, changed_at = excluded.changed_at
WHERE hunter_chat_floors.changed_at <= excluded.changed_at;

-- name: reset_settings
DELETE FROM hunter_chat_settings WHERE :chat IS NULL OR chat = :chat;

-- name: reset_floors
DELETE FROM hunter_chat_floors WHERE :chat IS NULL OR chat = :chat;

-- name: tune_languages
-- The languages a chat reads (027_turns.sql): kept only when :now is not older than the last.
INSERT INTO hunter_chat_settings (chat, paused, changed_at, languages, languages_at)
VALUES (:chat, 0, :now, :languages, :now)
ON CONFLICT (chat) DO UPDATE SET
    languages = CASE WHEN coalesce(hunter_chat_settings.languages_at, '') <= :now
                     THEN :languages ELSE hunter_chat_settings.languages END,
    languages_at = CASE WHEN coalesce(hunter_chat_settings.languages_at, '') <= :now
                        THEN :now ELSE hunter_chat_settings.languages_at END;

-- name: tune_places
-- Where a chat can work (028_places.sql): kept only when :now is not older than the last.
INSERT INTO hunter_chat_settings (chat, paused, changed_at, places, places_at)
VALUES (:chat, 0, :now, :places, :now)
ON CONFLICT (chat) DO UPDATE SET
    places = CASE WHEN coalesce(hunter_chat_settings.places_at, '') <= :now
                  THEN :places ELSE hunter_chat_settings.places END,
    places_at = CASE WHEN coalesce(hunter_chat_settings.places_at, '') <= :now
                     THEN :now ELSE hunter_chat_settings.places_at END;

-- name: chat_rules
SELECT chat, 'mute' AS kind, word, until, NULL AS amount, NULL AS flag
FROM hunter_chat_mutes WHERE until > :now
UNION ALL
SELECT chat, op, word, NULL, NULL, NULL FROM hunter_tuning
UNION ALL
SELECT chat, 'settings', languages, NULL, min_budget, paused FROM hunter_chat_settings
UNION ALL
SELECT chat, 'places', places, NULL, NULL, NULL FROM hunter_chat_settings
WHERE places IS NOT NULL
UNION ALL
SELECT chat, 'held', held_place || ' ' || held_language || ' ' || held_taps, held_since, NULL,
       NULL
FROM hunter_chat_settings WHERE held_since IS NOT NULL
UNION ALL
SELECT chat, 'tap', mark || char(9) || coalesce(json_extract(listing, '$.title'), '') || char(10)
           || substr(coalesce(json_extract(listing, '$.summary'), ''), 1, 240), marked_at, NULL, NULL
FROM (SELECT *, row_number() OVER (PARTITION BY chat ORDER BY marked_at DESC) AS n
      FROM hunter_marks)
WHERE n <= 12
UNION ALL
SELECT chat, 'floor', currency || '/' || period, NULL, amount, NULL FROM hunter_chat_floors
ORDER BY 1, 2, 3;

-- name: find_listing
SELECT job_id, chat, status, listing, first_seen_at, sent_at, last_error FROM hunter_seen_jobs
WHERE job_id IN (SELECT value FROM json_each(:ids))
   OR (:url IS NOT NULL AND json_extract(listing, '$.url') = :url)
ORDER BY job_id, chat LIMIT 20;

-- name: count_held
-- What a chat's places, languages and taps held back (028_places.sql), added to a week's count.
INSERT INTO hunter_chat_settings
    (chat, paused, changed_at, held_since, held_place, held_language, held_taps)
SELECT :chat, 0, :now, :now, :place, :language, :taps
WHERE :chat = ''
   OR EXISTS (SELECT 1 FROM hunter_subscribers WHERE chat = :chat)
   OR EXISTS (SELECT 1 FROM hunter_chat_settings WHERE chat = :chat)
   OR EXISTS (SELECT 1 FROM hunter_chats WHERE name = :chat)
ON CONFLICT (chat) DO UPDATE SET
    held_place = CASE WHEN coalesce(held_since, '') < :fresh_after THEN excluded.held_place
                      ELSE held_place + excluded.held_place END,
    held_language = CASE WHEN coalesce(held_since, '') < :fresh_after THEN excluded.held_language
                         ELSE held_language + excluded.held_language END,
    held_taps = CASE WHEN coalesce(held_since, '') < :fresh_after THEN excluded.held_taps
                     ELSE held_taps + excluded.held_taps END,
    held_since = CASE WHEN coalesce(held_since, '') < :fresh_after THEN :now ELSE held_since END;

-- name: recent_listings
-- What a chat's new rules would have brought (028_places.sql): the listings of the last days,
-- each once (its owner's row), newest first.
SELECT job_id, listing FROM hunter_seen_jobs
WHERE chat = '' AND source <> 'hunter' AND first_seen_at >= :since
ORDER BY first_seen_at DESC, job_id LIMIT :most;

-- name: sources_linking
SELECT source FROM hunter_seen_jobs
WHERE source <> 'hunter' AND substr(json_extract(listing, '$.url'), 1, length(:prefix)) = :prefix
GROUP BY source ORDER BY max(last_seen_at) DESC, source LIMIT 5;

-- name: keep_read
INSERT INTO hunter_reads (source, read_at, listings, new, matching, error, seconds, merged)
VALUES (:source, :read_at, :listings, :new, :matching, :error, :seconds, :merged)
ON CONFLICT (source, read_at) DO NOTHING;

-- name: prune_reads
DELETE FROM hunter_reads WHERE read_at < :before;

-- name: reads_by_day
-- Each source's reads in each of the days asked ([[start, end], ...], the n-th is day n).
SELECT r.source, CAST(d.key AS INTEGER) AS day, sum(r.new) AS new,
       sum(r.matching) AS matching, count(r.error) AS failed, count(*) AS reads,
       sum(r.merged) AS merged
FROM json_each(:days) d
JOIN hunter_reads r ON r.read_at >= json_extract(d.value, '$[0]')
                   AND r.read_at < json_extract(d.value, '$[1]')
GROUP BY r.source, d.key ORDER BY r.source, d.key;

-- name: reads_since
SELECT source, (julianday(read_at) - 2440587.5) * 86400.0 AS read_s, listings, new, matching,
       error, seconds FROM hunter_reads
WHERE read_at >= :since ORDER BY read_at DESC, source LIMIT :limit;

-- Subscribers: hunter/store/subscribers.py; what each means is said beside the
-- PostgreSQL functions of 019_subscribers.sql.

-- name: subscriber_status
SELECT status, joined_at FROM hunter_subscribers WHERE chat = :chat;

-- name: subscribers_in
-- The chats in, and the asks of the last week (027_turns.sql), but :chat; the asks alone.
SELECT count(*) AS n,
       coalesce(sum(CASE WHEN status = 'asked' THEN 1 ELSE 0 END), 0) AS asked
FROM hunter_subscribers
WHERE chat <> :chat AND (status = 'active' OR (status = 'asked' AND joined_at >= :fresh));

-- name: subscriber_put
INSERT INTO hunter_subscribers (chat, status, joined_at, left_at, started_by, name)
VALUES (:chat, :status, :now, NULL, :by, :name)
ON CONFLICT (chat) DO UPDATE
    SET status = excluded.status, joined_at = excluded.joined_at, left_at = NULL,
        started_by = excluded.started_by, name = excluded.name;

-- name: subscriber_approve
UPDATE hunter_subscribers SET status = 'active', joined_at = :now, name = NULL
WHERE chat = :chat AND status = 'asked';

-- name: asker_names
SELECT chat, name FROM hunter_subscribers
WHERE status = 'asked' AND name IS NOT NULL AND name <> '';

-- name: subscriber_left
UPDATE hunter_subscribers SET status = 'left', left_at = :now WHERE chat = :chat;

-- name: subscriber_waiting_batches
DELETE FROM hunter_batches WHERE EXISTS (
    SELECT 1 FROM hunter_seen_jobs k
    WHERE k.chat = :chat AND k.retry_key IS NOT NULL
      AND (:all OR k.status NOT IN ('sent', 'primed', 'ignored'))
      AND (hunter_batches.retry_key = k.retry_key
           OR hunter_batches.retry_key LIKE k.retry_key || '#attempt-%'));

-- name: subscriber_waiting_rows
DELETE FROM hunter_seen_jobs
WHERE chat = :chat AND (:all OR status NOT IN ('sent', 'primed', 'ignored'));

-- name: move_chat
-- A group that became a supergroup: its rows to the new id (027_turns.sql's
-- hunter_subscriber_move), table by table, after the new id's own were forgotten.
UPDATE hunter_seen_jobs SET chat = :new WHERE chat = :old;
UPDATE hunter_marks SET chat = :new WHERE chat = :old;
UPDATE hunter_tuning SET chat = :new WHERE chat = :old;
UPDATE hunter_chat_settings SET chat = :new WHERE chat = :old;
UPDATE hunter_chat_floors SET chat = :new WHERE chat = :old;
UPDATE hunter_chat_mutes SET chat = :new WHERE chat = :old;
DELETE FROM hunter_chat_notes WHERE chat_id = :old;
DELETE FROM hunter_chats WHERE name = :old OR to_id = :old;
UPDATE hunter_subscribers SET chat = :new WHERE chat = :old;
UPDATE hunter_seen_jobs
SET status = 'retry', attempts = 0, next_attempt_at = :now, error_kind = NULL, last_error = NULL
WHERE chat = :new AND status = 'stuck';

-- name: forget_chat_notices
DELETE FROM hunter_seen_jobs WHERE source = 'hunter' AND instr(job_id, ':' || :chat || ':') > 0;

-- name: forget_chat_marks
DELETE FROM hunter_marks WHERE chat = :chat;

-- name: forget_chat_tuning
DELETE FROM hunter_tuning WHERE chat = :chat;

-- name: forget_chat_settings
DELETE FROM hunter_chat_settings WHERE chat = :chat;

-- name: forget_chat_floors
DELETE FROM hunter_chat_floors WHERE chat = :chat;

-- name: forget_chat_mutes
DELETE FROM hunter_chat_mutes WHERE chat = :chat;

-- name: forget_chat_notes
DELETE FROM hunter_chat_notes WHERE chat_id = :chat;

-- name: forget_chat_events
DELETE FROM hunter_events WHERE chat_id = :chat;

-- name: forget_chat_members
DELETE FROM hunter_chats WHERE name = :chat OR to_id = :chat;

-- name: forget_subscriber
DELETE FROM hunter_subscribers WHERE chat = :chat;

-- name: prune_membership
DELETE FROM hunter_membership WHERE at < :before;

-- name: subscribers_gone
SELECT chat FROM hunter_subscribers
WHERE (status = 'left' AND left_at < :before) OR (status = 'asked' AND joined_at < :before)
ORDER BY chat;

-- name: subscribers
SELECT chat, status, joined_at, left_at FROM hunter_subscribers
WHERE status <> 'left' ORDER BY joined_at, chat;

-- name: subscriber
SELECT chat, status, joined_at, left_at, started_by FROM hunter_subscribers
WHERE chat = :chat AND status <> 'left';

-- name: membership
SELECT (SELECT count(*) FROM hunter_subscribers WHERE status = 'active') AS active,
       (SELECT count(*) FROM hunter_subscribers WHERE status = 'asked') AS asked,
       (SELECT count(*) FROM hunter_subscribers
        WHERE status <> 'asked' AND joined_at >= :since) AS joined,
       (SELECT count(*) FROM hunter_subscribers
        WHERE status = 'left' AND left_at >= :since) AS gone,
       (SELECT min(k.first_seen_at) FROM hunter_seen_jobs k
        WHERE k.status = 'pending'
          AND k.chat IN (SELECT s.chat FROM hunter_subscribers s WHERE s.status = 'active'))
           AS oldest_waiting,
       (SELECT count(*) FROM hunter_seen_jobs k
        WHERE k.status = 'sent' AND k.sent_at >= :recent
          AND k.chat IN (SELECT s.chat FROM hunter_subscribers s)) AS sent_recently;

-- name: likeness_fresh
-- Which of these job ids hunter never recorded (020_likeness.sql's `fresh`).
SELECT b.value AS job_id FROM json_each(:ids) b
WHERE NOT EXISTS (SELECT 1 FROM hunter_seen_jobs j WHERE j.job_id = b.value);

-- name: likeness_keep
INSERT INTO hunter_likeness (job_id, source, title, likeness, seen_at)
VALUES (:job_id, :source, :title, :likeness, :now)
ON CONFLICT (job_id) DO NOTHING;

-- name: likeness_earlier
-- The listings seen since :since but not among :ids (the fresh ones) that could be a first copy
-- of a fresh one (:fresh, [[title, company, language], ...]): of its title, and of its employer
-- where both state one; and its employer's in another language (030). At most 32 of the newest
-- of each kind (027_turns.sql: a look-up costs the same whatever one board shows). Oldest first, each with the chats it was or will be sent to (a
-- JSON array; '' is the owner's chat).
WITH asked AS (
    SELECT DISTINCT json_extract(value, '$[0]') AS title, json_extract(value, '$[1]') AS company,
           json_extract(value, '$[2]') AS language
    FROM json_each(:fresh)
)
SELECT l.job_id, l.source, l.title, l.likeness, l.seen_at,
       (SELECT json_group_array(j.chat) FROM (
            SELECT j.chat FROM hunter_seen_jobs j
            WHERE j.job_id = l.job_id
              AND j.status IN ('pending', 'sending', 'retry', 'sent', 'stuck')
            ORDER BY j.chat) j) AS chats
FROM hunter_likeness l
WHERE l.job_id IN (
      SELECT c.job_id FROM asked a JOIN hunter_likeness c ON c.job_id IN (
          SELECT x.job_id FROM hunter_likeness x
          WHERE x.title = a.title
            AND coalesce(json_extract(x.likeness, '$.company'), '') = a.company
            AND x.seen_at >= :since AND x.job_id NOT IN (SELECT value FROM json_each(:ids))
          ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32)
      UNION
      SELECT c.job_id FROM asked a JOIN hunter_likeness c ON c.job_id IN (
          SELECT x.job_id FROM hunter_likeness x
          WHERE a.company <> '' AND x.title = a.title
            AND coalesce(json_extract(x.likeness, '$.company'), '') = ''
            AND x.seen_at >= :since AND x.job_id NOT IN (SELECT value FROM json_each(:ids))
          ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32)
      UNION
      SELECT c.job_id FROM asked a JOIN hunter_likeness c ON c.job_id IN (
          -- one employer's other name ("Acme Robotics", "Data Dog" beside "Datadog")
          SELECT x.job_id FROM hunter_likeness x
          WHERE a.company <> '' AND x.title = a.title AND x.seen_at >= :since
            AND coalesce(json_extract(x.likeness, '$.company'), '') NOT IN ('', a.company)
            AND ((min(length(replace(json_extract(x.likeness, '$.company'), ' ', '')),
                      length(replace(a.company, ' ', ''))) >= 3
                  AND (substr(replace(json_extract(x.likeness, '$.company'), ' ', ''), 1,
                              length(replace(a.company, ' ', ''))) = replace(a.company, ' ', '')
                       OR substr(replace(a.company, ' ', ''), 1,
                                 length(replace(json_extract(x.likeness, '$.company'), ' ', '')))
                          = replace(json_extract(x.likeness, '$.company'), ' ', '')))
                 -- a name in two scripts is "latin|汉字": either of its names (employer_key)
                 OR instr(json_extract(x.likeness, '$.company'), '|' || a.company) > 0
                 OR instr(a.company, '|' || json_extract(x.likeness, '$.company')) > 0)
            AND x.job_id NOT IN (SELECT value FROM json_each(:ids))
          ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32)
      UNION
      SELECT c.job_id FROM asked a JOIN hunter_likeness c ON c.job_id IN (
          -- its employer's, in another language under another title: of its 96 newest
          SELECT y.job_id FROM (
              SELECT x.job_id, x.title, x.likeness, x.seen_at FROM hunter_likeness x
              WHERE a.company <> '' AND a.language <> ''
                AND coalesce(json_extract(x.likeness, '$.company'), '') = a.company
                AND x.seen_at >= :since
              ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 96) y
          WHERE y.title <> a.title
            AND coalesce(json_extract(y.likeness, '$.language'), '') NOT IN ('', a.language)
            AND y.job_id NOT IN (SELECT value FROM json_each(:ids))
          ORDER BY y.seen_at DESC, y.job_id DESC LIMIT 32)
      UNION
      SELECT c.job_id FROM asked a JOIN hunter_likeness c ON c.job_id IN (
          SELECT x.job_id FROM hunter_likeness x
          WHERE a.company = '' AND x.title = a.title AND x.seen_at >= :since
            AND x.job_id NOT IN (SELECT value FROM json_each(:ids))
          ORDER BY x.seen_at DESC, x.job_id DESC LIMIT 32))
  AND l.job_id NOT IN (SELECT value FROM json_each(:ids))
ORDER BY l.seen_at, l.job_id;

-- name: likeness_prune
DELETE FROM hunter_likeness WHERE seen_at < :before;

-- name: also_add
-- A copy merged into the row of its first copy for a chat (024_also_on.sql's hunter_also, one
-- pair at a time in a transaction): not twice, the first 10 kept; its edit due now.
UPDATE hunter_seen_jobs
SET also = json_insert(coalesce(also, '[]'), '$[#]', json_array(:source, :url)),
    edit_due_at = :now, edit_claimed_at = NULL
WHERE job_id = :first_id AND chat = :chat
  AND json_array_length(coalesce(also, '[]')) < 10
  AND NOT EXISTS (SELECT 1 FROM json_each(coalesce(also, '[]')) e
                  WHERE json_extract(e.value, '$[0]') = :source
                    AND json_extract(e.value, '$[1]') = :url);

-- name: edits_due
-- Sent messages with an edit due and not held by a live claim (hunter_edits_claim).
SELECT DISTINCT chat, retry_key FROM hunter_seen_jobs
WHERE edit_due_at IS NOT NULL AND edit_due_at <= :now AND status = 'sent'
  AND edit_due_at >= sent_at  -- merged while it waited: its push showed it (027_turns.sql)
  AND retry_key IS NOT NULL AND (edit_claimed_at IS NULL OR edit_claimed_at < :stale)
LIMIT :limit;

-- name: edits_claim
UPDATE hunter_seen_jobs SET edit_claimed_at = :now
WHERE chat = :chat AND retry_key = :key AND edit_due_at IS NOT NULL;

-- name: edit_message
-- A message's sent rows in the order they were claimed for it, each with its `also`.
SELECT job_id, listing, coalesce(also, '[]') AS also, sent_ref FROM hunter_seen_jobs
WHERE chat = :chat AND retry_key = :key AND status = 'sent'
ORDER BY first_seen_at, job_id;

-- name: edits_done
UPDATE hunter_seen_jobs
SET edit_due_at = CASE WHEN edit_tries + 1 >= 5 THEN NULL ELSE :retry_at END,
    edit_claimed_at = NULL, edit_tries = edit_tries + 1
WHERE chat = :chat AND retry_key = :key AND edit_claimed_at = :claimed_at;

-- name: meta_value
-- One value of hunter's own (hunter/store/moved.py: the database this file was left for).
SELECT value FROM hunter_meta WHERE key = :key;

-- name: set_meta_value
INSERT INTO hunter_meta (key, value) VALUES (:key, :value)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;
