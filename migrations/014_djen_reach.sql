-- Whether DJEN could be reached at its last try (one row, id 1, only while it could not).
--
-- A DJEN phase that finds DJEN unreachable (refused, DNS, TLS, every attempt timing out) or
-- refusing this server (403) stops there and records a failed check for each source it had to
-- ask. Between sweeps the daemon then waits before trying again, doubling from 10 minutes per
-- trip in a row (policy/djen-plan.ts djenRetryAtMs); a complete answer deletes the row.
--
-- tripped_at: the last trip; trips: trips in a row since DJEN last answered; reason: why.
CREATE TABLE djen_reach (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  tripped_at TEXT NOT NULL,
  trips INTEGER NOT NULL CHECK (trips >= 1),
  reason TEXT NOT NULL
) STRICT;
