export interface BackoffOptions {
  /** @default 1000 */
  baseMs?: number;
  /** @default 20000 */
  capMs?: number;
}

/**
 * `baseMs` doubled `doublings` times, never more than `capMs`: the one exponential backoff of the
 * house (the retries of one request, the outbox's retries of a message, DJEN's retries between
 * sweeps), each with its own base and cap.
 */
export function cappedDoublingMs(baseMs: number, doublings: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, doublings));
}

/** An upstream (DataJud, DJEN) asking for a longer pause than this is treated as this: past it the sweep moves on. */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * "Full jitter": a uniformly random wait in [0, min(cap, base * 2^attempt)). DataJud and DJEN
 * are shared public services; spreading retries over the whole interval keeps many clients that
 * failed together from coming back together.
 */
export function fullJitterDelayMs(
  attempt: number,
  random: () => number,
  options: BackoffOptions = {},
): number {
  const baseMs = options.baseMs ?? 1000;
  const capMs = options.capMs ?? 20_000;
  const ceiling = cappedDoublingMs(baseMs, Math.floor(attempt), capMs);
  if (!(ceiling > 0)) return 0;
  const r = random();
  // A random source returning exactly 1 (or garbage) must not push the wait past the ceiling.
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * ceiling);
}

/**
 * `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP-date, capped to
 * MAX_RETRY_AFTER_MS. Undefined when absent or unreadable, so the caller falls back to backoff.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) {
    return Math.min(MAX_RETRY_AFTER_MS, Math.round(Number(value) * 1000));
  }
  // Only an HTTP-date has letters in it; Date.parse would also read bare numbers like "-5".
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs));
}
