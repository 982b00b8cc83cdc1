-- The calendar feed (`datajud-monitor calendar`, the daemon's /calendar/<token>.ics).
--
-- The seat an estimate was made at: the IBGE code of the unit's seat (NULL: unknown), so the
-- feed reads a session's time in the zone of the court where it sits and counts a reminder's
-- business days on the same court calendar the estimate used.
ALTER TABLE deadline_estimates ADD COLUMN seat INTEGER;

-- The private addresses of watchers' feeds. A calendar client cannot send a header, so the
-- secret is in the path: only its SHA-256 is kept (a copy of the database gives no feed away),
-- shown once when created. Revoking keeps the row (who had it, when it ended).
CREATE TABLE calendar_tokens (
  id INTEGER PRIMARY KEY,
  -- Hex SHA-256 of the token.
  token_hash TEXT NOT NULL UNIQUE,
  -- The watcher whose feed it opens, lower case.
  recipient TEXT NOT NULL,
  -- What the operator wrote to tell tokens apart ("Ana, Outlook"); never the token.
  label TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
