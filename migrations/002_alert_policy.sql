-- Alert policy. A change's summary now records what was done with it: mailed to its watchers
-- ('alert'), or kept quiet because every new movement matched an ignore rule ('ignored') or the
-- case was muted ('muted'). Summaries written before this migration were all mailed.
ALTER TABLE summaries ADD COLUMN disposition TEXT NOT NULL DEFAULT 'alert'
  CHECK (disposition IN ('alert', 'ignored', 'muted'));

-- Monitor health incidents told to mail.admin: one row from the e-mail that opened it to the one
-- that said it was over. A recovery is mailed only for a row that exists, so never without the
-- failure e-mail before it, and to the same address.
CREATE TABLE health_incidents (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('sweeps_failing', 'auth_rejected')),
  -- The first failure of the incident: a failed check or the start of a failed sweep.
  started_at TEXT NOT NULL,
  -- When the opening e-mail was queued.
  opened_at TEXT NOT NULL,
  recipient TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  recovered_at TEXT
) STRICT;

CREATE UNIQUE INDEX health_incidents_one_open ON health_incidents (kind) WHERE recovered_at IS NULL;
