-- The last watchlist a process accepted (the daemon at start and on each reload, run-once): the
-- daemon runs on this copy when the file is invalid at its start, instead of staying down for a
-- typo. One row. refused_since and refused_errors are set while the daemon runs on the copy
-- because the file is invalid (since when, and its file:line:col errors, as a JSON list).
CREATE TABLE last_good_watchlist (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  path TEXT NOT NULL,
  text TEXT NOT NULL,
  accepted_at TEXT NOT NULL,
  refused_since TEXT,
  refused_errors TEXT CHECK (refused_errors IS NULL OR json_valid(refused_errors))
) STRICT;

-- Monitor health gains the watchlist: one incident while the daemon runs on the last good copy.
-- SQLite cannot change a CHECK, so the table is rebuilt.
CREATE TABLE health_incidents_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('sweeps_failing', 'auth_rejected', 'djen_failing', 'watchlist_invalid')),
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
