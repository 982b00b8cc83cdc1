-- Hearings whose date DataJud states (a hearing movement's own words), for the calendar feed:
-- one row per hearing of a case's instance, updated in place when the court moves it and marked
-- when it cancels it, so a calendar client updates the same event (issue 34).
CREATE TABLE datajud_hearings (
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES cases (id),
  -- "datajud-hearing:<case id>:<instance>:<hearing, folded>": one hearing of one instance.
  subject TEXT NOT NULL UNIQUE,
  -- "Audiência de instrução", as the alert names it.
  title TEXT NOT NULL,
  instance TEXT NOT NULL,
  -- The hearing's day and time (HH:MM), the court's wall clock, as the movement states them.
  date TEXT NOT NULL,
  time TEXT,
  -- The words the date was read from.
  quote TEXT NOT NULL,
  cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled IN (0, 1)),
  -- 1, and one more each time the date moves or the hearing is cancelled.
  revision INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
) STRICT;

CREATE INDEX datajud_hearings_date ON datajud_hearings (date);

-- Who follows each hearing: the case's watchers when it was alerted, lower-case addresses.
CREATE TABLE datajud_hearing_watchers (
  hearing_id INTEGER NOT NULL REFERENCES datajud_hearings (id),
  recipient TEXT NOT NULL,
  PRIMARY KEY (hearing_id, recipient)
) STRICT;
