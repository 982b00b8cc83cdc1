-- The current deadline estimate of each DJEN publication (src/deadlines/): its rule, dates and
-- the whole estimate as shown. Kept so that a closure configured later re-estimates every open
-- estimate on the next sweep and a date that moves is mailed once, and so that a calendar feed
-- can read, per watcher, the last days and sessions the monitor computed.
CREATE TABLE deadline_estimates (
  id INTEGER PRIMARY KEY,
  publication_id INTEGER NOT NULL UNIQUE REFERENCES publications (id),
  -- "djen:<DJEN id>": a stable identity (a calendar event's UID is derived from it).
  subject TEXT NOT NULL UNIQUE,
  -- deadlines/estimate-schema.ts RuleCode: intimacao, edital, pauta, no-deadline, personal, citacao.
  rule TEXT NOT NULL,
  published_on TEXT NOT NULL,
  counting_starts_on TEXT,
  last_day TEXT,
  -- A pauta's session: its day, its time (HH:MM, the court's wall clock) and a virtual session's
  -- last day.
  session_date TEXT,
  session_time TEXT,
  session_end_date TEXT,
  -- The last of its dates: re-estimated on every sweep until this day has passed.
  open_until TEXT NOT NULL,
  estimate TEXT NOT NULL CHECK (json_valid(estimate)),
  -- 1, and one more each time a date moves.
  revision INTEGER NOT NULL DEFAULT 1,
  computed_at TEXT NOT NULL,
  -- The revision those mailed about the publication were last told; NULL: nobody was mailed.
  told_revision INTEGER
) STRICT;

CREATE INDEX deadline_estimates_open_until ON deadline_estimates (open_until);

-- Who follows each estimate (the watchers of its case and the followers of the registrations it
-- names, as the report phase found them), lower-case addresses: "the estimates of a watcher".
CREATE TABLE deadline_estimate_watchers (
  estimate_id INTEGER NOT NULL REFERENCES deadline_estimates (id),
  recipient TEXT NOT NULL,
  PRIMARY KEY (estimate_id, recipient)
) STRICT, WITHOUT ROWID;

CREATE INDEX deadline_estimate_watchers_recipient ON deadline_estimate_watchers (recipient);
