import { type Db, statement } from "./database.js";

/** What a check of one case came to: the contract's outcomes (DESIGN.md, `run-once --json`). */
export const CHECK_OUTCOMES = ["baseline", "unchanged", "changed", "not_found", "failed"] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

export interface NewCheck {
  runId: number;
  caseId: number;
  checkedAt: string;
  outcome: CheckOutcome;
  fingerprint: string | null;
  newMovements: number;
  errorKind: string | null;
  error: string | null;
  /** When DataJud produced the answer this check is based on (its provenance). */
  datajudFetchedAt: string | null;
}

export interface CheckRow extends NewCheck {
  id: number;
}

export function recordCheck(db: Db, check: NewCheck): number {
  const result = statement<NewCheck>(
    db,
    `INSERT INTO checks (run_id, case_id, checked_at, outcome, fingerprint, new_movements,
       error_kind, error, datajud_fetched_at)
     VALUES (@runId, @caseId, @checkedAt, @outcome, @fingerprint, @newMovements,
       @errorKind, @error, @datajudFetchedAt)`,
  ).run(check);
  return Number(result.lastInsertRowid);
}

/** Newest first. */
export function listChecks(db: Db, caseId: number, limit: number): CheckRow[] {
  return db
    .prepare<[number, number], CheckRow>(
      `SELECT id, run_id AS runId, case_id AS caseId, checked_at AS checkedAt, outcome, fingerprint,
         new_movements AS newMovements, error_kind AS errorKind, error,
         datajud_fetched_at AS datajudFetchedAt
       FROM checks WHERE case_id = ? ORDER BY checked_at DESC, id DESC LIMIT ?`,
    )
    .all(caseId, limit);
}

/**
 * Retention: deletes checks older than `iso`, except each case's latest one, so a case that
 * has not been checked for a while still shows when and how it was last seen; and the tallies of
 * unchanged checks whose latest is older.
 */
export function deleteChecksBefore(db: Db, iso: string): number {
  statement<[string]>(db, "DELETE FROM check_tallies WHERE last_checked_at < ?").run(iso);
  return db
    .prepare<[string]>(
      `DELETE FROM checks
       WHERE checked_at < ?
         AND id NOT IN (
           SELECT id FROM (
             SELECT id, row_number() OVER (PARTITION BY case_id ORDER BY checked_at DESC, id DESC) AS rn
             FROM checks
           ) WHERE rn = 1
         )`,
    )
    .run(iso).changes;
}

/**
 * The unchanged checks that are neither a case's latest check nor its latest answered (not
 * failed) one: what failing-cases.ts reads, "last answered" and "latest", stays a row.
 */
const FOLDABLE = `
  SELECT id, run_id, checked_at FROM checks
  WHERE outcome = 'unchanged' AND id NOT IN (
    SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY case_id ORDER BY checked_at DESC, id DESC) AS rn
      FROM checks
    ) WHERE rn = 1
    UNION ALL
    SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY case_id ORDER BY checked_at DESC, id DESC) AS rn
      FROM checks WHERE outcome != 'failed'
    ) WHERE rn = 1
  )`;

/**
 * Folds every unchanged check that is not its case's latest (nor its latest answered one) into
 * its run's tally (check_tallies): a count, the first and last time. Baseline, changed,
 * not-found and failed checks stay rows. Call it in a transaction; returns the rows folded.
 */
export function compactUnchangedChecks(db: Db): number {
  db.prepare(
    `INSERT INTO check_tallies (run_id, outcome, checks, first_checked_at, last_checked_at)
     SELECT run_id, 'unchanged', COUNT(*), MIN(checked_at), MAX(checked_at)
     FROM (${FOLDABLE}) GROUP BY run_id
     ON CONFLICT (run_id, outcome) DO UPDATE SET
       checks = checks + excluded.checks,
       first_checked_at = min(first_checked_at, excluded.first_checked_at),
       last_checked_at = max(last_checked_at, excluded.last_checked_at)`,
  ).run();
  return db.prepare(`DELETE FROM checks WHERE id IN (SELECT id FROM (${FOLDABLE}))`).run().changes;
}

/** How many checks of each outcome a run made, the folded unchanged ones counted in. */
export function checkCountsOfRun(db: Db, runId: number): Partial<Record<CheckOutcome, number>> {
  const rows = db
    .prepare<[number, number], { outcome: CheckOutcome; n: number }>(
      `SELECT outcome, SUM(n) AS n FROM (
         SELECT outcome, COUNT(*) AS n FROM checks WHERE run_id = ? GROUP BY outcome
         UNION ALL
         SELECT outcome, checks AS n FROM check_tallies WHERE run_id = ?
       ) GROUP BY outcome ORDER BY outcome`,
    )
    .all(runId, runId);
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
}
