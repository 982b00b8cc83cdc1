-- DJEN publications: the intimações, citações and editais the Diário de Justiça Eletrônico
-- Nacional carries. Each communication is stored once, by DJEN's id, with its sanitized plain text
-- and the item exactly as DJEN sent it, in the transaction that records the check that found it
-- (before any e-mail). A publication belongs to a case by its number, not to a case row: the
-- watchlist in force decides who hears of it when it is reported.
CREATE TABLE publications (
  id INTEGER PRIMARY KEY,
  djen_id TEXT NOT NULL UNIQUE,
  -- 20 digits; NULL when DJEN gave no well-formed case number.
  case_number TEXT,
  -- DJEN's court acronym (TJSP, TRF1, STJ...).
  court TEXT NOT NULL,
  -- The date of disponibilização, YYYY-MM-DD.
  available_on TEXT NOT NULL,
  kind TEXT,
  document_type TEXT,
  court_unit TEXT,
  -- The normalized publication (djen/publication.ts) without `text` and `raw`.
  publication TEXT NOT NULL CHECK (json_valid(publication)),
  -- DJEN's text as plain text (scripts, tags and control characters gone), whole.
  text TEXT NOT NULL,
  -- The item exactly as DJEN sent it when first seen.
  raw TEXT NOT NULL CHECK (json_valid(raw)),
  -- How it was found: ["case:<20 digits>", "oab:123456/SP"], first finder first.
  found_by TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(found_by)),
  first_seen_at TEXT NOT NULL,
  run_id INTEGER REFERENCES runs (id),
  -- 1: every check that found it was that source's first (the baseline): recorded, not mailed.
  baseline INTEGER NOT NULL DEFAULT 0 CHECK (baseline IN (0, 1)),
  -- What the report phase did with it; NULL until then (a crash leaves it for the next run).
  disposition TEXT CHECK (disposition IN ('alert', 'baseline', 'ignored', 'muted', 'cancelled')),
  reported_at TEXT,
  -- When a sweep first saw it cancelled after it had been stored as published.
  cancelled_at TEXT,
  cancellation TEXT CHECK (cancellation IS NULL OR json_valid(cancellation)),
  -- When the correction was queued to those told of it (or found to be owed to nobody).
  correction_reported_at TEXT
) STRICT;

CREATE INDEX publications_case_number ON publications (case_number, available_on);
CREATE INDEX publications_first_seen_at ON publications (first_seen_at);
CREATE INDEX publications_unreported ON publications (id) WHERE disposition IS NULL;
CREATE INDEX publications_uncorrected ON publications (id)
  WHERE cancelled_at IS NOT NULL AND correction_reported_at IS NULL;

-- What DJEN is asked for on every sweep: each watched case number and each OAB registration of
-- the watchlist. The first complete answer is the source's baseline; failures are counted, so a
-- DJEN failure is a failed check shown in `monitor status`, never "no publications".
CREATE TABLE djen_sources (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('case', 'oab')),
  -- 20 digits, or "123456/SP".
  key TEXT NOT NULL,
  first_ok_at TEXT,
  last_checked_at TEXT,
  last_ok_at TEXT,
  last_outcome TEXT CHECK (last_outcome IN ('ok', 'failed')),
  last_error_kind TEXT,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  UNIQUE (kind, key)
) STRICT;

-- Monitor health gains DJEN: one incident while DJEN answers no check of whole sweeps (at once
-- when it refuses this server's address). SQLite cannot change a CHECK, so the table is rebuilt.
CREATE TABLE health_incidents_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('sweeps_failing', 'auth_rejected', 'djen_failing')),
  started_at TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  recipient TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  recovered_at TEXT
) STRICT;

INSERT INTO health_incidents_new (id, kind, started_at, opened_at, recipient, details, recovered_at)
  SELECT id, kind, started_at, opened_at, recipient, details, recovered_at FROM health_incidents;
DROP TABLE health_incidents;
ALTER TABLE health_incidents_new RENAME TO health_incidents;
CREATE UNIQUE INDEX health_incidents_one_open ON health_incidents (kind) WHERE recovered_at IS NULL;
