import { latestScheduledAt, quietHoursEnd } from "../../policy/delivery-time.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { getCase } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import { latestMovementTimes } from "../../store/movements.js";
import { enqueueAlert, outboxIdByDedupeKey } from "../../store/outbox.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";
import { buildStatusReport, renderStatusReportSubject } from "../render/status-report.js";
import { alertMessageId } from "./message-ids.js";

/** A report whose hour passed while the monitor was down still goes out within this window. */
export const DEFAULT_REPORT_LOOKBACK_MS = 24 * 60 * 60_000;

export interface QueueStatusReportsInput {
  db: Db;
  policy: MailPolicy;
  /** The watchlist in force: a report lists the watcher's cases in it, in its order. */
  cases: readonly WatchedCase[];
  now: Date;
  staleAfterDays: number;
  /** The domain of our Message-IDs. */
  domain: string;
  /** @default 24 h */
  lookbackMs?: number;
}

/**
 * Queues the status report of every watcher whose `status_report` schedule has fired since the
 * lookback window began and whose report for that fire time is not queued yet. Called every minute
 * by the daemon and after every sweep; the dedupe key (watcher, fire time) makes it once per fire.
 * Returns how many reports were queued.
 */
export function queueStatusReports(input: QueueStatusReportsInput): number {
  const { db, policy, now } = input;
  const due: Array<{ address: string; dedupeKey: string }> = [];
  for (const watcher of policy.watchers) {
    if (watcher.statusReport === null) continue;
    const fire = latestScheduledAt(
      watcher.statusReport,
      policy.timezone,
      now,
      input.lookbackMs ?? DEFAULT_REPORT_LOOKBACK_MS,
    );
    if (fire === null) continue;
    const dedupeKey = `report:${watcher.address.toLowerCase()}:${fire.toISOString()}`;
    if (outboxIdByDedupeKey(db, dedupeKey) === undefined) {
      due.push({ address: watcher.address, dedupeKey });
    }
  }
  if (due.length === 0) return 0;

  const lastMovement = latestMovementTimes(db);
  const createdAt = now.toISOString();
  const notBefore = quietHoursEnd(now, policy.quietHours, policy.timezone)?.toISOString() ?? null;
  return immediate(db, () => {
    let queued = 0;
    for (const { address, dedupeKey } of due) {
      const who = address.toLowerCase();
      const cases = input.cases
        .filter((c) => c.notify.some((a) => a.toLowerCase() === who))
        .map((c) => {
          const row = getCase(db, c.digits, c.court);
          return {
            number: c.number,
            court: c.court,
            label: c.label,
            policy: c.policy,
            row,
            lastMovementAt: row === undefined ? null : (lastMovement.get(row.id) ?? null),
          };
        });
      const report = buildStatusReport({
        cases,
        now,
        staleAfterDays: input.staleAfterDays,
        timezone: policy.timezone,
      });
      const inserted = enqueueAlert(db, {
        changeId: null,
        caseId: null,
        recipient: address,
        kind: "report",
        dedupeKey,
        subject: renderStatusReportSubject(report),
        messageId: alertMessageId(dedupeKey, input.domain),
        payload: report,
        createdAt,
        nextAttemptAt: notBefore,
      });
      if (inserted) queued++;
    }
    return queued;
  });
}
