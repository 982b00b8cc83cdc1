import type { Provenance } from "../datajud/case-record.js";
import type { Clock } from "../datajud/clock.js";
import type { Logger } from "../log.js";
import { buildAlertContent } from "../notify/alert-content.js";
import { queueAlerts } from "../notify/drain-outbox.js";
import { getCaseById } from "../store/cases.js";
import { type ChangeRow, changesAwaitingSummary } from "../store/changes.js";
import { type Db, immediate } from "../store/database.js";
import { listInstances } from "../store/instances.js";
import { movementsOfChange } from "../store/movements.js";
import { insertSummary, latestSummary } from "../store/summaries.js";
import { parseStoredSummary } from "../summarize/case-summary.js";
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

/**
 * Every stored change without a summary gets one, and its alerts are queued in the same
 * transaction. Runs after detection, so a change found by a run that then crashed is reported
 * by the next run, exactly once (the outbox dedupe key is per change and watcher).
 */
export async function summarizeAndQueue(
  deps: ReportDeps,
  signal?: AbortSignal,
): Promise<ReportResult> {
  const result: ReportResult = { summarized: 0, llmCalls: 0, emailsQueued: 0 };
  for (const change of changesAwaitingSummary(deps.db)) {
    if (signal?.aborted) break;
    await reportChange(deps, change, result, signal);
  }
  return result;
}

async function reportChange(
  deps: ReportDeps,
  change: ChangeRow,
  totals: ReportResult,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { db } = deps;
  const kase = getCaseById(db, change.caseId);
  if (!kase) return;
  const records = listInstances(db, kase.id).map((row) => row.record);
  const movements = movementsOfChange(db, change.id);
  const previous = parseStoredSummary(latestSummary(db, kase.id));
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
  const provenance = (change.details as { provenance?: Provenance } | null)?.provenance ?? {
    index: `api_publica_${kase.court}`,
    url: "",
    fetchedAt: change.detectedAt,
  };
  const content = buildAlertContent({
    caseNumber: kase.number,
    court: kase.court,
    label: kase.label,
    previous,
    current: outcome.summary,
    records,
    newMovements: movements.map((m) => ({ instance: m.instance, movement: m.data })),
    provenance,
    changeKinds: change.kinds,
  });
  const createdAt = new Date(deps.clock.now()).toISOString();
  totals.emailsQueued += immediate(db, () => {
    insertSummary(db, {
      changeId: change.id,
      caseId: kase.id,
      createdAt,
      generatedBy: outcome.summary.generatedBy,
      model: outcome.model,
      summary: outcome.summary,
      usage: outcome.usage,
    });
    return queueAlerts({
      db,
      changeId: change.id,
      caseId: kase.id,
      recipients: kase.watchers,
      content,
      detectedAt: change.detectedAt,
      domain: deps.mailDomain,
      createdAt,
    });
  });
}
