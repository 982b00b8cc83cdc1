import { realSystem, type System } from "../../src/system.js";
import type { Clock } from "../../src/time/clock.js";

interface Sleeper {
  due: number;
  seq: number;
  resolve: () => void;
}

interface Repeater {
  due: number;
  seq: number;
  everyMs: number;
  fn: () => void;
}

export interface FakeClockOptions {
  /** Epoch ms to start at. @default Date.UTC(2025, 0, 1) */
  now?: number;
  /** Every sleep moves time forward by its length and resolves at once. @default false */
  autoAdvance?: boolean;
}

function flush(): Promise<void> {
  // setImmediate runs after every microtask queued so far, so promise chains settle first.
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A Clock whose time moves only when a test says so (`advance`), or, in auto-advance mode,
 * whenever someone sleeps: retry loops then run instantly while still seeing time pass.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];
  #repeaters: Repeater[] = [];
  autoAdvance: boolean;
  /** Every sleep requested, in ms, in call order. */
  readonly sleeps: number[] = [];

  constructor(options: FakeClockOptions = {}) {
    this.#now = options.now ?? Date.UTC(2025, 0, 1);
    this.autoAdvance = options.autoAdvance ?? false;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const wait = Math.max(0, ms);
    this.sleeps.push(wait);
    if (this.autoAdvance) {
      this.#now += wait;
      this.#fireRepeaters(this.#now);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        due: this.#now + wait,
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** A repeating timer on this clock's time (`System.every`): fires as time is advanced. */
  every(ms: number, fn: () => void): () => void {
    const repeater: Repeater = { due: this.#now + ms, seq: this.#seq++, everyMs: ms, fn };
    this.#repeaters.push(repeater);
    return () => {
      this.#repeaters = this.#repeaters.filter((r) => r !== repeater);
    };
  }

  /** Sleeps not yet resolved. */
  get pending(): number {
    return this.#sleepers.length;
  }

  /**
   * Moves time forward by `ms`, stopping at each sleeper's due time to resolve it and let the
   * code it wakes run (and sleep again) before time moves on, so a woken loop that sleeps again
   * within the advanced span is woken too. Being async, it must be awaited.
   */
  async advance(ms: number): Promise<void> {
    const target = this.#now + Math.max(0, ms);
    // Whatever already happened (a grant, a resolved fetch) settles at the current time first.
    await flush();
    for (;;) {
      const next = this.#nextDue(target);
      if (next === undefined) break;
      this.#now = Math.max(this.#now, next.due);
      if ("fn" in next) {
        next.due += next.everyMs;
        next.fn();
      } else {
        this.#sleepers = this.#sleepers.filter((s) => s !== next);
        next.resolve();
      }
      await flush();
    }
    this.#now = target;
    await flush();
  }

  /** Sets the time without waking anyone (for "the clock jumped" cases). */
  set(now: number): void {
    this.#now = now;
  }

  #fireRepeaters(until: number): void {
    for (;;) {
      const due = this.#repeaters.filter((r) => r.due <= until).sort((a, b) => a.due - b.due)[0];
      if (due === undefined) return;
      due.due += due.everyMs;
      due.fn();
    }
  }

  #nextDue(target: number): Sleeper | Repeater | undefined {
    let best: Sleeper | Repeater | undefined;
    for (const s of [...this.#sleepers, ...this.#repeaters]) {
      if (s.due > target) continue;
      if (!best || s.due < best.due || (s.due === best.due && s.seq < best.seq)) best = s;
    }
    return best;
  }
}

/**
 * The real System on a fake clock: the CLI and the sweep as in production, minus real waiting.
 * By default the clock starts at the real time (rows stay comparable with what tests write using
 * Date.now()) and jumps over every sleep, so retries and backoff cost nothing; the lease renewal
 * runs on the same clock. Host name and pid stay real, like a process beside the test's children.
 */
export function fakeSystem(
  clock: FakeClock = new FakeClock({ now: Date.now(), autoAdvance: true }),
  overrides: Partial<Omit<System, "clock">> = {},
): System & { clock: FakeClock } {
  return {
    ...realSystem,
    every: (ms, fn) => clock.every(ms, fn),
    ...overrides,
    clock,
  };
}
