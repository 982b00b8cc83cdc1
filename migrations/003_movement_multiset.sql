-- Movements as DataJud counts them. A record can list the same movement several times (one
-- deadline expiry per party) and DataJud counts every copy, so a movement is now an identity (a
-- hash of its canonical form: code, name and complements without regard to case, accents, spacing
-- or complement order, and its wall-clock time) plus an occurrence number among its copies in the
-- instance. movement_id becomes 'identity:occurrence'.
--
-- Rows written before this migration keep identity NULL and their schema-2 movement_id (a hash of
-- the movement exactly as sent with its date read as UTC). The first full read of each case after
-- the upgrade recognises them by that hash and re-keys them, and stores the copies schema 2 had
-- collapsed, silently: nothing known before the upgrade is news after it.
ALTER TABLE movements ADD COLUMN identity TEXT;
ALTER TABLE movements ADD COLUMN occurrence INTEGER NOT NULL DEFAULT 1 CHECK (occurrence >= 1);
-- When DataJud stopped listing this copy; NULL while it does. Kept, never alerted.
ALTER TABLE movements ADD COLUMN disappeared_at TEXT;

CREATE UNIQUE INDEX movements_instance_identity ON movements (instance_id, identity, occurrence)
  WHERE identity IS NOT NULL;

-- What happened to a stored movement after it was first seen, for `monitor history`: DataJud
-- re-served it with another name or complements at the same code and time ('amended', the form
-- before in `before`), stopped listing it ('disappeared'), or listed it again ('reappeared').
-- None of these is mailed.
CREATE TABLE movement_events (
  id INTEGER PRIMARY KEY,
  movement_row_id INTEGER NOT NULL REFERENCES movements (id) ON DELETE CASCADE,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('amended', 'disappeared', 'reappeared')),
  before TEXT CHECK (before IS NULL OR json_valid(before))
) STRICT;

CREATE INDEX movement_events_case_at ON movement_events (case_id, at);

-- The first sweep after the upgrade reads every known case in full once (ceil(N/100) requests per
-- court), so each case's stored movements are re-keyed and completed at once.
UPDATE cases SET last_full_read_at = NULL WHERE first_seen_at IS NOT NULL;
