-- Each outbox row is addressed to an endpoint: a channel (only 'email' today; webhooks and chat
-- are meant to come as other channels of the same outbox) and its address there, `recipient`.
ALTER TABLE outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';

-- Every dedupe key is what the message is about, ':', then its endpoint. The status report's
-- alone put its address first (`report:<address>:<fire time>`); turned around, a report queued
-- before this upgrade is still found by the key the queue now asks for, and not queued twice.
-- An e-mail address holds no ':', so the first ':' after the prefix ends it.
UPDATE outbox
SET dedupe_key = 'report:' || substr(dedupe_key, instr(substr(dedupe_key, 8), ':') + 8)
  || ':' || substr(dedupe_key, 8, instr(substr(dedupe_key, 8), ':') - 1)
WHERE kind = 'report' AND dedupe_key LIKE 'report:%@%:%';
