-- Unchanged checks kept as per-run counts once they are not the latest. `checks` grew by one row
-- (about 154 bytes) per case per sweep, nearly all of them "unchanged": 88% of the database's
-- growth. The daily retention job (store/checks.ts compactUnchangedChecks) now folds each
-- unchanged check into its run's row here, except each case's latest check and its latest
-- answered (not failed) one, which `status` and the failing-case report read; every baseline,
-- changed, not-found and failed check stays a row of `checks`.
--
-- checks: how many unchanged checks of the run were folded in; first/last_checked_at: the
-- earliest and latest of them. Deleted by the same retention as checks, by last_checked_at.
CREATE TABLE check_tallies (
  run_id INTEGER NOT NULL REFERENCES runs (id),
  outcome TEXT NOT NULL CHECK (outcome IN ('unchanged')),
  checks INTEGER NOT NULL CHECK (checks >= 1),
  first_checked_at TEXT NOT NULL,
  last_checked_at TEXT NOT NULL,
  PRIMARY KEY (run_id, outcome)
) STRICT, WITHOUT ROWID;

CREATE INDEX check_tallies_last_checked_at ON check_tallies (last_checked_at);
