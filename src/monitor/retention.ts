import type { Logger } from "../log.js";
import { compactUnchangedChecks, deleteChecksBefore } from "../store/checks.js";
import { type Db, immediate, optimize } from "../store/database.js";

const DAY_MS = 86_400_000;

/**
 * The daily retention job: unchanged checks that are no longer a case's latest are folded into
 * their run's tally (a count per run instead of a row per case); with `days` above 0, checks and
 * tallies older than that go (each case keeps its latest). The planner's statistics follow.
 */
export function pruneOldChecks(db: Db, now: number, days: number, logger: Logger): number {
  const cutoff = days > 0 ? new Date(now - days * DAY_MS).toISOString() : null;
  const { folded, deleted } = immediate(db, () => ({
    folded: compactUnchangedChecks(db),
    deleted: cutoff === null ? 0 : deleteChecksBefore(db, cutoff),
  }));
  optimize(db);
  logger.info({ folded, deleted, cutoff }, "old checks folded and deleted");
  return deleted;
}
