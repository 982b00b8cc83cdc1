import type { Logger } from "../log.js";
import { type BetweenSweeps, startBetweenSweeps } from "../monitor/publications/between-sweeps.js";
import { LeaseBusyError, LeaseLostError } from "../monitor/run.js";
import { runSweep } from "../monitor/sweep.js";
import type { Watchlist } from "../watchlist/parse-watchlist.js";
import type { MonitorHandles } from "./runtime.js";

/*
 * What the daemon does on its own clock, apart from the cron that starts it: DJEN asked between
 * sweeps as sources come due, and the scheduled sweep, which pauses that asking while it runs.
 * Split from daemon.ts so a test drives the same wiring on a fake clock (croner keeps real time).
 */

export interface DaemonSweeps {
  /** Asking DJEN between sweeps; null when DJEN is off. */
  between: BetweenSweeps | null;
  /** One scheduled sweep: what the scheduler runs at each cron time. */
  tick(signal: AbortSignal): Promise<void>;
  stop(): Promise<void>;
}

export function startDaemonSweeps(
  monitor: MonitorHandles,
  watchlist: () => Watchlist,
  logger: Logger,
  onSwept: () => void = () => undefined,
): DaemonSweeps {
  // DJEN's sources are asked as they come due, at DJEN's rate, not only at the sweeps' hours.
  const publications = monitor.sweep.publications;
  const report = monitor.sweep.report;
  const between: BetweenSweeps | null =
    publications === undefined || report === undefined
      ? null
      : startBetweenSweeps({
          db: monitor.db,
          clock: monitor.system.clock,
          logger,
          publications,
          watchlist: () => watchlist(),
          report,
          random: monitor.system.random,
          host: monitor.system,
        });
  return {
    between,
    tick: async (signal) => {
      const current = watchlist();
      // The sweep asks what is due itself, under its own lease.
      await between?.pause();
      try {
        await runSweep(monitor.sweep, {
          watchlist: current.cases,
          oab: current.oab,
          parties: current.parties ?? [],
          force: false,
          dryRun: false,
          trigger: "schedule",
          signal,
        });
        onSwept();
      } catch (error) {
        if (error instanceof LeaseLostError) {
          logger.error({ reason: error.message }, "sweep stopped: its lease was taken over");
          return;
        }
        if (!(error instanceof LeaseBusyError)) throw error;
        logger.warn({ reason: error.message }, "sweep skipped: database busy");
      } finally {
        between?.resume();
      }
    },
    stop: async () => {
      await between?.stop();
    },
  };
}
