import type { Clock } from "../time/clock.js";
import { type BackoffOptions, fullJitterDelayMs } from "./backoff.js";
import type { SlidingWindowLimiter } from "./limiter.js";

/** One try's result: a value, or an error with DJEN's or DataJud's requested pause. */
export type Attempt<T, E> = { ok: true; value: T } | { ok: false; error: E; retryAfterMs?: number };

export interface RetryPolicy<E> {
  limiter: SlidingWindowLimiter;
  clock: Clock;
  random: () => number;
  maxAttempts: number;
  /** Across all attempts and waits. */
  totalTimeoutMs: number;
  backoff?: BackoffOptions;
  /** Whether sending the same request again now may help. */
  retryNow(error: E): boolean;
  /**
   * The pause before the next try when this error calls for another than the backoff's (a fast
   * 429 needs only a short one); undefined: the backoff's. A server's Retry-After comes first.
   */
  delayFor?(error: E, attempt: number): number | undefined;
  /** The error that ends the loop, told how many attempts were made. */
  final(error: E, attempts: number): E;
  /** The error when the total deadline passes (`nextDelayMs`: the wait that would have crossed it). */
  deadline(attempts: number, last: E | undefined, nextDelayMs?: number): E;
  cancelled(attempts: number): E;
  onRetry?(attempt: number, delayMs: number, error: E): void;
  /**
   * Attempt `attempt` is about to wait for the limiter, about `expectedMs` (only when > 0): told
   * before the wait, so a progress display can say why nothing moves.
   */
  onLimiterQueue?(attempt: number, expectedMs: number): void;
  /** The limiter held attempt `attempt` back this long before it could be sent (only when > 0). */
  onLimiterWait?(attempt: number, waitedMs: number): void;
}

/**
 * What a request that ran out of time says, for DataJud and DJEN alike: how long it had, how many
 * attempts it made, the wait that would have crossed the deadline, and the last error.
 */
export function deadlineMessage(
  service: string,
  what: string,
  totalTimeoutMs: number,
  attempts: number,
  last: { message: string } | undefined,
  nextDelayMs?: number,
): string {
  const seconds = Math.round(totalTimeoutMs / 100) / 10;
  const tried = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  const wait =
    nextDelayMs === undefined
      ? ""
      : `; the next try would start ${Math.ceil(nextDelayMs / 1000)} s from now, past the deadline`;
  const because = last ? `; last error: ${last.message}` : "";
  return `${service} gave no complete answer for ${what} within ${seconds} s (${tried})${wait}${because}`;
}

export interface AttemptContext {
  /** 1-based. */
  attempt: number;
  /** Aborts on the caller's cancel and at the total deadline. */
  signal: AbortSignal;
  /** Clock time by which everything must be done. */
  deadlineAt: number;
}

/**
 * Runs `attempt` until it succeeds, behind the limiter, with full-jitter backoff (or the server's
 * Retry-After) between tries, inside a total deadline, stopping at once on errors that retrying
 * cannot fix. Throws the policy's error, never anything else. The one send-wait-retry loop of
 * the DataJud and DJEN clients.
 */
export async function withRetries<T, E>(
  policy: RetryPolicy<E>,
  attempt: (context: AttemptContext) => Promise<Attempt<T, E>>,
  caller?: AbortSignal,
): Promise<{ value: T; attempts: number }> {
  if (caller?.aborted) throw policy.cancelled(0);
  const deadlineAt = policy.clock.now() + policy.totalTimeoutMs;
  const deadline = new AbortController();
  // A real timer, so a hung limiter wait or fetch is cut off even if the clock is frozen.
  const timer = setTimeout(() => deadline.abort(), policy.totalTimeoutMs);
  const onCallerAbort = (): void => deadline.abort(caller?.reason);
  caller?.addEventListener("abort", onCallerAbort, { once: true });
  const expired = (): boolean => deadline.signal.aborted || policy.clock.now() >= deadlineAt;
  const stopped = (attempts: number, last: E | undefined): E =>
    caller?.aborted ? policy.cancelled(attempts) : policy.deadline(attempts, last);
  let last: E | undefined;
  try {
    for (let n = 1; ; n++) {
      if (expired()) throw stopped(n - 1, last);
      const queuedAt = policy.clock.now();
      const expectedMs = policy.limiter.expectedWaitMs();
      if (expectedMs > 0) policy.onLimiterQueue?.(n, expectedMs);
      try {
        await policy.limiter.acquire(deadline.signal);
      } catch {
        throw stopped(n - 1, last);
      }
      const waitedMs = policy.clock.now() - queuedAt;
      if (waitedMs > 0) policy.onLimiterWait?.(n, waitedMs);
      if (expired()) throw stopped(n - 1, last);

      const outcome = await attempt({ attempt: n, signal: deadline.signal, deadlineAt });
      if (outcome.ok) return { value: outcome.value, attempts: n };
      last = outcome.error;
      if (caller?.aborted) throw policy.cancelled(n);
      if (!policy.retryNow(last)) throw policy.final(last, n);
      if (expired()) throw policy.deadline(n, last);
      if (n >= policy.maxAttempts) throw policy.final(last, n);

      const delayMs =
        outcome.retryAfterMs ??
        policy.delayFor?.(last, n) ??
        fullJitterDelayMs(n, policy.random, policy.backoff);
      if (delayMs >= deadlineAt - policy.clock.now()) throw policy.deadline(n, last, delayMs);
      policy.onRetry?.(n, delayMs, last);
      try {
        await policy.clock.sleep(delayMs, deadline.signal);
      } catch {
        throw stopped(n, last);
      }
    }
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", onCallerAbort);
  }
}
