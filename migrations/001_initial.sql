-- The monitor's first schema. Timestamps are ISO 8601 text in UTC (Date#toISOString), so they
-- sort as text; JSON columns are text checked with json_valid. Cases are never deleted: leaving
-- the watchlist sets watched = 0 and keeps the history. Later changes go in new numbered files.

CREATE TABLE cases (
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL,
  digits TEXT NOT NULL,
  court TEXT NOT NULL,
  label TEXT,
  watchers TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(watchers)),
  watched INTEGER NOT NULL DEFAULT 1 CHECK (watched IN (0, 1)),
  first_seen_at TEXT,
  last_seen_at TEXT,
  last_checked_at TEXT,
  last_changed_at TEXT,
  last_full_read_at TEXT,
  last_fingerprint TEXT,
  last_outcome TEXT
    CHECK (last_outcome IN ('baseline', 'unchanged', 'changed', 'not_found', 'failed')),
  last_error TEXT,
  consecutive_not_found INTEGER NOT NULL DEFAULT 0,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  gone_at TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (digits, court)
) STRICT;

CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  "trigger" TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'crashed')),
  report TEXT CHECK (report IS NULL OR json_valid(report))
) STRICT;

CREATE INDEX runs_started_at ON runs (started_at);

CREATE TABLE checks (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs (id),
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  checked_at TEXT NOT NULL,
  outcome TEXT NOT NULL
    CHECK (outcome IN ('baseline', 'unchanged', 'changed', 'not_found', 'failed')),
  fingerprint TEXT,
  new_movements INTEGER NOT NULL DEFAULT 0,
  error_kind TEXT,
  error TEXT,
  datajud_fetched_at TEXT
) STRICT;

CREATE INDEX checks_case_checked_at ON checks (case_id, checked_at);
CREATE INDEX checks_run_id ON checks (run_id);

CREATE TABLE changes (
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  run_id INTEGER NOT NULL REFERENCES runs (id),
  detected_at TEXT NOT NULL,
  -- JSON array of change kinds, e.g. ["new_movements","class_changed"]
  kind TEXT NOT NULL CHECK (json_valid(kind)),
  details TEXT NOT NULL CHECK (json_valid(details)),
  new_movements INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX changes_case_detected_at ON changes (case_id, detected_at);
CREATE INDEX changes_run_id ON changes (run_id);

-- One row per DataJud document (one per instance/grau) of a case, holding the latest record.
CREATE TABLE instances (
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  instance TEXT NOT NULL,
  record_id TEXT NOT NULL,
  fingerprint TEXT,
  record TEXT NOT NULL CHECK (json_valid(record)),
  version INTEGER NOT NULL DEFAULT 1,
  first_seen_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (case_id, record_id)
) STRICT;

-- Every distinct record an instance has had, the current one included.
CREATE TABLE instance_versions (
  id INTEGER PRIMARY KEY,
  instance_id INTEGER NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  record TEXT NOT NULL CHECK (json_valid(record)),
  fingerprint TEXT,
  recorded_at TEXT NOT NULL,
  change_id INTEGER REFERENCES changes (id) ON DELETE SET NULL,
  UNIQUE (instance_id, version)
) STRICT;

CREATE INDEX instance_versions_change_id ON instance_versions (change_id);

-- movement_id is the normalized Movement.id, a content hash: the same movement read again is
-- ignored, so this table only grows by movements never seen before.
CREATE TABLE movements (
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  instance_id INTEGER NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  movement_id TEXT NOT NULL,
  code INTEGER,
  name TEXT NOT NULL,
  date_time TEXT,
  data TEXT NOT NULL CHECK (json_valid(data)),
  first_seen_at TEXT NOT NULL,
  change_id INTEGER REFERENCES changes (id) ON DELETE SET NULL,
  UNIQUE (instance_id, movement_id)
) STRICT;

CREATE INDEX movements_case_date_time ON movements (case_id, date_time);
CREATE INDEX movements_change_id ON movements (change_id);

CREATE TABLE summaries (
  id INTEGER PRIMARY KEY,
  change_id INTEGER NOT NULL UNIQUE REFERENCES changes (id) ON DELETE CASCADE,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  generated_by TEXT NOT NULL,
  model TEXT,
  summary TEXT NOT NULL CHECK (json_valid(summary)),
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX summaries_case_id ON summaries (case_id);

-- Mail to send, written in the same transaction as what it reports; dedupe_key makes a retried
-- run queue the same message at most once. next_attempt_at NULL means due now.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  change_id INTEGER REFERENCES changes (id) ON DELETE SET NULL,
  case_id INTEGER REFERENCES cases (id) ON DELETE SET NULL,
  recipient TEXT NOT NULL,
  kind TEXT NOT NULL,
  dedupe_key TEXT NOT NULL UNIQUE,
  subject TEXT,
  message_id TEXT,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  smtp_response TEXT
) STRICT;

CREATE INDEX outbox_status_next_attempt_at ON outbox (status, next_attempt_at);
CREATE INDEX outbox_case_id ON outbox (case_id);
CREATE INDEX outbox_change_id ON outbox (change_id);

-- At most one sweep at a time across processes; absent row = free.
CREATE TABLE lease (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  holder TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
