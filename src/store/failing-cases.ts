import type { Db } from "./database.js";

/*
 * What the checks say about cases whose latest check failed, for the operator's alerts. Every query
 * walks the (case_id, checked_at) index from one end and stops at the first match, and only for
 * cases whose latest check failed, so a sweep pays nothing when all is well.
 */

export interface CheckRef {
  at: string;
  errorKind: string | null;
  error: string | null;
}

/** A case whose latest check failed. */
export interface FailingCaseRow {
  id: number;
  number: string;
  court: string;
  label: string | null;
  watched: boolean;
  failures: number;
  lastCheckedAt: string | null;
  /** Its latest check that did not fail: when DataJud last answered for it. */
  answeredAt: string | null;
  /** Its latest check. */
  latest: CheckRef | null;
}

function failingCaseRows(db: Db): Array<Omit<FailingCaseRow, "answeredAt" | "latest">> {
  return db
    .prepare<
      [],
      {
        id: number;
        number: string;
        court: string;
        label: string | null;
        watched: number;
        failures: number;
        lastCheckedAt: string | null;
      }
    >(
      `SELECT id, number, court, label, watched, consecutive_failures AS failures,
         last_checked_at AS lastCheckedAt
       FROM cases WHERE last_outcome = 'failed' ORDER BY id`,
    )
    .all()
    .map((row) => ({ ...row, watched: row.watched === 1 }));
}

function lastAnswered(db: Db, caseId: number): string | null {
  return (
    db
      .prepare<[number], { at: string }>(
        `SELECT checked_at AS at FROM checks WHERE case_id = ? AND outcome != 'failed'
         ORDER BY checked_at DESC, id DESC LIMIT 1`,
      )
      .get(caseId)?.at ?? null
  );
}

function latestCheck(db: Db, caseId: number): CheckRef | null {
  return (
    db
      .prepare<[number], CheckRef>(
        `SELECT checked_at AS at, error_kind AS errorKind, error FROM checks WHERE case_id = ?
         ORDER BY checked_at DESC, id DESC LIMIT 1`,
      )
      .get(caseId) ?? null
  );
}

/** Every case whose latest check failed, with its last answer and its latest check. */
export function failingCases(db: Db): FailingCaseRow[] {
  return failingCaseRows(db).map((row) => ({
    ...row,
    answeredAt: lastAnswered(db, row.id),
    latest: latestCheck(db, row.id),
  }));
}

/** When DataJud last answered for any case that is not failing now. */
export function lastAnsweredOfHealthyCases(db: Db): string | null {
  return (
    db
      .prepare<[], { at: string | null }>(
        `SELECT MAX(last_checked_at) AS at FROM cases
         WHERE last_outcome IS NOT NULL AND last_outcome != 'failed'`,
      )
      .get()?.at ?? null
  );
}

/**
 * The case's first failed check at or after `after` (of one error kind, or any); `>=`: a failure
 * stamped the same millisecond as another case's answer still counts.
 */
export function firstFailureAfter(
  db: Db,
  caseId: number,
  after: string | null,
  onlyKind: string | null,
): string | null {
  return (
    db
      .prepare<{ caseId: number; after: string; kind: string | null }, { at: string }>(
        `SELECT checked_at AS at FROM checks
         WHERE case_id = @caseId AND outcome = 'failed' AND checked_at >= @after
           AND (@kind IS NULL OR error_kind = @kind)
         ORDER BY checked_at, id LIMIT 1`,
      )
      .get({ caseId, after: after ?? "", kind: onlyKind })?.at ?? null
  );
}

/** The latest failed check of a run. */
export function latestFailedCheckOfRun(
  db: Db,
  runId: number,
): { errorKind: string | null; error: string | null } | undefined {
  return db
    .prepare<[number], { errorKind: string | null; error: string | null }>(
      `SELECT error_kind AS errorKind, error FROM checks WHERE run_id = ? AND outcome = 'failed'
       ORDER BY checked_at DESC, id DESC LIMIT 1`,
    )
    .get(runId);
}
