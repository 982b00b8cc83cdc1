import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { queueAlerts } from "../../src/notify/outbox/queue-alerts.js";
import type { AlertContent } from "../../src/notify/render/alert-content.js";
import type { AlertDelivery } from "../../src/policy/mail-policy.js";
import { getCase, syncWatchedCases } from "../../src/store/cases.js";
import { insertChange } from "../../src/store/changes.js";
import { closeDatabase, type Db, openDatabase } from "../../src/store/database.js";
import { startRun } from "../../src/store/runs.js";

export const DOMAIN = "monitor.example.com";
export const LIST_ID = "escritorio.monitor.example.com";
export const FROM = "Monitor DataJud <monitor@monitor.example.com>";

export interface TempStore {
  dir: string;
  dbPath: string;
  db: Db;
  dispose(): void;
}

export function tempStore(prefix: string): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(dir, "monitor.db");
  const db = openDatabase(dbPath);
  return {
    dir,
    dbPath,
    db,
    dispose() {
      closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A watched case with one detected change, and its alert queued for `recipients`. */
export function queueChange(
  db: Db,
  content: AlertContent,
  recipients: readonly string[],
  detectedAt = "2026-03-01T10:00:00.000Z",
  delivery?: AlertDelivery,
): { caseId: number; changeId: number; queued: number } {
  const digits = content.caseNumber.replace(/\D/g, "");
  if (getCase(db, digits, content.court) === undefined) {
    syncWatchedCases(
      db,
      [
        {
          number: content.caseNumber,
          digits,
          court: content.court,
          label: content.label,
          watchers: recipients,
        },
      ],
      detectedAt,
    );
  }
  const caseId = getCase(db, digits, content.court)?.id ?? -1;
  const runId = startRun(db, { startedAt: detectedAt, trigger: "manual" });
  const changeId = insertChange(db, {
    caseId,
    runId,
    detectedAt,
    kinds: content.changeKinds,
    details: {},
    newMovements: content.newMovements.length,
  });
  const queued = queueAlerts({
    db,
    changeId,
    caseId,
    recipients,
    content,
    detectedAt,
    domain: DOMAIN,
    createdAt: detectedAt,
    ...(delivery === undefined ? {} : { delivery: () => delivery }),
  });
  return { caseId, changeId, queued };
}
