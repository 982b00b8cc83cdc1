import type { Logger } from "../log.js";
import type { SweepTally } from "../policy/health.js";
import type { Db } from "../store/database.js";
import type { System } from "../system.js";
import type { Clock } from "../time/clock.js";
import type { WatchedCase } from "../watchlist/parse-watchlist.js";
import type { DataJudGateway } from "./detect/datajud-gateway.js";
import { type Detected, detectChanges } from "./detect/detect.js";
import { closeRun, openRun, type SweepRun, takeLease } from "./run.js";
import type { RunReport } from "./run-report.js";

export interface SweepSettings {
  fullRereadDays: number;
  notFoundThreshold: number;
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
  /**
   * What happens to committed changes: summaries, the outbox, delivery. Runs under the lease,
   * after every detected change of this sweep is in the database; skipped on a dry run.
   */
  afterDetection?: (signal: AbortSignal, sweep: SweepTally) => Promise<AfterDetection>;
  /** Identifies this process in the lease (default: pid@host:random). */
  holder?: string;
  random?: () => number;
  /** This process and its host, for the lease and its renewal timer (default: the real ones). */
  host?: Pick<System, "hostname" | "pid" | "isAlive" | "every">;
}

export interface AfterDetection {
  llmCalls: number;
  emailsQueued: number;
  emailsSent: number;
}

export interface SweepOptions {
  /** The whole watchlist: kept in sync with the database. */
  watchlist: readonly WatchedCase[];
  /** The cases to check now (default: all of the watchlist). */
  selected?: readonly WatchedCase[];
  force: boolean;
  dryRun: boolean;
  trigger: "schedule" | "manual" | "demo" | "startup";
  signal?: AbortSignal;
}

/**
 * One sweep, phase by phase. The daemon's tick, `monitor run-once` and `monitor demo` all run this.
 *
 * 1. lease: one sweep at a time holds the database, renewed while it works (run.ts)
 * 2. run: runs a crash left open are closed, the watchlist synced, this run started (run.ts)
 * 3. detect: index by index, fingerprint, read what moved, diff, and commit each case (detect/)
 * 4. after detection, only once everything found is committed: summaries, mail, delivery
 * 5. finish: the run's report is stored and logged (run.ts)
 */
export async function runSweep(deps: SweepDeps, options: SweepOptions): Promise<RunReport> {
  const lease = takeLease(deps, options);
  try {
    const run = openRun(deps, options, lease.signal);
    const detected = await detectChanges(
      deps,
      run,
      options.selected ?? options.watchlist,
      options.force,
    );
    const reported = await afterDetection(deps, run, detected);
    const report = runReport(deps, run, options, detected, reported);
    closeRun(deps, run, report);
    return report;
  } finally {
    lease.release();
  }
}

interface Reported extends AfterDetection {
  /** Stopped mid-summary or mid-send. */
  interrupted: boolean;
}

const NOTHING_REPORTED: Reported = {
  llmCalls: 0,
  emailsQueued: 0,
  emailsSent: 0,
  interrupted: false,
};

async function afterDetection(
  deps: SweepDeps,
  run: SweepRun,
  detected: Detected,
): Promise<Reported> {
  if (!run.write || run.id === null || !deps.afterDetection || run.signal.aborted) {
    return NOTHING_REPORTED;
  }
  const tally: SweepTally = {
    runId: run.id,
    startedAt: run.startedAt,
    checked: detected.cases.length,
    failed: detected.cases.filter((r) => r.outcome === "failed").length,
    interrupted: detected.interrupted,
  };
  try {
    return { ...(await deps.afterDetection(run.signal, tally)), interrupted: false };
  } catch (error) {
    // Stopped mid-summary or mid-send: what is committed stays, the next run completes it.
    if (!run.signal.aborted) throw error;
    return { ...NOTHING_REPORTED, interrupted: true };
  }
}

function runReport(
  deps: SweepDeps,
  run: SweepRun,
  options: SweepOptions,
  detected: Detected,
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
    interrupted: detected.interrupted || reported.interrupted,
    cases,
  };
}
