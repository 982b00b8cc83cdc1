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
