import { Cron } from "croner";
import type { Logger } from "../log.js";
import type { Clock } from "../time/clock.js";
import { zonedIso } from "../time/zoned-time.js";

export interface SchedulerOptions {
  cron: string;
  timezone: string;
  /** A random delay before each sweep, so many monitors do not hit DataJud at the same second. */
  startJitterMs: number;
  random: () => number;
  clock: Clock;
  logger: Logger;
  /** The sweep; receives a signal that aborts when the scheduler stops. */
  tick: (signal: AbortSignal) => Promise<void>;
}

export interface Scheduler {
  nextRun(): Date | null;
  /** Stops scheduling, aborts a running tick and waits for it to wind down. */
  stop(): Promise<void>;
}

function zonedOrNull(instant: Date | null, timeZone: string): string | null {
  return instant === null ? null : zonedIso(instant, timeZone);
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  const job = new Cron(
    options.cron,
    {
      timezone: options.timezone,
      // An overrunning sweep is never doubled: the next tick is skipped instead.
      protect: (blocked) => {
        options.logger.warn(
          { startedAt: zonedOrNull(blocked.currentRun(), options.timezone) },
          "previous sweep still running; skipping this tick",
        );
      },
      catch: (error) => {
        options.logger.error({ err: error }, "scheduled sweep crashed");
      },
    },
    async () => {
      const jitter = Math.floor(options.random() * options.startJitterMs);
      const work = (async () => {
        try {
          if (jitter > 0) await options.clock.sleep(jitter, controller.signal);
        } catch {
          return;
        }
        if (controller.signal.aborted) return;
        await options.tick(controller.signal);
      })();
      running = work;
      try {
        await work;
      } finally {
        running = null;
        const next = job.nextRun();
        // Stopping (shutdown) schedules nothing: no "next sweep" line with no time in it.
        if (next !== null && !controller.signal.aborted) {
          options.logger.info(
            { nextRun: zonedIso(next, options.timezone) },
            "next sweep scheduled",
          );
        }
      }
    },
  );
  return {
    nextRun: () => job.nextRun(),
    stop: async () => {
      job.stop();
      controller.abort(new Error("scheduler stopped"));
      if (running) await running.catch(() => undefined);
    },
  };
}
