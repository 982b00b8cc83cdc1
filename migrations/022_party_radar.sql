-- The party radar (issue 37): DJEN is asked for each watched party's name and alias, and what it
-- returns in a case the watchlist does not hold is matched and kept here.
--
-- djen_sources gains the kind 'party' (key: the name as DJEN is asked it, `nomeParte`): the same
-- plan, checks, failures and catch-up window as case numbers and registrations. SQLite cannot
-- change a CHECK, so the table is rebuilt with its rows and every column it has by now
-- (last_answer_hash, migration 020), and the record of watching's triggers on it (migration 020)
-- are made again: dropping the table drops them. Their subject for a party's name is
-- "party:<name>" (case numbers and registrations keep theirs).
CREATE TABLE djen_sources_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('case', 'oab', 'party')),
  -- 20 digits, "123456/SP", or a party's name as asked ("ACME COMERCIO LTDA").
  key TEXT NOT NULL,
  first_ok_at TEXT,
  last_checked_at TEXT,
  last_ok_at TEXT,
  last_outcome TEXT CHECK (last_outcome IN ('ok', 'failed')),
  last_error_kind TEXT,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_answer_hash TEXT,
  UNIQUE (kind, key)
) STRICT;

INSERT INTO djen_sources_new (id, kind, key, first_ok_at, last_checked_at, last_ok_at,
    last_outcome, last_error_kind, last_error, consecutive_failures, last_answer_hash)
  SELECT id, kind, key, first_ok_at, last_checked_at, last_ok_at, last_outcome, last_error_kind,
    last_error, consecutive_failures, last_answer_hash
  FROM djen_sources;
DROP TABLE djen_sources;
ALTER TABLE djen_sources_new RENAME TO djen_sources;

CREATE TRIGGER ledger_djen_check_first AFTER INSERT ON djen_sources
WHEN NEW.last_checked_at IS NOT NULL
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    CASE NEW.kind WHEN 'case' THEN NEW.key ELSE NEW.kind || ':' || NEW.key END,
    NEW.last_checked_at, 'djen_check', 'djen', NEW.kind || ':' || NEW.key,
    coalesce(NEW.last_outcome, 'unknown'), NEW.last_answer_hash,
    json_object('errorKind', NEW.last_error_kind, 'error', NEW.last_error));
END;

CREATE TRIGGER ledger_djen_check AFTER UPDATE OF last_checked_at ON djen_sources
WHEN NEW.last_checked_at IS NOT NULL
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    CASE NEW.kind WHEN 'case' THEN NEW.key ELSE NEW.kind || ':' || NEW.key END,
    NEW.last_checked_at, 'djen_check', 'djen', NEW.kind || ':' || NEW.key,
    coalesce(NEW.last_outcome, 'unknown'), NEW.last_answer_hash,
    json_object('errorKind', NEW.last_error_kind, 'error', NEW.last_error));
END;

-- One row per watched party and DJEN item that names it (matched: confirmado, provável or
-- possível homônimo; what matches nothing is never stored), in a case outside the watchlist.
-- Committed with the source's check, before any alert. The first of a (party, case) is the news
-- of a new lawsuit (disposition 'alert', or 'baseline' at a source's first answer); the others
-- of that case are later items.
CREATE TABLE party_hits (
  id INTEGER PRIMARY KEY,
  -- "cnpj:<14>", "cpf:<11>" or "name:<name as asked>" (watchlist/parse-parties.ts).
  party_key TEXT NOT NULL,
  -- The party's name as the watchlist wrote it when the hit was stored.
  party_name TEXT NOT NULL,
  djen_id TEXT NOT NULL,
  -- 20 digits: an item without a case number names no lawsuit and is not kept.
  case_number TEXT NOT NULL,
  -- DJEN's court acronym (TJSP).
  court TEXT NOT NULL,
  -- The date of disponibilização, YYYY-MM-DD.
  available_on TEXT NOT NULL,
  kind TEXT,
  confidence TEXT NOT NULL CHECK (confidence IN ('confirmado', 'provavel', 'homonimo')),
  -- Why, in Portuguese, as the alert says it.
  reason TEXT NOT NULL,
  -- The destinatário that matched and its polo, as DJEN wrote them; NULL when none did.
  recipient TEXT,
  side TEXT,
  -- The name DJEN was asked when it was first found.
  found_by TEXT NOT NULL,
  -- The normalized publication (djen/publication.ts) without `text` and `raw`.
  publication TEXT NOT NULL CHECK (json_valid(publication)),
  -- DJEN's text as plain text, whole.
  text TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  run_id INTEGER REFERENCES runs (id),
  baseline INTEGER NOT NULL DEFAULT 0 CHECK (baseline IN (0, 1)),
  -- alert: told as a new lawsuit; baseline: found at a source's first answer, not told; later: a
  -- later item of a case already told of, not told; publication: a later item told as a
  -- publication (the party's later: publications); watched: the case is in the watchlist by
  -- now; unwatched: the party left the watchlist before it was reported. NULL until reported.
  disposition TEXT CHECK (disposition IN
    ('alert', 'baseline', 'later', 'publication', 'watched', 'unwatched')),
  reported_at TEXT,
  UNIQUE (party_key, djen_id)
) STRICT;

CREATE INDEX party_hits_case ON party_hits (party_key, case_number, id);
CREATE INDEX party_hits_unreported ON party_hits (id) WHERE disposition IS NULL;
CREATE INDEX party_hits_first_seen_at ON party_hits (first_seen_at);
