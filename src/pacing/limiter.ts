import type { Clock } from "../time/clock.js";
import { WaitQueue } from "./wait-queue.js";

/** What the window holds right now: what `rate_status` and `monitor status` show. */
export interface WindowUsage {
  limit: number;
  windowMs: number;
  /** Grants in the window (and its margin) that ends now. */
  used: number;
  /** How many more fit now without waiting (0 while callers queue). */
  remaining: number;
  /** Callers queued for a grant. */
  waiting: number;
}

export interface SlidingWindowLimiterOptions {
  /** Most grants allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /**
   * How much later than its grant a request may reach the server (connection set-up, a busy
   * event loop, the network). Grants are spaced `windowMs + marginMs` apart, so the server never
   * sees more than `limit` in any `windowMs` however the arrivals shift within the margin.
   * @default 0
   */
  marginMs?: number;
  clock: Clock;
}

/**
 * Never more than `limit` grants in any window of `windowMs`, wherever the window starts.
 * It keeps the times of the last `limit` grants: a new grant fits once the oldest of them is a
 * full window old. A token bucket refilled per window would let 2x `limit` through across a
 * window boundary, which CNJ's terms of use (120 requests per minute) do not allow. Counting
 * only when a grant leaves is not enough either: a burst granted at 0 s that arrives at 0.5 s and
 * the next burst granted at 60 s that arrives at once are two bursts in 59.5 s of the server's
 * clock (10 requests in one window at a cap of 6, measured); `marginMs` keeps that slack.
 */
export class SlidingWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  /** The window grants are spaced by: the server's window plus the arrival margin. */
  readonly #spacingMs: number;
  readonly #clock: Clock;
  /** Times of the most recent grants, oldest first, at most `limit` of them. */
  readonly #grants: number[] = [];
  readonly #queue = new WaitQueue<void>(() => {
    if (this.#queue.length === 0) this.#idle?.abort();
  });
  #pumping = false;
  /** Cuts the pump's sleep short when nobody is left waiting, so no timer outlives the queue. */
  #idle: AbortController | undefined;

  constructor(options: SlidingWindowLimiterOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a positive integer, got ${options.limit}`);
    }
    if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive number, got ${options.windowMs}`);
    }
    const margin = options.marginMs ?? 0;
    if (!Number.isFinite(margin) || margin < 0) {
      throw new RangeError(`marginMs must be 0 or more, got ${margin}`);
    }
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#spacingMs = options.windowMs + margin;
    this.#clock = options.clock;
  }

  /** Waits until one more request fits in any window of windowMs (plus the margin); FIFO fair; rejects with the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Only jump straight in when nobody queued earlier, or FIFO order would break.
    if (this.#queue.length === 0 && this.#waitMs() === 0) {
      this.#grant();
      return Promise.resolve();
    }
    const granted = this.#queue.wait(signal);
    void this.#pump();
    return granted;
  }

  usage(): WindowUsage {
    const since = this.#clock.now() - this.#spacingMs;
    const used = this.#grants.filter((at) => at > since).length;
    return {
      limit: this.#limit,
      windowMs: this.#windowMs,
      used,
      remaining: this.#queue.length > 0 ? 0 : this.#limit - used,
      waiting: this.#queue.length,
    };
  }

  /**
   * How long a caller asking now would wait, roughly: until one more grant fits, plus a full
   * spacing for every `limit` callers already queued ahead of it. 0 when it would go at once.
   */
  expectedWaitMs(): number {
    const rounds = Math.floor(this.#queue.length / this.#limit);
    if (this.#queue.length === 0 && this.#waitMs() === 0) return 0;
    return this.#waitMs() + rounds * this.#spacingMs;
  }

  /**
   * How long the last of `requests` callers asking now would wait, behind those already queued:
   * each grant comes a full spacing after the grant `limit` places before it. 0 when all go at once.
   */
  expectedWaitMsFor(requests: number): number {
    const now = this.#clock.now();
    const times = [...this.#grants];
    let last = now;
    for (let i = 0; i < this.#queue.length + requests; i++) {
      const before = times.length >= this.#limit ? times[times.length - this.#limit] : undefined;
      last = before === undefined ? now : Math.max(now, before + this.#spacingMs);
      times.push(last);
    }
    return last - now;
  }

  /** How long until one more grant fits, 0 when it fits now. */
  #waitMs(): number {
    if (this.#grants.length < this.#limit) return 0;
    const oldest = this.#grants[0] ?? Number.NEGATIVE_INFINITY;
    return Math.max(0, oldest + this.#spacingMs - this.#clock.now());
  }

  #grant(): void {
    this.#grants.push(this.#clock.now());
    if (this.#grants.length > this.#limit) this.#grants.shift();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        const wait = this.#waitMs();
        if (wait > 0) {
          this.#idle = new AbortController();
          try {
            await this.#clock.sleep(wait, this.#idle.signal);
          } catch {
            // Woken because the queue emptied; the loop condition ends the pump.
          }
          this.#idle = undefined;
          continue;
        }
        if (!this.#queue.serveNext(() => this.#grant())) break;
      }
    } finally {
      this.#pumping = false;
    }
  }
}
