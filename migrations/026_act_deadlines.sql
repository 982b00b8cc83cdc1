-- The last days of the periods a DataJud act opens (summarize/act-deadlines.ts), as the alert that
-- dated them gave them, for the calendar feed beside DJEN's estimates: one row per act of a case's
-- instance, updated in place when a later alert dates it otherwise (a re-dated Diário), so a
-- calendar client moves the same events.
CREATE TABLE act_deadlines (
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES cases (id),
  -- "datajud-act:<case id>:<instance>:<movement id>": one act of one instance.
  subject TEXT NOT NULL UNIQUE,
  -- Each dated period's name and last day ("apelação=2026-12-01", one a line): what a move is.
  dates TEXT NOT NULL,
  -- The earliest and the latest of those last days.
  first_day TEXT NOT NULL,
  open_until TEXT NOT NULL,
  -- The IBGE code of the unit's seat the dates were counted at; NULL: unknown.
  seat INTEGER,
  -- The act and its periods as the alert stored them (ActDeadline).
  act TEXT NOT NULL CHECK (json_valid(act)),
  -- 1, and one more each time a last day moves.
  revision INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
) STRICT;

CREATE INDEX act_deadlines_open_until ON act_deadlines (open_until);

-- Who follows each act's dates: the case's watchers when it was alerted, lower-case addresses.
CREATE TABLE act_deadline_watchers (
  act_deadline_id INTEGER NOT NULL REFERENCES act_deadlines (id),
  recipient TEXT NOT NULL,
  PRIMARY KEY (act_deadline_id, recipient)
) STRICT, WITHOUT ROWID;

CREATE INDEX act_deadline_watchers_recipient ON act_deadline_watchers (recipient);
