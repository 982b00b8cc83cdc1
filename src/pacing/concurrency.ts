import type { Clock } from "../time/clock.js";
import { WaitQueue } from "./wait-queue.js";

/** What an upstream said that means "too much at once": each halves the concurrency. */
export type CongestionCause = "rate_limited" | "gateway_timeout" | "timeout" | "rejected";

export interface ConcurrencyChange {
  from: number;
  to: number;
  /** A congestion signal halved it, or a window went by without one and it grew back. */
  cause: CongestionCause | "quiet_window";
}

export interface ConcurrencyUsage {
  /** Requests allowed in flight now. */
  limit: number;
  /** The configured ceiling it grows back to. */
  max: number;
  inFlight: number;
  /** Requests queued for a place. */
  waiting: number;
}

export interface AdaptiveConcurrencyOptions {
  /** The configured ceiling, and where the limit starts. */
  max: number;
  /** A window this long without a congestion signal grows the limit back by one. */
  windowMs: number;
  clock: Clock;
  /** Told once per change, with its cause. */
  onChange?: (change: ConcurrencyChange) => void;
}

/** One request's place among those in flight. */
export interface ConcurrencySlot {
  /**
   * The upstream answered this request with a sign of overload: halves the limit (not below 1),
   * once for every request sent at the same limit, so a burst of answers to one wave of
   * requests halves it once, not once per answer.
   */
  congested(cause: CongestionCause): void;
  /** The request is over (answered, failed or aborted); safe to call more than once. */
  release(): void;
}

/**
 * How many requests to one upstream are in flight at once, for the whole process: FIFO places,
 * halved on overload (429, a gateway's 504, timeouts) the way TCP halves its window, and grown
 * back by one per quiet window. It only orders who goes; the sliding-window limiter still
 * decides when each request may leave.
 */
export class AdaptiveConcurrency {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #onChange: ((change: ConcurrencyChange) => void) | undefined;
  #limit: number;
  #inFlight = 0;
  /** Bumped at every change: a signal counts only from a request sent at the current limit. */
  #generation = 0;
  /** Since when no congestion was signalled and nothing changed: the growth window's start. */
  #calmSince: number;
  readonly #queue = new WaitQueue<ConcurrencySlot>();

  constructor(options: AdaptiveConcurrencyOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.max}`);
    }
    if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive number, got ${options.windowMs}`);
    }
    this.#max = options.max;
    this.#limit = options.max;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
    this.#onChange = options.onChange;
    this.#calmSince = options.clock.now();
  }

  /** Waits for a place (FIFO); rejects with the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<ConcurrencySlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#growBack();
    if (this.#queue.length === 0 && this.#inFlight < this.#limit) {
      return Promise.resolve(this.#grant());
    }
    return this.#queue.wait(signal);
  }

  usage(): ConcurrencyUsage {
    this.#growBack();
    return {
      limit: this.#limit,
      max: this.#max,
      inFlight: this.#inFlight,
      waiting: this.#queue.length,
    };
  }

  #grant(): ConcurrencySlot {
    this.#inFlight++;
    const generation = this.#generation;
    let released = false;
    return {
      congested: (cause) => this.#congested(generation, cause),
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#growBack();
        this.#pump();
      },
    };
  }

  #congested(generation: number, cause: CongestionCause): void {
    this.#calmSince = this.#clock.now();
    // Answers to requests sent before the last change were already counted in it.
    if (generation !== this.#generation) return;
    this.#change(Math.max(1, Math.floor(this.#limit / 2)), cause);
  }

  /** One step back up per whole window without a congestion signal since the last change. */
  #growBack(): void {
    if (this.#limit >= this.#max) return;
    const windows = Math.floor((this.#clock.now() - this.#calmSince) / this.#windowMs);
    if (windows < 1) return;
    const to = Math.min(this.#max, this.#limit + windows);
    this.#calmSince += windows * this.#windowMs;
    this.#change(to, "quiet_window");
    this.#pump();
  }

  #change(to: number, cause: ConcurrencyChange["cause"]): void {
    this.#generation++;
    if (to === this.#limit) return;
    const from = this.#limit;
    this.#limit = to;
    if (cause !== "quiet_window") this.#calmSince = this.#clock.now();
    try {
      this.#onChange?.({ from, to, cause });
    } catch {
      // A logging hook must never change who gets to send.
    }
  }

  #pump(): void {
    while (this.#inFlight < this.#limit && this.#queue.serveNext(() => this.#grant())) {
      // Served in order until the limit is full or nobody waits.
    }
  }
}
