import type { Db } from "./database.js";

export type RunStatus = "running" | "finished" | "crashed";

export interface RunRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  /** What started it: "schedule", "manual", "demo", "startup"... */
  trigger: string;
  status: RunStatus;
  /** The run report JSON, once finished. */
  report: unknown;
}

interface RawRun extends Omit<RunRow, "report"> {
  report: string | null;
}

export function startRun(db: Db, run: { startedAt: string; trigger: string }): number {
  const result = db
    .prepare<{ startedAt: string; trigger: string }>(
      `INSERT INTO runs (started_at, "trigger", status) VALUES (@startedAt, @trigger, 'running')`,
    )
    .run(run);
  return Number(result.lastInsertRowid);
}

export function finishRun(
  db: Db,
  runId: number,
  result: { finishedAt: string; report: unknown },
): void {
  db.prepare<[string, string, number]>(
    "UPDATE runs SET status = 'finished', finished_at = ?, report = ? WHERE id = ?",
  ).run(result.finishedAt, JSON.stringify(result.report ?? null), runId);
}

/**
 * Runs still marked running belong to a process that died mid-sweep. Call this only while
 * holding the lease (so no live sweep is running) and before starting the next run.
 * Returns how many were marked.
 */
export function markStaleRunsCrashed(db: Db, options: { exceptRunId?: number } = {}): number {
  return db
    .prepare<[number]>("UPDATE runs SET status = 'crashed' WHERE status = 'running' AND id <> ?")
    .run(options.exceptRunId ?? -1).changes;
}

/** The most recently started run, whatever its status. */
export function lastRun(db: Db): RunRow | undefined {
  const raw = db
    .prepare<[], RawRun>(
      `SELECT id, started_at AS startedAt, finished_at AS finishedAt, "trigger",
         status, report
       FROM runs ORDER BY started_at DESC, id DESC LIMIT 1`,
    )
    .get();
  if (!raw) return undefined;
  const report: unknown = raw.report === null ? null : JSON.parse(raw.report);
  return { ...raw, report };
}

/** A finished sweep as monitor health counts it. */
export interface CountedSweep {
  runId: number;
  startedAt: string;
  failed: boolean;
}

/*
 * Monitor health counts sweeps, not cases. A sweep FAILED when it finished with checked > 0 and
 * failed === checked: DataJud answered for no case. Crashed, still-running and interrupted runs
 * (report.interrupted true) neither fail nor recover, and neither does a run that checked
 * nothing: they are skipped when counting, so a restart mid-outage neither hides nor resets it.
 * Dry runs write no run. Ids, not start times, give the order: a clock set back cannot reorder.
 */
const COUNTED_SWEEP = `status = 'finished' AND json_extract(report, '$.checked') > 0
  AND coalesce(json_extract(report, '$.interrupted'), 0) = 0`;
const FAILED_SWEEP = "json_extract(report, '$.failed') = json_extract(report, '$.checked')";

/*
 * The same for DJEN: a sweep's DJEN checks FAILED when it asked DJEN something and every source
 * failed (report.publications). Counted like the sweeps above.
 */
const COUNTED_DJEN = `status = 'finished' AND json_extract(report, '$.publications.checked') > 0
  AND coalesce(json_extract(report, '$.interrupted'), 0) = 0`;
const FAILED_DJEN =
  "json_extract(report, '$.publications.failed') = json_extract(report, '$.publications.checked')";

/**
 * The DJEN streak that ends just before `runId`: how many counted sweeps in a row had every DJEN
 * check fail, and when the first of them started.
 */
export function djenFailedStreakBefore(
  db: Db,
  runId: number,
): { failedSweeps: number; since: string | null } {
  return streakBefore(db, runId, COUNTED_DJEN, FAILED_DJEN);
}

/** The counted sweeps before `runId`, newest first; `limit` keeps it to what a threshold needs. */
export function sweepVerdictsBefore(db: Db, runId: number, limit: number): CountedSweep[] {
  if (limit <= 0) return [];
  return db
    .prepare<[number, number], { runId: number; startedAt: string; failed: number }>(
      `SELECT id AS runId, started_at AS startedAt, (${FAILED_SWEEP}) AS failed
       FROM runs WHERE id < ? AND ${COUNTED_SWEEP}
       ORDER BY id DESC LIMIT ?`,
    )
    .all(runId, limit)
    .map((row) => ({ ...row, failed: row.failed === 1 }));
}

/**
 * The whole failed streak that ends just before `runId`: how many sweeps and when the first one
 * started (null when the sweep before was not a failure). Walks back only to the last counted
 * sweep that did not fail, so it costs the streak's length; meant for when an incident opens or
 * closes, not for every sweep.
 */
export function failedStreakBefore(
  db: Db,
  runId: number,
): { failedSweeps: number; since: string | null } {
  return streakBefore(db, runId, COUNTED_SWEEP, FAILED_SWEEP);
}

/** The failed streak before `runId`, sweeps counted by `counted` and failed by `failed` (SQL). */
function streakBefore(
  db: Db,
  runId: number,
  counted: string,
  failed: string,
): { failedSweeps: number; since: string | null } {
  const lastGood =
    db
      .prepare<[number], { id: number }>(
        `SELECT id FROM runs WHERE id < ? AND ${counted} AND NOT (${failed})
         ORDER BY id DESC LIMIT 1`,
      )
      .get(runId)?.id ?? 0;
  const row = db
    .prepare<{ after: number; before: number }, { n: number; since: string | null }>(
      `SELECT COUNT(*) AS n,
         (SELECT started_at FROM runs WHERE id > @after AND id < @before AND ${counted}
          ORDER BY id LIMIT 1) AS since
       FROM runs WHERE id > @after AND id < @before AND ${counted}`,
    )
    .get({ after: lastGood, before: runId });
  return { failedSweeps: row?.n ?? 0, since: row?.since ?? null };
}
