-- Escalation of urgent alerts nobody acknowledged (issue 40): the steps of an alert's chain, each
-- planned once with the instant it is due (policy/escalation.ts) and queued once: `queued_at` is
-- set in the transaction that queues the step's outbox rows, so a crash keeps both or neither.
-- A step not queued when its alert is acknowledged (or its link expires) is never queued.
CREATE TABLE escalations (
  id INTEGER PRIMARY KEY,
  ack_id INTEGER NOT NULL REFERENCES acknowledgements(id),
  step INTEGER NOT NULL,
  -- 'watcher' (an e-mail address) or 'endpoint' (a name under notify.endpoints).
  target_kind TEXT NOT NULL CHECK (target_kind IN ('watcher', 'endpoint')),
  target TEXT NOT NULL,
  due_at TEXT NOT NULL,
  -- What made it due then: within, before or last-day.
  due_by TEXT NOT NULL,
  -- The day the alert's dates end on (YYYY-MM-DD), its kind (period, hearing) and name.
  last_day TEXT,
  last_day_kind TEXT,
  last_day_name TEXT,
  planned_at TEXT NOT NULL,
  queued_at TEXT,
  -- Why a due step queued no row (its endpoint is no longer configured); null otherwise.
  problem TEXT,
  UNIQUE (ack_id, step)
);
CREATE INDEX escalations_waiting ON escalations (queued_at, due_at);

-- When the escalation tick first looked at the alert (planned its chain, or found none): an
-- alert is planned once, with the watchlist in force then.
ALTER TABLE acknowledgements ADD COLUMN escalation_checked_at TEXT;
