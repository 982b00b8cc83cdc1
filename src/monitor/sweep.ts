import type { Logger } from "../log.js";
import type { SweepTally } from "../policy/health.js";
import type { Db } from "../store/database.js";
import type { System } from "../system.js";
import type { Clock } from "../time/clock.js";
import type { WatchedCase, WatchedOab } from "../watchlist/parse-watchlist.js";
import type { DataJudGateway } from "./detect/datajud-gateway.js";
import { type DetectEvent, type Detected, detectChanges } from "./detect/detect.js";
import {
  type PublicationsDeps,
  type PublicationsEvent,
  type PublicationTargets,
  type WatchedPublications,
  watchPublications,
} from "./publications/watch-publications.js";
import { closeRun, openRun, type SweepRun, takeLease } from "./run.js";
import { type RunReport, type SweepResult, sweepResult } from "./run-report.js";

export interface SweepSettings {
  fullRereadDays: number;
  notFoundThreshold: number;
  /**
   * DataJud requests the sweep keeps going at once (datajud.concurrency): the most batches of
   * full records it holds at once. The DataJud client's gate may let fewer through.
   */
  concurrency: number;
  /** Case numbers per DataJud request (datajud.batchSize). */
  batchSize: number;
  /** Also report a case's first check (its current state) to its watchers. */
  notifyOnBaseline?: boolean;
}

export interface SweepDeps {
  db: Db;
  gateway: DataJudGateway;
  clock: Clock;
  logger: Logger;
  settings: SweepSettings;
  /** DataJud HTTP requests sent so far by this process, for the report. */
  datajudRequests: () => number;
  /** The DJEN phase (publications); absent when DJEN is off. */
  publications?: PublicationsDeps;
  /** Told as detection goes (batches asked and answered), for progress and metrics. */
  onEvent?: (event: SweepEvent) => void;
  /**
   * What follows detection: summaries, the outbox, delivery (report/phases.ts builds them). Runs
   * under the lease, once every change this sweep detected is in the database; skipped on a dry
   * run, and absent where only detection is wanted.
   */
  report?: ReportPhases;
  /**
   * Told once a sweep that took the lease has ended, however it ended, after the lease is
   * released: the heartbeat and the metrics. Awaited (run-once's ping goes out before the process
   * exits); must not throw.
   */
  finished?: (sweep: FinishedSweep) => Promise<void>;
  /** Identifies this process in the lease (default: pid@host:random). */
  holder?: string;
  random?: () => number;
  /** This process and its host, for the lease and its renewal timer (default: the real ones). */
  host?: Pick<System, "hostname" | "pid" | "isAlive" | "every">;
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

/** What follows detection, phase by phase. */
export interface ReportPhases {
  /**
   * Every stored DJEN publication not reported yet is decided and its alerts queued (those
   * outside the watchlist first), then the corrections of cancelled ones; returns e-mails queued.
   */
  publications?(): number;
  /**
   * Every stored change without a summary gets one (the model, or the rules), and its alerts are
   * queued with it, to whom and when the alert policy says.
   */
  summarize(signal: AbortSignal): Promise<{ llmCalls: number; emailsQueued: number }>;
  /** What mail.admin should hear of this sweep, and the status reports now due. */
  queue(sweep: SweepTally): number;
  /** Every e-mail that is due is sent. */
  deliver(signal: AbortSignal): Promise<{ sent: number }>;
}

export interface SweepOptions {
  /** The whole watchlist: kept in sync with the database. */
  watchlist: readonly WatchedCase[];
  /** The cases to check now (default: all of the watchlist). */
  selected?: readonly WatchedCase[];
  /**
   * The OAB registrations whose DJEN publications to look for now (the watchlist's `oab:`); none
   * when only some cases are checked.
   */
  oab?: readonly WatchedOab[];
  force: boolean;
  dryRun: boolean;
  trigger: "schedule" | "manual" | "demo" | "startup";
  signal?: AbortSignal;
}

/**
 * One sweep, phase by phase. The daemon's tick, `monitor run-once` and `monitor demo` all run this.
 * Nothing after detection starts before everything detected is committed.
 */
export async function runSweep(deps: SweepDeps, options: SweepOptions): Promise<RunReport> {
  // Lease and run: one sweep at a time; crashed runs closed, the watchlist synced, a run started.
  const lease = takeLease(deps, options);
  const startedAt = deps.clock.now();
  let runReport: RunReport | null = null;
  try {
    const run = openRun(deps, options, lease.signal);
    const selected = options.selected ?? options.watchlist;
    // Detect (DataJud: fingerprint, read what moved, diff) and publications (DJEN, per case
    // number and OAB registration) at once: two services with their own limits, so the sweep
    // takes the longer of the two, not their sum. Each answer is committed as it arrives.
    const { detected, published } = await detectAndWatch(deps, run, {
      selected,
      oab: options.oab ?? [],
      watchlist: options.watchlist,
      force: options.force,
    });
    // Summarize, queue, deliver.
    const reported = await report(deps.report, run, detected, published);
    // Finish: the run's report stored and logged.
    runReport = reportOf(deps, run, options, detected, published, reported);
    closeRun(deps, run, runReport);
    return runReport;
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

/**
 * Runs detection and the DJEN phase side by side. Database writes stay serialized (each is one
 * synchronous transaction). A phase that throws stops the other before the error goes up, so
 * nothing writes after the lease is released.
 */
async function detectAndWatch(
  deps: SweepDeps,
  run: SweepRun,
  targets: PublicationTargets & { force: boolean },
): Promise<{ detected: Detected; published: WatchedPublications }> {
  const failed = new AbortController();
  const phaseRun: SweepRun = { ...run, signal: AbortSignal.any([run.signal, failed.signal]) };
  const stopOther = (error: unknown): never => {
    failed.abort(error);
    throw error;
  };
  const [detected, published] = await Promise.allSettled([
    detectChanges(deps, phaseRun, targets.selected, targets.force).catch(stopOther),
    watchPublications(deps, phaseRun, targets).catch(stopOther),
  ]);
  if (detected.status === "rejected") throw detected.reason;
  if (published.status === "rejected") throw published.reason;
  return { detected: detected.value, published: published.value };
}

interface Reported {
  llmCalls: number;
  emailsQueued: number;
  emailsSent: number;
  /** Stopped mid-summary or mid-send. */
  interrupted: boolean;
}

const NOTHING_REPORTED: Reported = {
  llmCalls: 0,
  emailsQueued: 0,
  emailsSent: 0,
  interrupted: false,
};

async function report(
  phases: ReportPhases | undefined,
  run: SweepRun,
  detected: Detected,
  published: WatchedPublications | null,
): Promise<Reported> {
  if (!run.write || run.id === null || phases === undefined || run.signal.aborted) {
    return NOTHING_REPORTED;
  }
  const djen = published?.report;
  const tally: SweepTally = {
    runId: run.id,
    startedAt: run.startedAt,
    checked: detected.cases.length,
    failed: detected.cases.filter((r) => r.outcome === "failed").length,
    interrupted: detected.interrupted || published?.interrupted === true,
    djen:
      djen === undefined
        ? null
        : {
            checked: djen.checked,
            failed: djen.failed,
            blocked: djen.failures.some((f) => f.kind === "geo_blocked"),
            lastError: djen.failures.at(-1) ?? null,
          },
  };
  try {
    // Publications first: they start deadlines, and their alerts go out ahead of the cases'.
    const publications = phases.publications?.() ?? 0;
    const summarized = await phases.summarize(run.signal);
    const queued = phases.queue(tally);
    const delivered = await phases.deliver(run.signal);
    return {
      llmCalls: summarized.llmCalls,
      emailsQueued: publications + summarized.emailsQueued + queued,
      emailsSent: delivered.sent,
      interrupted: false,
    };
  } catch (error) {
    // Stopped mid-summary or mid-send: what is committed stays, the next run completes it.
    if (!run.signal.aborted) throw error;
    return { ...NOTHING_REPORTED, interrupted: true };
  }
}

function reportOf(
  deps: SweepDeps,
  run: SweepRun,
  options: SweepOptions,
  detected: Detected,
  published: WatchedPublications | null,
  reported: Reported,
): RunReport {
  const cases = detected.cases;
  return {
    startedAt: run.startedAt,
    finishedAt: new Date(deps.clock.now()).toISOString(),
    checked: cases.length,
    changed: cases.filter((r) => r.outcome === "changed").length,
    failed: cases.filter((r) => r.outcome === "failed").length,
    datajudRequests: deps.datajudRequests() - run.requestsBefore,
    llmCalls: reported.llmCalls,
    emailsQueued: reported.emailsQueued,
    emailsSent: reported.emailsSent,
    dryRun: options.dryRun,
    interrupted: detected.interrupted || published?.interrupted === true || reported.interrupted,
    unreachable: detected.unreachable,
    cases,
    publications: deps.publications === undefined ? null : (published?.report ?? null),
  };
}
