/*
 * How many failures (wrong secrets in a URL) a client may have before it is told to wait: a
 * token bucket per client, `burst` deep, refilled at `perMinute`. Only failures are counted, so
 * a client that presents a right secret is never slowed, whatever its neighbours behind the same
 * address do. The table is bounded: past `maxClients`, the client heard from least recently is
 * forgotten (it starts again with a full bucket, which only ever errs on the lenient side). Time
 * is passed in.
 */

export interface FailureLimiterOptions {
  /** Failures a client may have in a row before it waits. */
  burst: number;
  /** Failures forgiven per minute after that. */
  perMinute: number;
  /** Clients remembered at most. */
  maxClients: number;
  /** Milliseconds since the epoch. */
  now: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** Whether the last failure was refused: a run of refusals is told to the log once. */
  refusing: boolean;
}

/** A failure's verdict: let through (the caller answers as usual) or refused for this long. */
export type FailureVerdict =
  | { refused: false }
  | { refused: true; retryAfterSeconds: number; firstRefusal: boolean };

export class FailureLimiter {
  readonly #options: FailureLimiterOptions;
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;

  constructor(options: FailureLimiterOptions) {
    this.#options = options;
    this.#perMs = options.perMinute / 60_000;
  }

  /** The bucket of `client` as of now, refilled for the time that passed. */
  #refilled(client: string, now: number): Bucket {
    const old = this.#buckets.get(client);
    if (old === undefined) return { tokens: this.#options.burst, at: now, refusing: false };
    const tokens = Math.min(this.#options.burst, old.tokens + (now - old.at) * this.#perMs);
    return { tokens, at: now, refusing: old.refusing };
  }

  /** Counts one failure of `client`. */
  fail(client: string): FailureVerdict {
    const now = this.#options.now();
    const bucket = this.#refilled(client, now);
    // Delete then set: the Map's order is then least recently heard from first.
    this.#buckets.delete(client);
    let verdict: FailureVerdict;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.refusing = false;
      verdict = { refused: false };
    } else {
      const wait = (1 - bucket.tokens) / this.#perMs;
      verdict = {
        refused: true,
        retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
        firstRefusal: !bucket.refusing,
      };
      bucket.refusing = true;
    }
    this.#buckets.set(client, bucket);
    this.#evict();
    return verdict;
  }

  /** Clients remembered now (for tests and metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  #evict(): void {
    while (this.#buckets.size > this.#options.maxClients) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done === true) return;
      this.#buckets.delete(oldest.value);
    }
  }
}
