import type { Db } from "./database.js";

/** Token counts as the Messages API reports them (same shape as the summarizer's). */
export interface StoredUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface NewSummary {
  changeId: number;
  caseId: number;
  createdAt: string;
  /** The model id, or "rules". */
  generatedBy: string;
  model: string | null;
  /** The CaseSummary, stored as JSON; the store does not interpret it. */
  summary: unknown;
  usage: StoredUsage;
  /**
   * What was done with the change: mailed ('alert'), or kept quiet because every new movement
   * matched an ignore rule ('ignored') or the case was muted ('muted'). Default 'alert'.
   */
  disposition?: SummaryDisposition;
}

export type SummaryDisposition = "alert" | "ignored" | "muted";

export interface StoredSummary extends Omit<NewSummary, "caseId" | "disposition"> {
  id: number;
  disposition: SummaryDisposition;
}

interface RawSummary {
  id: number;
  changeId: number;
  createdAt: string;
  generatedBy: string;
  model: string | null;
  summary: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  disposition: SummaryDisposition;
}

const SELECT = `SELECT id, change_id AS changeId, created_at AS createdAt, generated_by AS generatedBy,
    model, summary, input_tokens AS inputTokens, output_tokens AS outputTokens,
    cache_read_tokens AS cacheReadTokens, cache_write_tokens AS cacheWriteTokens, disposition
  FROM summaries`;

/** One summary per change (change_id is unique): a second insert for a change throws. */
export function insertSummary(db: Db, summary: NewSummary): number {
  const result = db
    .prepare<{
      changeId: number;
      caseId: number;
      createdAt: string;
      generatedBy: string;
      model: string | null;
      summary: string;
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
      disposition: SummaryDisposition;
    }>(
      `INSERT INTO summaries (change_id, case_id, created_at, generated_by, model, summary,
         input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, disposition)
       VALUES (@changeId, @caseId, @createdAt, @generatedBy, @model, @summary,
         @inputTokens, @outputTokens, @cacheReadTokens, @cacheWriteTokens, @disposition)`,
    )
    .run({
      changeId: summary.changeId,
      caseId: summary.caseId,
      createdAt: summary.createdAt,
      generatedBy: summary.generatedBy,
      model: summary.model,
      summary: JSON.stringify(summary.summary),
      inputTokens: summary.usage.inputTokens,
      outputTokens: summary.usage.outputTokens,
      cacheReadTokens: summary.usage.cacheReadTokens,
      cacheWriteTokens: summary.usage.cacheWriteTokens,
      disposition: summary.disposition ?? "alert",
    });
  return Number(result.lastInsertRowid);
}

function toStored(raw: RawSummary): StoredSummary {
  const summary: unknown = JSON.parse(raw.summary);
  return {
    id: raw.id,
    changeId: raw.changeId,
    createdAt: raw.createdAt,
    generatedBy: raw.generatedBy,
    model: raw.model,
    summary,
    usage: {
      inputTokens: raw.inputTokens,
      outputTokens: raw.outputTokens,
      cacheReadTokens: raw.cacheReadTokens,
      cacheWriteTokens: raw.cacheWriteTokens,
    },
    disposition: raw.disposition,
  };
}

/**
 * The case's newest summary (parsed JSON). With `mailedOnly`, the newest one its watchers were
 * sent: what the next alert diffs against, so "before" is what they last read.
 */
export function latestSummary(
  db: Db,
  caseId: number,
  options: { mailedOnly?: boolean } = {},
): unknown {
  const where =
    options.mailedOnly === true ? "case_id = ? AND disposition = 'alert'" : "case_id = ?";
  const raw = db
    .prepare<[number], RawSummary>(
      `${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .get(caseId);
  return raw === undefined ? null : toStored(raw).summary;
}

/** The summary written for one change, if any: lets a resumed run skip a change already done. */
export function summaryForChange(db: Db, changeId: number): StoredSummary | null {
  const raw = db.prepare<[number], RawSummary>(`${SELECT} WHERE change_id = ?`).get(changeId);
  return raw === undefined ? null : toStored(raw);
}

/**
 * Tokens that count against the caps (input + output + cache writes, as the budget counts them)
 * spent by summaries created at or after `iso` (and at or before `until`, when given).
 */
export function tokensSpentSince(db: Db, iso: string, until?: string): number {
  const row = db
    .prepare<[string, string | null, string | null], { total: number | null }>(
      `SELECT SUM(input_tokens + output_tokens + cache_write_tokens) AS total
       FROM summaries WHERE created_at >= ? AND (? IS NULL OR created_at <= ?)`,
    )
    .get(iso, until ?? null, until ?? null);
  return row?.total ?? 0;
}
