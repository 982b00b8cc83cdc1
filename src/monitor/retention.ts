import type { Logger } from "../log.js";
import { deleteChecksBefore } from "../store/checks.js";
import { type Db, immediate, optimize } from "../store/database.js";

const DAY_MS = 86_400_000;

/** Checks older than `days` go (each case keeps its latest); the planner's statistics follow. */
export function pruneOldChecks(db: Db, now: number, days: number, logger: Logger): number {
  const cutoff = new Date(now - days * DAY_MS).toISOString();
  const deleted = immediate(db, () => deleteChecksBefore(db, cutoff));
  optimize(db);
  logger.info({ deleted, cutoff }, "old checks deleted");
  return deleted;
}
