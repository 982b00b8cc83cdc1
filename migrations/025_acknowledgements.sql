-- Urgent alerts that ask a person to acknowledge them (issue 40): one row per alert (the message
-- key every endpoint's row of it shares), made when its rows are queued and only when
-- acknowledgement links are configured. An acknowledgement records who (the watcher's address, a
-- watcher's WhatsApp number, or a chat endpoint) and when, once: the first wins, a later use of
-- any link of the alert changes nothing. expires_at: after it, the alert's links are refused.
CREATE TABLE acknowledgements (
  id INTEGER PRIMARY KEY,
  alert_key TEXT NOT NULL UNIQUE,
  case_id INTEGER REFERENCES cases(id),
  change_id INTEGER REFERENCES changes(id),
  subject TEXT NOT NULL,
  -- The endpoints (by name) the case routed to when it was queued: alert.acknowledged goes there.
  channels TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  acknowledged_at TEXT,
  acknowledged_by TEXT
);
CREATE INDEX acknowledgements_case ON acknowledgements (case_id, created_at);

-- The acknowledgement an outbox row's link is for; null: the row carries none.
ALTER TABLE outbox ADD COLUMN ack_id INTEGER REFERENCES acknowledgements(id);
