import type { Db } from "./database.js";
import type { SummaryDisposition } from "./summaries.js";

export interface NewChange {
  caseId: number;
  runId: number;
  detectedAt: string;
  /** e.g. ["new_movements", "new_instance", "class_changed"] */
  kinds: readonly string[];
  details: unknown;
  newMovements: number;
}

export interface ChangeSummary {
  generatedBy: string;
  model: string | null;
  createdAt: string;
  /** The stored CaseSummary JSON. */
  content: unknown;
  /** Mailed, or kept quiet by an ignore rule or a mute. */
  disposition: SummaryDisposition;
}

export interface ChangeRow {
  id: number;
  caseId: number;
  runId: number;
  detectedAt: string;
  kinds: string[];
  details: unknown;
  newMovements: number;
  /** Null until a summary was written for this change. */
  summary: ChangeSummary | null;
}

interface RawChange {
  id: number;
  caseId: number;
  runId: number;
  detectedAt: string;
  kinds: string;
  details: string;
  newMovements: number;
  summary: string | null;
  summaryGeneratedBy: string | null;
  summaryModel: string | null;
  summaryCreatedAt: string | null;
  summaryDisposition: SummaryDisposition | null;
}

export function insertChange(db: Db, change: NewChange): number {
  const result = db
    .prepare<{
      caseId: number;
      runId: number;
      detectedAt: string;
      kinds: string;
      details: string;
      newMovements: number;
    }>(
      `INSERT INTO changes (case_id, run_id, detected_at, kind, details, new_movements)
       VALUES (@caseId, @runId, @detectedAt, @kinds, @details, @newMovements)`,
    )
    .run({
      caseId: change.caseId,
      runId: change.runId,
      detectedAt: change.detectedAt,
      kinds: JSON.stringify(change.kinds),
      details: JSON.stringify(change.details ?? null),
      newMovements: change.newMovements,
    });
  return Number(result.lastInsertRowid);
}

function toChange(raw: RawChange): ChangeRow {
  const kinds: string[] = JSON.parse(raw.kinds);
  const details: unknown = JSON.parse(raw.details);
  const summary: ChangeSummary | null =
    raw.summary === null || raw.summaryGeneratedBy === null || raw.summaryCreatedAt === null
      ? null
      : {
          generatedBy: raw.summaryGeneratedBy,
          model: raw.summaryModel,
          createdAt: raw.summaryCreatedAt,
          content: JSON.parse(raw.summary),
          disposition: raw.summaryDisposition ?? "alert",
        };
  return {
    id: raw.id,
    caseId: raw.caseId,
    runId: raw.runId,
    detectedAt: raw.detectedAt,
    kinds,
    details,
    newMovements: raw.newMovements,
    summary,
  };
}

const WITH_SUMMARY = `SELECT c.id, c.case_id AS caseId, c.run_id AS runId,
    c.detected_at AS detectedAt, c.kind AS kinds, c.details, c.new_movements AS newMovements,
    s.summary, s.generated_by AS summaryGeneratedBy, s.model AS summaryModel,
    s.created_at AS summaryCreatedAt, s.disposition AS summaryDisposition
  FROM changes c LEFT JOIN summaries s ON s.change_id = c.id`;

/** Newest first, each with its summary when one was written; `offset` skips the newest ones. */
export function listChanges(
  db: Db,
  caseId: number,
  options: { limit?: number; offset?: number } = {},
): ChangeRow[] {
  return db
    .prepare<[number, number, number], RawChange>(
      `${WITH_SUMMARY}
       WHERE c.case_id = ?
       ORDER BY c.detected_at DESC, c.id DESC
       LIMIT ? OFFSET ?`,
    )
    .all(caseId, options.limit ?? -1, options.offset ?? 0)
    .map(toChange);
}

export function countChanges(db: Db, caseId: number): number {
  return (
    db
      .prepare<[number], { n: number }>("SELECT COUNT(*) AS n FROM changes WHERE case_id = ?")
      .get(caseId)?.n ?? 0
  );
}

/** The changes of these cases detected at or after `sinceIso`, newest first. */
export function changesSince(db: Db, caseIds: readonly number[], sinceIso: string): ChangeRow[] {
  return db
    .prepare<[string, string], RawChange>(
      `${WITH_SUMMARY}
       WHERE c.case_id IN (SELECT value FROM json_each(?)) AND c.detected_at >= ?
       ORDER BY c.detected_at DESC, c.id DESC`,
    )
    .all(JSON.stringify(caseIds), sinceIso)
    .map(toChange);
}

export interface ChangedCase {
  caseId: number;
  /** How many changes since the bound, and when the newest was detected. */
  changes: number;
  lastDetectedAt: string;
}

/**
 * The watched cases with a change detected at or after `sinceIso`, most recently changed first,
 * one page of them, with how many there are in all.
 */
export function casesChangedSince(
  db: Db,
  sinceIso: string,
  options: { court?: string; offset: number; limit: number },
): { total: number; cases: ChangedCase[] } {
  const where = `c.detected_at >= @since AND k.watched = 1
    AND (@court IS NULL OR k.court = @court)`;
  const params = { since: sinceIso, court: options.court ?? null };
  const total =
    db
      .prepare<typeof params, { n: number }>(
        `SELECT COUNT(DISTINCT c.case_id) AS n
         FROM changes c JOIN cases k ON k.id = c.case_id WHERE ${where}`,
      )
      .get(params)?.n ?? 0;
  const cases = db
    .prepare<typeof params & { limit: number; offset: number }, ChangedCase>(
      `SELECT c.case_id AS caseId, COUNT(*) AS changes, MAX(c.detected_at) AS lastDetectedAt
       FROM changes c JOIN cases k ON k.id = c.case_id WHERE ${where}
       GROUP BY c.case_id
       ORDER BY lastDetectedAt DESC, c.case_id DESC
       LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: options.limit, offset: options.offset });
  return { total, cases };
}

/** Changes that have no summary yet (a crash may have left some): oldest first, per case in order. */
export function changesAwaitingSummary(db: Db): ChangeRow[] {
  return db
    .prepare<[], RawChange>(
      `SELECT c.id, c.case_id AS caseId, c.run_id AS runId, c.detected_at AS detectedAt,
         c.kind AS kinds, c.details, c.new_movements AS newMovements,
         NULL AS summary, NULL AS summaryGeneratedBy, NULL AS summaryModel, NULL AS summaryCreatedAt,
         NULL AS summaryDisposition
       FROM changes c JOIN cases k ON k.id = c.case_id
       WHERE k.watched = 1 AND NOT EXISTS (SELECT 1 FROM summaries s WHERE s.change_id = c.id)
       ORDER BY c.id`,
    )
    .all()
    .map(toChange);
}
