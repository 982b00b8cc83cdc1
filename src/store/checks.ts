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
 * has not been checked for a while still shows when and how it was last seen.
 */
export function deleteChecksBefore(db: Db, iso: string): number {
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
