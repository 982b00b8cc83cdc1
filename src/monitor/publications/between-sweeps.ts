import type { Logger } from "../../log.js";
import { NOTHING_QUEUED, queuedRows } from "../../notify/outbox/queue.js";
import { djenRetryAtMs } from "../../policy/djen-plan.js";
import type { Db } from "../../store/database.js";
import { getDjenReach } from "../../store/djen-reach.js";
import type { System } from "../../system.js";
import type { Clock } from "../../time/clock.js";
import type { WatchedCase, WatchedOab, WatchedParty } from "../../watchlist/parse-watchlist.js";
import type { ReportPhases } from "../report/phases.js";
import { LeaseBusyError, takeLease } from "../run.js";
import {
  askBatches,
  batchesOf,
  lastOkOf,
  type PublicationsDeps,
  planFor,
  sourcesOf,
} from "./watch-publications.js";

/*
 * DJEN between sweeps (the daemon): the sources that come due are asked as they do, one call at a
 * time at DJEN's rate, instead of all at the sweeps' hours. Each call's findings are committed,
 * their alerts queued and handed to delivery at once. A sweep pauses it (the sweep asks what is
 * due itself, under the same lease), and it takes the database lease for each call, so it never
 * writes beside another process's sweep.
 */

/**
 * A source that failed is asked again this long after, between sweeps; a sweep asks it at once.
 * After DJEN could not be reached the wait doubles per trip in a row (djenRetryAtMs).
 */
export const RETRY_BETWEEN_SWEEPS_MS = 10 * 60_000;
/** Longest sleep when nothing is due: the watchlist may have grown meanwhile. */
const IDLE_MAX_MS = 5 * 60_000;
/** How long to wait when another process holds the database. */
const BUSY_WAIT_MS = 60_000;
/** How long one step asks before it plans again (new due times, a reloaded watchlist). */
const STEP_MS = 60_000;

export interface BetweenSweepsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  publications: PublicationsDeps;
  /** The watchlist in force. */
  watchlist: () => {
    cases: readonly WatchedCase[];
    oab: readonly WatchedOab[];
    parties?: readonly WatchedParty[] | undefined;
  };
  /** Publication alerts decided and queued, then delivered. */
  report: Pick<ReportPhases, "publications" | "deliver">;
  random: () => number;
  host: Pick<System, "hostname" | "pid" | "isAlive" | "every">;
}

/** What one step did: how long to wait before the next. */
export interface Step {
  /** Sources asked (0: none was due, or the database was busy). */
  asked: number;
  waitMs: number;
}

/**
 * Asks the due sources for about a minute (a call is ten case numbers or one registration),
 * commits each answer, queues and delivers the alerts of what it found. Returns how long to wait: 0 when
 * more is due, until the next due time when nothing is (at most a few minutes), a pause after
 * DJEN could not be reached.
 */
export async function askDueBetweenSweeps(
  deps: BetweenSweepsDeps,
  signal: AbortSignal,
): Promise<Step> {
  const now = deps.clock.now();
  // DJEN unreachable at its last try: nothing is asked before the backoff is over.
  const retryAt = retryAtOf(deps.db);
  if (retryAt > now) return { asked: 0, waitMs: Math.min(retryAt - now, IDLE_MAX_MS) };
  const { cases, oab, parties = [] } = deps.watchlist();
  const plan = planFor(deps.db, sourcesOf(cases, oab, parties), now, deps.publications.plan, {
    retryFailedAfterMs: RETRY_BETWEEN_SWEEPS_MS,
  });
  const batches = batchesOf(plan.due, deps.publications.concurrency);
  if (batches.length === 0) {
    const next = plan.later[0]?.dueAtMs ?? Number.POSITIVE_INFINITY;
    return { asked: 0, waitMs: Math.max(1_000, Math.min(next - now, IDLE_MAX_MS)) };
  }
  let lease: ReturnType<typeof takeLease>;
  try {
    lease = takeLease(deps, { dryRun: false, signal });
  } catch (error) {
    if (!(error instanceof LeaseBusyError)) throw error;
    return { asked: 0, waitMs: BUSY_WAIT_MS };
  }
  try {
    const asked = await askBatches(
      {
        db: deps.db,
        clock: deps.clock,
        logger: deps.logger,
        phase: deps.publications,
        runId: null,
        write: true,
        signal: lease.signal,
        budgetMs: STEP_MS,
        lastOk: lastOkOf(plan),
        radar: { parties, watched: new Set(cases.map((c) => c.digits)) },
      },
      batches,
    );
    const found = asked.outcomes.some(
      (o) => o.stored.length + o.cancelled.length + (o.radar?.hits ?? 0) > 0,
    );
    if (found && !lease.signal.aborted) {
      const queued = deps.report.publications?.() ?? NOTHING_QUEUED;
      if (queuedRows(queued) > 0) await deps.report.deliver(lease.signal);
    }
    return {
      asked: asked.outcomes.length,
      waitMs:
        asked.stopped === null
          ? 0
          : Math.max(1_000, Math.min(retryAtOf(deps.db) - deps.clock.now(), IDLE_MAX_MS)),
    };
  } finally {
    lease.release();
  }
}

/** When DJEN may be tried again after its trips in a row; -Infinity when it answered last. */
function retryAtOf(db: Db): number {
  const reach = getDjenReach(db);
  if (reach === null) return Number.NEGATIVE_INFINITY;
  return djenRetryAtMs(Date.parse(reach.trippedAt), reach.trips);
}

export interface BetweenSweeps {
  /** Stops asking until `resume`: the call in flight is cancelled and waited for. */
  pause(): Promise<void>;
  resume(): void;
  /** Stops for good, waiting for the call in flight. */
  stop(): Promise<void>;
}

/** Keeps asking DJEN what comes due until stopped; a sweep pauses it while it runs. */
export function startBetweenSweeps(deps: BetweenSweepsDeps): BetweenSweeps {
  let stopped = false;
  let paused = 0;
  let current: AbortController | null = null;
  let step: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const runStep = async (signal: AbortSignal): Promise<void> => {
    let waitMs: number;
    try {
      waitMs = (await askDueBetweenSweeps(deps, signal)).waitMs;
    } catch (error) {
      if (signal.aborted) return;
      deps.logger.error({ err: error }, "DJEN between sweeps failed; trying again later");
      waitMs = RETRY_BETWEEN_SWEEPS_MS;
    }
    if (waitMs > 0 && !signal.aborted) {
      await deps.clock.sleep(waitMs, signal).catch(() => undefined);
    }
  };
  const loop = (async (): Promise<void> => {
    while (!stopped) {
      if (paused > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      current = new AbortController();
      step = runStep(current.signal);
      await step;
      step = null;
      current = null;
    }
  })();
  const interrupt = (why: string): void => {
    current?.abort(new Error(why));
  };
  return {
    pause: async () => {
      paused++;
      interrupt("paused for a sweep");
      await step;
    },
    resume: () => {
      paused = Math.max(0, paused - 1);
      if (paused === 0) {
        wake?.();
        wake = null;
      }
    },
    stop: async () => {
      stopped = true;
      interrupt("stopping");
      wake?.();
      await loop;
    },
  };
}
