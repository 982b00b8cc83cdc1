import {
  addQueued,
  NOTHING_QUEUED,
  type Queued,
  queuedByChannel,
  queuedEmails,
  queuedFor,
  queuedRows,
} from "../notify/outbox/queue.js";
import type { SweepTally } from "../policy/health.js";
import { isoNow } from "../time/clock.js";
import type { WatchedCase, WatchedOab, WatchedParty } from "../watchlist/parse-watchlist.js";
import type { DataJudGateway } from "./detect/datajud-gateway.js";
import {
  type DetectEvent,
  type Detected,
  type DetectSettings,
  detectChanges,
} from "./detect/detect.js";
import {
  type PublicationsDeps,
  type PublicationsEvent,
  type PublicationTargets,
  type WatchedPublications,
  watchPublications,
} from "./publications/watch-publications.js";
import { Courier } from "./report/courier.js";
import type { Delivered, ReportPhases } from "./report/phases.js";
import {
  closeRun,
  openRun,
  type RunDeps,
  type RunOptions,
  type SweepRun,
  takeLease,
} from "./run.js";
import {
  type EndpointReport,
  type MailReport,
  mergeEndpointReports,
  type RunReport,
  type SweepResult,
  sweepResult,
} from "./run-report.js";

export type SweepSettings = DetectSettings;

/** What a sweep uses: each phase takes its part (RunDeps, DetectDeps, WatchDeps). */
export interface SweepDeps extends RunDeps {
  gateway: DataJudGateway;
  settings: SweepSettings;
  /** The DJEN phase (publications); absent when DJEN is off. */
  publications?: PublicationsDeps;
  /** Told as detection and the DJEN phase go, for progress and metrics. */
  onEvent?: (event: SweepEvent) => void;
  /**
   * What follows each phase: summaries, the outbox, delivery (report/phases.ts builds them). Runs
   * under the lease: a phase's alerts once everything that phase found is in the database, without
   * waiting for the other phase; skipped on a dry run, and absent where only detection is wanted.
   */
  report?: ReportPhases;
  /**
   * Told once a sweep that took the lease has ended, however it ended, after the lease is
   * released: the heartbeat and the metrics. Awaited (run-once's ping goes out before the process
   * exits); must not throw.
   */
  finished?: (sweep: FinishedSweep) => Promise<void>;
}

/** What a sweep tells as it goes: detection's batches and checks, and the DJEN phase's. */
export type SweepEvent = DetectEvent | PublicationsEvent;

/** A sweep that ended: what started it, how it went and how long it took. */
export interface FinishedSweep {
  trigger: SweepOptions["trigger"];
  dryRun: boolean;
  result: SweepResult;
  durationMs: number;
  /** null when the sweep threw (result "error"). */
  report: RunReport | null;
}

export interface SweepOptions extends RunOptions {
  /** The cases to check now (default: all of the watchlist). */
  selected?: readonly WatchedCase[];
  /**
   * The OAB registrations whose DJEN publications to look for now (the watchlist's `oab:`); none
   * when only some cases are checked.
   */
  oab?: readonly WatchedOab[];
  /** The watched parties whose names DJEN is asked (the radar); none when only some cases are. */
  parties?: readonly WatchedParty[];
  force: boolean;
  /**
   * Which DJEN sources to ask: those due (djen-plan.ts), or every selected one now (`run-once
   * --case`). @default "due"
   */
  djen?: "due" | "all";
}

/**
 * One sweep, phase by phase. The daemon's tick, `monitor run-once` and `monitor demo` all run this.
 * Detection (DataJud) and publications (DJEN) run side by side, and each is followed at once by
 * its own alerts: decided, queued and handed to delivery as soon as that phase's findings are
 * committed, never waiting for the other phase. The sweep ends when both have; then what
 * mail.admin should hear of it and the status reports due are queued and sent.
 */
export async function runSweep(deps: SweepDeps, options: SweepOptions): Promise<RunReport> {
  // Lease and run: one sweep at a time; crashed runs closed, the watchlist synced, a run started.
  const lease = takeLease(deps, options);
  const startedAt = deps.clock.now();
  let runReport: RunReport | null = null;
  try {
    const run = openRun(deps, options, lease.signal);
    const selected = options.selected ?? options.watchlist;
    const reported = new Reported();
    // Detect, then summarize and mail what changed; beside it, DJEN, then mail what it found.
    const { detected, published } = await detectAndWatch(deps, run, reported, {
      selected,
      oab: options.oab ?? [],
      parties: options.parties ?? [],
      watchlist: options.watchlist,
      everySelected: options.djen === "all",
      force: options.force,
    });
    // Queue what mail.admin should hear of this sweep and the status reports due; deliver.
    await finishReporting(deps.report, run, reported, detected, published);
    // Finish: the run's report stored and logged, unless another run took the lease meanwhile.
    const lost = lease.lost();
    if (lost !== null) throw lost;
    runReport = reportOf(deps, run, options, detected, published, reported);
    closeRun(deps, run, runReport);
    return runReport;
  } catch (error) {
    // Whatever the phases made of the refused writes, the sweep ended because it lost its lease.
    runReport = null;
    throw lease.lost() ?? error;
  } finally {
    lease.release();
    await deps.finished?.({
      trigger: options.trigger,
      dryRun: options.dryRun,
      result: runReport === null ? "error" : sweepResult(runReport),
      durationMs: deps.clock.now() - startedAt,
      report: runReport,
    });
  }
}

/** What the report phases of one sweep came to, added up as each phase's alerts go out. */
class Reported {
  llmCalls = 0;
  /** Rows queued, by endpoint (e-mail, each webhook and chat). */
  queued: Queued = NOTHING_QUEUED;
  emailsSent = 0;
  /** The deliveries' sends, failures and give-ups added up; what waits as the last one left it. */
  mail: MailReport | null = null;
  /** Stopped mid-summary or mid-send. */
  interrupted = false;
  /** Why the model stopped being asked partway through the summaries; null: it was not. */
  modelUnavailable: string | null = null;

  /** Each webhook and chat endpoint with alerts in this sweep's deliveries. */
  endpoints: EndpointReport[] = [];

  delivered({ endpoints, ...result }: Delivered): void {
    this.endpoints = mergeEndpointReports(this.endpoints, endpoints ?? []);
    this.emailsSent += result.sent;
    const before = this.mail;
    this.mail =
      before === null
        ? result
        : {
            sent: before.sent + result.sent,
            failed: before.failed + result.failed,
            dead: before.dead + result.dead,
            pending: result.pending,
            retrying: result.retrying,
            lastError: result.lastError ?? before.lastError,
            nextAttemptAt: result.nextAttemptAt,
          };
  }
}

/** The report phases, when this sweep reports at all: it writes, and the caller gave them. */
function reporting(phases: ReportPhases | undefined, run: SweepRun): ReportPhases | null {
  return run.write && run.id !== null && phases !== undefined ? phases : null;
}

/** Everything due is handed to delivery, and what came of it added to the sweep's report. */
async function deliverNow(
  phases: ReportPhases,
  reported: Reported,
  signal: AbortSignal,
): Promise<void> {
  // Awaited first: `x += await y` would read x before another drain adds to it.
  const delivered = await phases.deliver(signal);
  reported.delivered(delivered);
}

/**
 * One phase's alerts: queued by `step` (in the transactions of what they are about), then handed
 * to delivery at once when there are any. Stopped mid-summary or mid-send, what is committed
 * stays and the next run completes it.
 */
async function reportStep(
  reported: Reported,
  signal: AbortSignal,
  step: () => Promise<void>,
): Promise<void> {
  if (signal.aborted) return;
  try {
    await step();
  } catch (error) {
    if (!signal.aborted) throw error;
    reported.interrupted = true;
  }
}

/**
 * The detected changes' alerts: each change summarized and its alerts handed to delivery as soon
 * as they are committed (a few cases at once), never waiting for the summaries of other cases; a
 * model that hangs costs one call's limit (summarize/summarizer.ts: its breaker), not the sweep.
 */
async function reportChanges(
  phases: ReportPhases,
  reported: Reported,
  signal: AbortSignal,
): Promise<void> {
  const courier = new Courier(() => deliverNow(phases, reported, signal));
  let summarized: Awaited<ReturnType<ReportPhases["summarize"]>>;
  try {
    summarized = await phases.summarize(signal, (queued) => {
      reported.queued = addQueued(reported.queued, queued);
      if (queuedRows(queued) > 0) courier.kick();
    });
  } catch (error) {
    // The summaries' error is the one to tell; what was committed before it is still delivered.
    await courier.idle().catch(() => undefined);
    throw error;
  }
  reported.llmCalls += summarized.llmCalls;
  reported.modelUnavailable ??= summarized.modelUnavailable;
  await courier.idle();
}

/**
 * Runs detection and the DJEN phase side by side, each followed by its own alerts (summaries and
 * mail for the changes detected, publication alerts for what DJEN brought). Database writes stay
 * serialized (each is one synchronous transaction). A phase that throws stops the other before
 * the error goes up, so nothing writes after the lease is released.
 */
async function detectAndWatch(
  deps: SweepDeps,
  run: SweepRun,
  reported: Reported,
  targets: PublicationTargets & { force: boolean },
): Promise<{ detected: Detected; published: WatchedPublications }> {
  const failed = new AbortController();
  const signal = AbortSignal.any([run.signal, failed.signal]);
  const phaseRun: SweepRun = { ...run, signal };
  const phases = reporting(deps.report, run);
  const stopOther = (error: unknown): never => {
    failed.abort(error);
    throw error;
  };
  const datajud = async (): Promise<Detected> => {
    const detected = await detectChanges(deps, phaseRun, targets.selected, targets.force);
    if (phases !== null) {
      await reportStep(reported, signal, () => reportChanges(phases, reported, signal));
    }
    return detected;
  };
  const djen = async (): Promise<WatchedPublications> => {
    const published = await watchPublications(deps, phaseRun, targets);
    if (phases?.publications !== undefined) {
      // Publications start deadlines: their alerts go out as soon as DJEN's answers are stored.
      const decide = phases.publications;
      await reportStep(reported, signal, async () => {
        const queued = decide();
        reported.queued = addQueued(reported.queued, queued);
        if (queuedRows(queued) > 0) await deliverNow(phases, reported, signal);
      });
    }
    return published;
  };
  const [detected, published] = await Promise.allSettled([
    datajud().catch(stopOther),
    djen().catch(stopOther),
  ]);
  if (detected.status === "rejected") throw detected.reason;
  if (published.status === "rejected") throw published.reason;
  return { detected: detected.value, published: published.value };
}

/** Once both phases are done: what mail.admin should hear of this sweep, status reports, sent. */
async function finishReporting(
  given: ReportPhases | undefined,
  run: SweepRun,
  reported: Reported,
  detected: Detected,
  published: WatchedPublications,
): Promise<void> {
  const phases = reporting(given, run);
  if (phases === null || run.id === null || run.signal.aborted) return;
  const djen = published.report;
  const tally: SweepTally = {
    runId: run.id,
    startedAt: run.startedAt,
    checked: detected.cases.length,
    failed: detected.cases.filter((r) => r.outcome === "failed").length,
    interrupted: detected.interrupted || published.interrupted,
    djen: {
      checked: djen.checked,
      failed: djen.failed,
      blocked: djen.failures.some((f) => f.kind === "geo_blocked"),
      lastError: djen.failures.at(-1) ?? null,
    },
  };
  try {
    reported.queued = addQueued(reported.queued, phases.queue(tally));
    // Anything else now due (a retry, an alert quiet hours held) goes with this sweep's mail too.
    await deliverNow(phases, reported, run.signal);
  } catch (error) {
    if (!run.signal.aborted) throw error;
    reported.interrupted = true;
  }
}

function reportOf(
  deps: SweepDeps,
  run: SweepRun,
  options: SweepOptions,
  detected: Detected,
  published: WatchedPublications,
  reported: Reported,
): RunReport {
  const cases = detected.cases;
  return {
    startedAt: run.startedAt,
    finishedAt: isoNow(deps.clock),
    checked: cases.length,
    changed: cases.filter((r) => r.outcome === "changed").length,
    failed: cases.filter((r) => r.outcome === "failed").length,
    datajudRequests: deps.datajudRequests() - run.requestsBefore,
    llmCalls: reported.llmCalls,
    // E-mail rows only, as the field always said; every channel in `queued`.
    emailsQueued: queuedEmails(reported.queued),
    emailsSent: reported.emailsSent,
    dryRun: options.dryRun,
    interrupted: detected.interrupted || published.interrupted || reported.interrupted,
    unreachable: detected.unreachable,
    modelUnavailable: reported.modelUnavailable,
    cases,
    publications: deps.publications === undefined ? null : published.report,
    mail: reported.mail,
    endpoints: reported.endpoints.map((e) => ({
      ...e,
      queued: queuedFor(reported.queued, e.channel, e.name),
    })),
    queued: queuedByChannel(reported.queued),
  };
}
