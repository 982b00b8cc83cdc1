import type { Db } from "./database.js";

/** Alerts still waiting to be sent, per case, for `monitor status`. */
export function pendingMailByCase(db: Db): Map<number, number> {
  const rows = db
    .prepare<[], { caseId: number; pending: number }>(
      "SELECT case_id AS caseId, COUNT(*) AS pending FROM outbox WHERE status = 'pending' AND case_id IS NOT NULL GROUP BY case_id",
    )
    .all();
  return new Map(rows.map((r) => [r.caseId, r.pending]));
}
