import { hostname } from "node:os";
import { processIsAlive } from "./store/lease.js";
import { type Clock, systemClock } from "./time/clock.js";

/** Calls `fn` every `ms` until the returned function is called. */
export type Every = (ms: number, fn: () => void) => () => void;

/**
 * What a process takes from the machine it runs on: time, chance and who it is. The entry point
 * passes the real one; tests pass a fake clock, so retries and backoff run without real waiting.
 */
export interface System {
  clock: Clock;
  random: () => number;
  hostname: () => string;
  pid: number;
  /** Whether a process of this host still exists (a lease holder killed with SIGKILL does not). */
  isAlive: (pid: number) => boolean;
  /** A repeating timer that never keeps the process alive by itself (the lease renewal). */
  every: Every;
  /**
   * Times the limit of a call that may never answer (a model call): real time, also in tests
   * whose clock skips every sleep (a limit would expire at once); a test of a hung call passes
   * a fake clock it moves itself.
   */
  callTimer: Pick<Clock, "sleep">;
}

export const realEvery: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export const realSystem: System = {
  clock: systemClock,
  random: Math.random,
  hostname,
  pid: process.pid,
  isAlive: processIsAlive,
  every: realEvery,
  callTimer: systemClock,
};
