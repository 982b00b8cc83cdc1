import type { Clock } from "../datajud/clock.js";
import type { Logger } from "../log.js";
import type { AlertContent } from "../notify/alert-content.js";
import { alertMessageId } from "../notify/message-ids.js";
import { renderAlert } from "../notify/render-alert.js";
import { getCaseById } from "../store/cases.js";
import { type ChangeRow, changesAwaitingSummary } from "../store/changes.js";
import { type Db, immediate } from "../store/database.js";
import { listInstances } from "../store/instances.js";
import { movementsOfChange } from "../store/movements.js";
import { enqueueAlert } from "../store/outbox.js";
import { insertSummary, latestSummary } from "../store/summaries.js";
import type { Summarizer } from "../summarize/summarizer.js";

export interface ReportDeps {
  db: Db;
  summarizer: Summarizer;
  clock: Clock;
  logger: Logger;
  /** The domain of our Message-IDs (from MAIL_FROM). */
  mailDomain: string;
}

export interface ReportResult {
  summarized: number;
  llmCalls: number;
  emailsQueued: number;
}

interface ChangeDetails {
  provenance?: { index: string; fetchedAt: string; lastUpdatedAt: string | null };
}

/**
 * Every stored change without a summary gets one, and its alerts are queued in the same
 * transaction. Runs after detection, so a change found by a run that then crashed is reported
 * by the next run, exactly once (the outbox dedupe key is per change and watcher).
 */
export async function summarizeAndQueue(deps: ReportDeps, signal?: AbortSignal): Promise<ReportResult> {
  const result: ReportResult = { summarized: 0, llmCalls: 0, emailsQueued: 0 };
  for (const change of changesAwaitingSummary(deps.db)) {
    if (signal?.aborted) break;
    const queued = await reportChange(deps, change, signal, result);
    result.emailsQueued += queued;
  }
  return result;
}

async function reportChange(
  deps: ReportDeps,
  change: ChangeRow,
  signal: AbortSignal | undefined,
  totals: ReportResult,
): Promise<number> {
  const { db } = deps;
  const kase = getCaseById(db, change.caseId);
  if (!kase) return 0;
  const records = listInstances(db, kase.id).map((row) => row.record);
  const movements = movementsOfChange(db, change.id);
  const previous = latestSummary(db, kase.id);
  const outcome = await deps.summarizer.summarize(
    {
      cnjNumber: kase.number,
      court: kase.court,
      records,
      newMovements: movements.map((m) => m.data),
      changeKinds: change.kinds,
      previousSummary: previous,
      now: new Date(deps.clock.now()),
    },
    signal,
  );
  totals.llmCalls += outcome.llmCalls;
  totals.summarized += 1;
  if (outcome.fallbackReason !== null) {
    deps.logger.warn(
      { number: kase.number, court: kase.court, reason: outcome.fallbackReason },
      "summary written by the rules engine",
    );
  }
  const details = (change.details ?? {}) as ChangeDetails;
  const content: AlertContent = {
    caseNumber: kase.number,
    court: kase.court,
    label: kase.label,
    previous,
    current: outcome.summary,
    newMovements: movements.map((m) => ({ instance: m.instance, movement: m.data })),
    instances: records.map((r) => ({
      instance: r.instance,
      courtUnit: r.courtUnit?.name ?? null,
      className: r.class?.name ?? null,
    })),
    provenance: details.provenance ?? {
      index: `api_publica_${kase.court}`,
      fetchedAt: change.detectedAt,
      lastUpdatedAt: null,
    },
    changeKinds: change.kinds,
  };
  const subject = renderAlert(content).subject;
  const createdAt = new Date(deps.clock.now()).toISOString();
  return immediate(db, () => {
    insertSummary(db, {
      changeId: change.id,
      caseId: kase.id,
      createdAt,
      generatedBy: outcome.summary.generatedBy,
      model: outcome.model,
      summary: outcome.summary,
      usage: outcome.usage,
    });
    let queued = 0;
    for (const recipient of kase.watchers) {
      const dedupeKey = `alert:${change.id}:${recipient}`;
      const inserted = enqueueAlert(db, {
        changeId: change.id,
        caseId: kase.id,
        recipient,
        kind: "alert",
        dedupeKey,
        subject,
        messageId: alertMessageId(dedupeKey, deps.mailDomain),
        payload: content,
        createdAt,
      });
      if (inserted) queued++;
    }
    return queued;
  });
}
