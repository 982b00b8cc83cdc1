import { followAbort } from "../abort.js";
import { formatInstant } from "../datajud/dates.js";
import type { Logger } from "../log.js";
import { type Db, guardWrites, immediate } from "../store/database.js";
import {
  acquireLease,
  currentLease,
  releaseLease,
  renewLease,
  thisProcessClaimant,
} from "../store/lease.js";
import { sealLedger } from "../store/ledger.js";
import { finishRun, markStaleRunsCrashed, startRun } from "../store/runs.js";
import type { System } from "../system.js";
import { type Clock, isoNow } from "../time/clock.js";
import type { WatchedCase } from "../watchlist/parse-watchlist.js";
import type { RunReport } from "./run-report.js";
import { syncWatchlist } from "./sync-watchlist.js";

/*
 * A sweep's lease and its run: one sweep at a time holds the database (a row in `lease`, renewed
 * while it works), and each sweep is a row in `runs`, started before detection and finished with
 * its report.
 */

const LEASE_TTL_MS = 10 * 60_000;

export class LeaseBusyError extends Error {
  override readonly name = "LeaseBusyError";
  /** `timeZone`: the schedule's, so the time reads as the CLI's other times do. */
  constructor(holder: string, expiresAt: string, timeZone?: string) {
    const until = timeZone === undefined ? expiresAt : formatInstant(expiresAt, timeZone);
    super(
      `another sweep holds the database (${holder}, until ${until}); wait for it to finish, or stop the other monitor process`,
    );
  }
}

/**
 * This sweep's lease was taken by another run while this one was stopped or stalled past it (a
 * SIGSTOP, a suspended machine): it writes nothing more and leaves that run's record as it is.
 */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
  constructor(ours: string, taker: string | null) {
    super(
      `this sweep (${ours}) lost the database lease to ${taker ?? "another run"} while it was stopped or stalled past the lease's 10 minutes: it stopped writing, keeping what it had committed, and left that run's record as it was; nothing to do, the other run carries on`,
    );
  }
}

export interface SweepLease {
  /**
   * Aborts when the caller aborts, or when a renewal fails (this process stalled past the lease's
   * expiry and another one took it): every phase stops at it.
   */
  signal: AbortSignal;
  /** The lease was found taken by another run: the sweep must end with a LeaseLostError. */
  lost(): LeaseLostError | null;
  release(): void;
}

/** What the lease uses. */
export interface LeaseDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Identifies this process in the lease (default: pid@host:random). */
  holder?: string | undefined;
  random: () => number;
  /** This process and its host, for the lease and its renewal timer. */
  host: Pick<System, "hostname" | "pid" | "isAlive" | "every">;
  /** The schedule's time zone, for the times the lease's messages give (default: UTC text). */
  timeZone?: string | undefined;
}

/** What the run rows use besides the lease. */
export interface RunDeps extends LeaseDeps {
  /** DataJud HTTP requests sent so far by this process, for the report. */
  datajudRequests: () => number;
}

/** What starts a sweep's run: what it syncs, what started it, whether it writes. */
export interface RunOptions {
  /** The whole watchlist: kept in sync with the database. */
  watchlist: readonly WatchedCase[];
  dryRun: boolean;
  trigger: "schedule" | "manual" | "demo" | "startup";
  signal?: AbortSignal | undefined;
}

/** Takes the database lease and keeps it renewed; a dry run writes nothing and takes none. */
export function takeLease(
  deps: LeaseDeps,
  options: Pick<RunOptions, "dryRun" | "signal">,
): SweepLease {
  const { db, clock, logger } = deps;
  const { host } = deps;
  // Named and judging others as the outbox's claims are: pid@host:random.
  const claimant = thisProcessClaimant({ ...host, random: deps.random });
  const holder = deps.holder ?? claimant.holder;
  const write = !options.dryRun;
  if (write) {
    const lease = acquireLease(db, {
      holder,
      now: clock.now(),
      ttlMs: LEASE_TTL_MS,
      holderIsDead: claimant.holderIsDead,
    });
    if (!lease.ok) throw new LeaseBusyError(lease.holder, lease.expiresAt, deps.timeZone);
  }
  const stop = new AbortController();
  const unfollow = followAbort(options.signal, stop);
  let lost: LeaseLostError | null = null;
  const loseLease = (): LeaseLostError => {
    if (lost === null) {
      lost = new LeaseLostError(holder, currentLease(db)?.holder ?? null);
      logger.error({ holder }, "sweep lease lost to another run; this sweep stops writing");
      stop.abort(lost);
    }
    return lost;
  };
  const stopRenewing = write
    ? host.every(LEASE_TTL_MS / 3, () => {
        if (lost === null && !renewLease(db, holder, clock.now(), LEASE_TTL_MS)) loseLease();
      })
    : undefined;
  // Every write of this connection checks the lease first, inside its transaction: a process
  // resumed after its lease ran out writes nothing, even before its renewal timer fires.
  if (write) {
    guardWrites(db, () => {
      if (lost !== null || currentLease(db)?.holder !== holder) throw loseLease();
    });
  }
  return {
    signal: stop.signal,
    lost: () => lost,
    release: () => {
      stopRenewing?.();
      unfollow();
      if (write) {
        guardWrites(db, null);
        releaseLease(db, holder);
      }
    },
  };
}

/** One sweep's run, from its start to its report. */
export interface SweepRun {
  /** The `runs` row; null on a dry run, which writes nothing. */
  id: number | null;
  startedAt: string;
  write: boolean;
  /** The lease's signal. */
  signal: AbortSignal;
  /** DataJud requests this process had sent before the sweep, for the report's count. */
  requestsBefore: number;
}

/**
 * Starts the run, in one transaction: runs a crash left "running" are closed (only one sweep runs
 * at a time, the lease), the watchlist is synced, and this run's row is written.
 */
export function openRun(deps: RunDeps, options: RunOptions, signal: AbortSignal): SweepRun {
  const { db } = deps;
  const startedAt = isoNow(deps.clock);
  const requestsBefore = deps.datajudRequests();
  const write = !options.dryRun;
  let id: number | null = null;
  if (write) {
    immediate(db, () => {
      markStaleRunsCrashed(db);
      syncWatchlist(db, options.watchlist, startedAt);
      id = startRun(db, { startedAt, trigger: options.trigger });
    });
  }
  return { id, startedAt, write, signal, requestsBefore };
}

/** The run's report is stored with its row and logged. */
export function closeRun(deps: RunDeps, run: SweepRun, report: RunReport): void {
  const { db } = deps;
  const id = run.id;
  if (run.write && id !== null) {
    // Unchanged cases are the bulk of every run and are already rows in `checks`; keeping them
    // out of the stored report stops `runs` from growing by the watchlist's size per sweep.
    const stored = { ...report, cases: report.cases.filter((c) => c.outcome !== "unchanged") };
    // The run's checks and deliveries are chained into the record of watching as it closes.
    immediate(db, () => {
      finishRun(db, id, { finishedAt: report.finishedAt, report: stored });
      sealLedger(db);
    });
  }
  deps.logger.info(
    {
      checked: report.checked,
      changed: report.changed,
      failed: report.failed,
      datajudRequests: report.datajudRequests,
      interrupted: report.interrupted,
      dryRun: report.dryRun,
    },
    "sweep finished",
  );
}
