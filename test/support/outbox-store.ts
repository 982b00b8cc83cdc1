import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { movementAlert } from "../../src/notify/outbox/messages.js";
import { emailEndpoints, queuedRows, queueMessage } from "../../src/notify/outbox/queue.js";
import type { AlertContent } from "../../src/notify/render/alert-content.js";
import { type MailPolicy, mailPolicy } from "../../src/policy/mail-policy.js";
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

/** Every watcher gets digests, sent at the next drain (no schedule, no quiet hours). */
export const DIGEST_POLICY: MailPolicy = mailPolicy(
  { cases: [], watchers: [] },
  {
    timezone: "America/Sao_Paulo",
    quietHours: null,
    urgentBypassesQuietHours: true,
    defaultDelivery: "digest",
  },
);

/**
 * A watched case with one detected change, and its alert queued for `recipients` as the sweep
 * queues it (alone and at once, unless `policy` says otherwise).
 */
export function queueChange(
  db: Db,
  content: AlertContent,
  recipients: readonly string[],
  detectedAt = "2026-03-01T10:00:00.000Z",
  policy?: MailPolicy,
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
  const queued = queuedRows(
    queueMessage(
      { db, domain: DOMAIN, at: new Date(detectedAt), policy },
      movementAlert({ changeId, caseId, detectedAt, content }),
      emailEndpoints(recipients),
    ),
  );
  return { caseId, changeId, queued };
}
