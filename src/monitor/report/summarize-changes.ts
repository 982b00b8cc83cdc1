import { z } from "zod";
import { type InstanceRecord, type Movement, Provenance } from "../../datajud/instance-record.js";
import type { CalendarFor } from "../../deadlines/publication-estimate.js";
import type { Logger } from "../../log.js";
import { correctionNotices, movementAlert } from "../../notify/outbox/messages.js";
import {
  addQueued,
  emailEndpoints,
  NOTHING_QUEUED,
  type Queued,
  queuedEmails,
  queueMessage,
} from "../../notify/outbox/queue.js";
import { type AlertContent, buildAlertContent } from "../../notify/render/alert-content.js";
import { NO_ALERT_POLICY } from "../../policy/alert-rules.js";
import { lateMovementIds } from "../../policy/late-records.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import {
  type AlertDecision,
  decideAlert,
  withUrgentAttention,
} from "../../policy/movement-rules.js";
import { type CaseRow, getCaseById } from "../../store/cases.js";
import { type ChangeRow, changesAwaitingSummary } from "../../store/changes.js";
import { type Db, immediate } from "../../store/database.js";
import { recordHearing } from "../../store/datajud-hearings.js";
import { instanceRecords } from "../../store/instances.js";
import { listMovements, type MovementRow, movementsOfChange } from "../../store/movements.js";
import { publicationsOfCase } from "../../store/publications.js";
import { insertSummary, latestSummary } from "../../store/summaries.js";
import { type DjenItemFacts, mayOpenPeriods } from "../../summarize/act-deadlines.js";
import { hearingUrgency } from "../../summarize/act-reading.js";
import { type CaseSummary, parseStoredSummary } from "../../summarize/case-summary.js";
import {
  type Correction,
  correctionsOfChange,
  readCorrection,
} from "../../summarize/corrections.js";
import { fieldChangesOfChange } from "../../summarize/field-changes.js";
import { type HearingDate, hearingDatesOf } from "../../summarize/hearing-when.js";
import {
  type HiddenMovement,
  hiddenBySecrecy,
  withHiddenMovements,
} from "../../summarize/hidden-movements.js";
import {
  hearingName,
  hearingSituation,
  isHearing,
  readingContextOf,
} from "../../summarize/movement-reading.js";
import { rulesSummary } from "../../summarize/rules-summary.js";
import type { SummarizeInput, SummarizeResult, Summarizer } from "../../summarize/summarizer.js";
import { ZERO_USAGE } from "../../summarize/token-budget.js";
import { type Clock, dateNow } from "../../time/clock.js";
import { SAO_PAULO_ZONE } from "../../time/zoned-time.js";
import { recordActDates } from "./act-dates.js";
import { sourcesOfCase } from "./source-check.js";

export interface SummarizeDeps {
  db: Db;
  summarizer: Summarizer;
  clock: Clock;
  logger: Logger;
  /** The domain of our Message-IDs (from MAIL_FROM). */
  mailDomain: string;
  /** The watchlist's alert rules and watchers; absent: every change mailed at once to all. */
  policy?: MailPolicy;
  /** Court calendars with calendar.closures, for gazette movements' dates; absent: none. */
  calendars?: CalendarFor | undefined;
  /**
   * Told as each change's summary and alerts are committed, with the rows it queued: the sweep
   * hands them to delivery then, without waiting for the other changes' summaries.
   */
  queued?: (queued: Queued) => void;
}

/** Changes summarized at once: model calls in flight (each case's changes stay in order). */
export const SUMMARY_CONCURRENCY = 3;

export interface Summarized {
  summarized: number;
  llmCalls: number;
  /** E-mail rows queued. */
  emailsQueued: number;
  /** Every row queued, by endpoint (e-mail, webhooks, chats). */
  queued: Queued;
  /** Changes kept quiet because every new movement matched an ignore rule. */
  ignored: number;
  /** Changes kept quiet because their case is muted. */
  muted: number;
  /**
   * Why the model stopped being asked partway (a call went unanswered or failed; the rest went to
   * the rules), as the summarizer says it; null when it was asked throughout.
   */
  modelUnavailable: string | null;
}

/**
 * Every stored change without a summary gets one, and its alerts are queued in the same
 * transaction, to whom and when the alert policy says. Runs after detection, so a change found by
 * a run that then crashed is reported by the next run, exactly once (the outbox dedupe key is per
 * change and watcher). Up to SUMMARY_CONCURRENCY cases are summarized at once, each told to
 * `queued` as soon as it is committed; a case's own changes go in order (each reads the summary
 * the one before it wrote).
 */
export async function summarizeChanges(
  deps: SummarizeDeps,
  signal?: AbortSignal,
): Promise<Summarized> {
  const result: Summarized = {
    summarized: 0,
    llmCalls: 0,
    emailsQueued: 0,
    queued: NOTHING_QUEUED,
    ignored: 0,
    muted: 0,
    modelUnavailable: null,
  };
  const byCase = new Map<number, ChangeRow[]>();
  for (const change of changesAwaitingSummary(deps.db)) {
    const list = byCase.get(change.caseId) ?? [];
    list.push(change);
    byCase.set(change.caseId, list);
  }
  const cases = [...byCase.values()];
  let failed = false;
  const worker = async (): Promise<void> => {
    for (let next = cases.shift(); next !== undefined; next = cases.shift()) {
      for (const change of next) {
        if (signal?.aborted || failed) return;
        try {
          // Not `queued?.(await ...)`: an absent callback would skip the summary too.
          const queued = await reportChange(deps, change, result, signal);
          deps.queued?.(queued);
        } catch (error) {
          // The others take no new change: nothing is written after the error goes up.
          failed = true;
          throw error;
        }
      }
    }
  };
  const workers = Array.from({ length: Math.min(SUMMARY_CONCURRENCY, cases.length) }, worker);
  const ended = await Promise.allSettled(workers);
  const error = ended.find((w) => w.status === "rejected");
  if (error !== undefined) throw error.reason;
  result.modelUnavailable = deps.summarizer.unavailable();
  if (result.ignored + result.muted > 0) {
    // The answer to "why did no e-mail come?", without reading monitor history.
    deps.logger.info(
      { ignored: result.ignored, muted: result.muted },
      "changes recorded without mail (ignore rules, muted cases)",
    );
  }
  return result;
}

/**
 * The model is asked only about changes that will be mailed: an ignored or muted change is
 * summarized by the rules, for the history, at no cost.
 */
async function summarize(
  deps: SummarizeDeps,
  input: SummarizeInput,
  decision: AlertDecision,
  signal: AbortSignal | undefined,
): Promise<SummarizeResult> {
  if (decision.disposition === "alert") return deps.summarizer.summarize(input, signal);
  return {
    summary: rulesSummary(input),
    model: null,
    usage: ZERO_USAGE,
    llmCalls: 0,
    fallbackReason: null,
  };
}

function decide(deps: SummarizeDeps, kase: CaseRow, change: ChangeRow, input: SummarizeInput) {
  return decideAlert({
    changeKinds: change.kinds,
    // The watchlist's rules read late records too: an urgent rule makes one urgent.
    movements: [...input.newMovements, ...(input.lateMovements ?? [])],
    corrected: (input.corrections ?? []).map((c) => c.after),
    policy: deps.policy?.casePolicy(kase.digits, kase.court) ?? NO_ALERT_POLICY,
    now: input.now,
    timezone: deps.policy?.timezone ?? SAO_PAULO_ZONE,
  });
}

const RULE_URGENT = "há movimentação nova que o watchlist marca como urgente.";
const RULE_URGENT_LATE =
  "há registro antigo, listado agora pelo DataJud, que o watchlist marca como urgente.";
const RULE_URGENT_CORRECTION = "há movimentação corrigida que o watchlist marca como urgente.";

/**
 * Why a change cannot wait, in Portuguese: the watchlist's urgent rules, and what the change
 * means whatever the rules say (a hearing cancelled or moved, a date a deadline counts from
 * moved). Empty: not urgent.
 */
function urgentReasons(
  decision: AlertDecision,
  lateIds: ReadonlySet<string>,
  corrections: readonly Correction[],
  records: readonly InstanceRecord[],
  hearings: { movements: readonly Movement[]; dates: Readonly<Record<string, HearingDate>> },
  now: Date,
): string[] {
  const reasons: string[] = [];
  if (decision.urgent.some((m) => !lateIds.has(m.id))) reasons.push(RULE_URGENT);
  if (decision.urgent.some((m) => lateIds.has(m.id))) reasons.push(RULE_URGENT_LATE);
  if (decision.urgentCorrections.length > 0) reasons.push(RULE_URGENT_CORRECTION);
  // A hearing designated, moved, brought forward or cancelled changes the lawyer's day, whatever
  // the rules say; one the watchlist ignores stays quiet.
  const ignored = new Set(decision.ignored.map((m) => m.id));
  for (const m of hearings.movements) {
    if (ignored.has(m.id)) continue;
    const record = records.find((r) => r.movements.some((x) => x.id === m.id)) ?? null;
    const urgency = hearingUrgency(m, record, hearings.dates[m.id] ?? null);
    if (urgency !== null) reasons.push(`audiência: ${urgency}.`);
  }
  for (const c of corrections) {
    const reading = readCorrection(c, readingContextOf(records, c.instance), now);
    if (reading.urgent !== null) reasons.push(`correção do tribunal: ${reading.headline}`);
  }
  return reasons;
}

/** "audiencia-de-instrucao": a hearing's name as a key, without accents, case or spaces. */
function hearingKey(title: string): string {
  return title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
}

/**
 * Hearings whose date DataJud states go to the calendar feed (store/datajud-hearings.ts): a new
 * date records or moves the hearing's one event, a cancellation cancels it. One the watchlist
 * ignores stays out.
 */
function recordHearings(
  db: Db,
  kase: CaseRow,
  movements: ReadonlyArray<{ instance: string; data: Movement }>,
  options: {
    ignored: ReadonlySet<string>;
    dates: Readonly<Record<string, HearingDate>>;
    at: string;
  },
): void {
  for (const { instance, data: m } of movements) {
    if (options.ignored.has(m.id) || !isHearing(m)) continue;
    const situation = hearingSituation(m);
    const date = options.dates[m.id] ?? null;
    const cancelled = situation === "cancelada";
    const when = date !== null && date.source === "datajud" && !cancelled ? date : null;
    if (when === null && !cancelled) continue;
    const title = hearingName(m);
    recordHearing(db, {
      caseId: kase.id,
      subject: `datajud-hearing:${kase.id}:${instance}:${hearingKey(title)}`,
      title,
      instance,
      when: when === null ? null : { date: when.date, time: when.time, quote: when.quote },
      cancelled,
      at: options.at,
      recipients: kase.watchers,
    });
  }
}

/** Publications read for a hearing's date: the newest of the case, enough for a month's news. */
const HEARING_PUBLICATIONS = 50;

/**
 * New hearings' own dates, from the movement's words or the case's stored DJEN publications
 * (summarize/hearing-when.ts); the publications are read only when the change brought a hearing.
 */
function hearingDatesOfChange(
  db: Db,
  digits: string,
  movements: readonly Movement[],
): Record<string, HearingDate> {
  if (!movements.some(isHearing)) return {};
  const publications = publicationsOfCase(db, digits, { limit: HEARING_PUBLICATIONS }).map((p) => ({
    availableOn: p.availableOn,
    text: p.text,
    cancelled: p.cancelledAt !== null,
  }));
  return hearingDatesOf(movements, publications);
}

/** Publications read for an act's publication date: the newest of the case. */
const ACT_PUBLICATIONS = 50;

/**
 * The case's stored DJEN items, for the publication of an act that opens periods
 * (summarize/act-deadlines.ts); read only when the change brought a court act or a gazette
 * movement.
 */
function djenItemsOfChange(
  db: Db,
  digits: string,
  movements: readonly Movement[],
): DjenItemFacts[] {
  if (!movements.some(mayOpenPeriods)) return [];
  return publicationsOfCase(db, digits, { limit: ACT_PUBLICATIONS }).map((p) => ({
    availableOn: p.availableOn,
    kind: p.kind,
    documentType: p.documentType,
    text: p.text,
    cancelled: p.cancelledAt !== null,
  }));
}

/** What a change brought, read from the store. */
interface ChangeReading {
  /** The case's records, the movements a secrecy level hid put back in. */
  records: InstanceRecord[];
  hidden: HiddenMovement[];
  /** The change's new movements, late records apart. */
  movements: MovementRow[];
  late: MovementRow[];
  lateIds: ReadonlySet<string>;
}

function readChange(db: Db, kase: CaseRow, change: ChangeRow): ChangeReading {
  // Movements a secrecy level hid are read with the case (its status, its last judgment) and
  // named in the alert: hidden is not undone (issue 34).
  const listed = instanceRecords(db, kase.id);
  const hidden = hiddenBySecrecy(
    listed,
    listMovements(db, kase.id, { includeDisappeared: true }).flatMap((m) =>
      m.disappearedAt === null
        ? []
        : [{ instance: m.instance, movement: m.data, disappearedAt: m.disappearedAt }],
    ),
  );
  const all = movementsOfChange(db, change.id);
  // A late record is stored with the change that first saw it, and reported apart from its news.
  const lateIds = lateMovementIds(change.details);
  return {
    records: withHiddenMovements(listed, hidden),
    hidden,
    movements: all.filter((m) => !lateIds.has(m.data.id)),
    late: all.filter((m) => lateIds.has(m.data.id)),
    lateIds,
  };
}

/** Every change records the DataJud answer it was found in (monitor/detect/record-check.ts). */
const ChangeProvenance = z.object({ provenance: Provenance });

/**
 * The DataJud answer a stored change was found in. Every change this monitor records holds one,
 * so a change without it is a row altered outside the monitor: an error, never a guess.
 */
export function provenanceOfChange(change: Pick<ChangeRow, "id" | "details">): Provenance {
  const parsed = ChangeProvenance.safeParse(change.details);
  if (parsed.success) return parsed.data.provenance;
  throw new Error(
    `change ${change.id} in the database holds no DataJud provenance (index, url, fetchedAt), which every change the monitor records has: the row was altered outside the monitor; restore the database from a backup (docs/operations.md) or delete that change`,
  );
}

function summarizeInputOf(
  kase: CaseRow,
  change: ChangeRow,
  reading: ChangeReading,
  context: {
    previous: CaseSummary | null;
    hearingDates: Record<string, HearingDate>;
    now: Date;
  },
): SummarizeInput {
  return {
    cnjNumber: kase.number,
    court: kase.court,
    records: reading.records,
    newMovements: reading.movements.map((m) => m.data),
    lateMovements: reading.late.map((m) => m.data),
    fieldChanges: fieldChangesOfChange(change.details),
    changeKinds: change.kinds,
    corrections: correctionsOfChange(change.details),
    hearingDates: context.hearingDates,
    // Named (and their attention kept) in the alert of the change that hid them.
    ...(reading.hidden.length > 0 && change.kinds.includes("secrecy_changed")
      ? { hiddenMovements: reading.hidden }
      : {}),
    previousSummary: context.previous,
    now: context.now,
  };
}

/** The run's counts of one summary, and a line when the rules wrote it for a reason to see. */
function countSummary(
  deps: SummarizeDeps,
  totals: Summarized,
  kase: CaseRow,
  decision: AlertDecision,
  outcome: SummarizeResult,
): void {
  totals.llmCalls += outcome.llmCalls;
  totals.summarized += 1;
  if (decision.disposition === "ignored") totals.ignored += 1;
  if (decision.disposition === "muted") totals.muted += 1;
  // No model key is the documented default: said once, at start (cli/runtime.ts), not per change.
  if (outcome.fallbackReason !== null && outcome.fallbackReason !== "no_key") {
    // Once the breaker is open the summarizer has said so once; each case after it is routine.
    const level = outcome.fallbackReason === "model_unavailable" ? "debug" : "warn";
    deps.logger[level](
      { number: kase.number, court: kase.court, reason: outcome.fallbackReason },
      "summary written by the rules engine",
    );
  }
}

/** What a change's alert says, the movements the watchlist ignores left out. */
function alertContentOf(
  kase: CaseRow,
  change: ChangeRow,
  reading: ChangeReading,
  told: {
    input: SummarizeInput;
    summary: CaseSummary;
    corrections: Correction[];
    reasons: string[];
    ignoredIds: ReadonlySet<string>;
    calendars: CalendarFor | undefined;
    /** The case's DJEN items, for an act's publication (summarize/act-deadlines.ts). */
    publications: DjenItemFacts[];
  },
): AlertContent {
  const shown = (rows: MovementRow[]) =>
    rows
      .filter((m) => !told.ignoredIds.has(m.data.id))
      .map((m) => ({ instance: m.instance, movement: m.data }));
  return buildAlertContent({
    caseNumber: kase.number,
    court: kase.court,
    label: kase.label,
    previous: told.input.previousSummary ?? null,
    current: told.summary,
    records: reading.records,
    newMovements: shown(reading.movements),
    lateMovements: shown(reading.late),
    corrections: told.corrections,
    fieldChanges: told.input.fieldChanges ?? [],
    provenance: provenanceOfChange(change),
    changeKinds: change.kinds,
    urgent: told.reasons.length > 0,
    urgentReasons: told.reasons,
    ignoredMovements: told.ignoredIds.size,
    calendars: told.calendars,
    hearingDates: told.input.hearingDates ?? {},
    publications: told.publications,
  });
}

/**
 * The summary, the hearings and acts it dates and, when the policy says so, its alerts, in one
 * transaction: a crash leaves the change unsummarized, to be reported whole by the next run.
 */
function commitReport(
  deps: SummarizeDeps,
  kase: CaseRow,
  change: ChangeRow,
  report: {
    summary: CaseSummary;
    outcome: SummarizeResult;
    decision: AlertDecision;
    hearings: Array<{ instance: string; data: Movement }>;
    ignoredIds: ReadonlySet<string>;
    hearingDates: Record<string, HearingDate>;
    content: AlertContent;
    /** The case's records, for the seat an act's dates were counted at. */
    records: readonly InstanceRecord[];
    now: Date;
  },
): Queued {
  const { db } = deps;
  const createdAt = report.now.toISOString();
  return immediate(db, () => {
    insertSummary(db, {
      changeId: change.id,
      caseId: kase.id,
      createdAt,
      generatedBy: report.summary.generatedBy,
      model: report.outcome.model,
      summary: report.summary,
      usage: report.outcome.usage,
      disposition: report.decision.disposition,
    });
    recordHearings(db, kase, report.hearings, {
      ignored: report.ignoredIds,
      dates: report.hearingDates,
      at: createdAt,
    });
    recordActDates(db, kase, report.content.acts, report.records, createdAt);
    if (report.decision.disposition !== "alert") return NOTHING_QUEUED;
    const context = { db, domain: deps.mailDomain, at: report.now, policy: deps.policy };
    const alerted = {
      changeId: change.id,
      caseId: kase.id,
      detectedAt: change.detectedAt,
      content: report.content,
      channels: deps.policy?.channels(kase.digits, kase.court) ?? [],
    };
    const alert = queueMessage(context, movementAlert(alerted), emailEndpoints(kase.watchers));
    // The e-mail tells the corrections in the alert; webhooks and chats get one event each.
    const notices = correctionNotices(alerted).map((notice) => queueMessage(context, notice, []));
    return addQueued(alert, ...notices);
  });
}

async function reportChange(
  deps: SummarizeDeps,
  change: ChangeRow,
  totals: Summarized,
  signal: AbortSignal | undefined,
): Promise<Queued> {
  const { db } = deps;
  const kase = getCaseById(db, change.caseId);
  if (!kase) return NOTHING_QUEUED;
  const reading = readChange(db, kase, change);
  const now = dateNow(deps.clock);
  const hearingDates = hearingDatesOfChange(
    db,
    kase.digits,
    reading.movements.map((m) => m.data),
  );
  const input = summarizeInputOf(kase, change, reading, {
    // "Before" is what the watchers last read: quiet changes since then are not in between.
    previous: parseStoredSummary(latestSummary(db, kase.id, { mailedOnly: true })),
    hearingDates,
    now,
  });
  const decision = decide(deps, kase, change, input);
  const shownFixes = new Set(decision.shownCorrections.map((m) => m.id));
  const corrections = (input.corrections ?? []).filter((c) => shownFixes.has(c.after.id));
  const reasons = urgentReasons(
    decision,
    reading.lateIds,
    corrections,
    reading.records,
    { movements: input.newMovements, dates: hearingDates },
    now,
  );
  const outcome = await summarize(deps, input, decision, signal);
  countSummary(deps, totals, kase, decision, outcome);
  const summary = withUrgentAttention(outcome.summary, [
    ...decision.urgent,
    ...decision.urgentCorrections,
  ]);
  const ignoredIds = new Set(decision.ignored.map((m) => m.id));
  const built = alertContentOf(kase, change, reading, {
    input,
    summary,
    corrections,
    reasons,
    ignoredIds,
    calendars: deps.calendars,
    publications: djenItemsOfChange(
      deps.db,
      kase.digits,
      reading.movements.map((m) => m.data),
    ),
  });
  const queued = commitReport(deps, kase, change, {
    summary,
    outcome,
    decision,
    hearings: [
      ...reading.movements,
      ...corrections.map((c) => ({ instance: c.instance, data: c.after })),
    ],
    ignoredIds,
    hearingDates,
    content: { ...built, sources: sourcesOfCase(db, kase.id, now) },
    records: reading.records,
    now,
  });
  totals.emailsQueued += queuedEmails(queued);
  totals.queued = addQueued(totals.queued, queued);
  return queued;
}
