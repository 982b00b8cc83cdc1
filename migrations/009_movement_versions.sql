-- Every form a movement has had. `movements` keeps each movement's current form (what the next
-- answer is matched against); a movement DataJud corrected keeps here its first form (version 1,
-- as first seen and reported) and each correction after it, so what was mailed is never
-- overwritten. A movement never corrected has no row here: its only form is in `movements`.
--
-- kind: 'first' (the form first seen), 'amended' (same code and time, other name or
-- complements), 'redated' (same code, name and complements at another time).
-- change_id: the change that reported this form (for 'first', the change that reported the
-- movement, NULL for a baseline read; for a correction, the change that mailed it, NULL when it
-- was recorded without mail: a complement added or the TPU's wording of a name, nothing a lawyer
-- read before became untrue).
CREATE TABLE movement_versions (
  id INTEGER PRIMARY KEY,
  movement_row_id INTEGER NOT NULL REFERENCES movements (id) ON DELETE CASCADE,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  version INTEGER NOT NULL CHECK (version >= 1),
  kind TEXT NOT NULL CHECK (kind IN ('first', 'amended', 'redated')),
  date_time TEXT,
  data TEXT NOT NULL CHECK (json_valid(data)),
  recorded_at TEXT NOT NULL,
  change_id INTEGER REFERENCES changes (id) ON DELETE SET NULL,
  UNIQUE (movement_row_id, version)
) STRICT;

CREATE INDEX movement_versions_case ON movement_versions (case_id, recorded_at);
CREATE INDEX movement_versions_change_id ON movement_versions (change_id);
