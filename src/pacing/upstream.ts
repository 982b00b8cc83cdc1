import type { Clock } from "../time/clock.js";
import { SlidingWindowLimiter } from "./limiter.js";

/** What every client of a public upstream (DataJud, DJEN) is given: its clock and chance, and limits. */
export interface UpstreamOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** The process's clock (`System.clock`): only entry points take the real one. */
  clock: Clock;
  /** The process's random source (`System.random`), for backoff jitter. */
  random: () => number;
  requestsPerMinute?: number;
  /** One HTTP attempt, clipped to what is left of totalTimeoutMs. */
  timeoutMs?: number;
  /** All attempts and waits of one request. */
  totalTimeoutMs?: number;
  maxAttempts?: number;
}

export interface UpstreamDefaults {
  requestsPerMinute: number;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxAttempts: number;
}

/** The options resolved and checked, with the limiter they imply. */
export interface Upstream {
  fetch: typeof fetch;
  clock: Clock;
  random: () => number;
  limiter: SlidingWindowLimiter;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxAttempts: number;
}

export function positive(name: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new RangeError(
      `${name} must be a positive ${integer ? "integer" : "number"}, got ${value}`,
    );
  }
  return value;
}

/**
 * How much later than its grant a request may reach DataJud or DJEN: a second (a busy event loop,
 * a new connection's handshake). The limiter keeps that slack, so the server never counts more
 * than `requestsPerMinute` in any 60 s of its own clock; it costs 1/61 of the rate.
 */
export const ARRIVAL_MARGIN_MS = 1_000;

export function upstream(options: UpstreamOptions, defaults: UpstreamDefaults): Upstream {
  return {
    fetch: options.fetch ?? globalThis.fetch,
    clock: options.clock,
    random: options.random,
    timeoutMs: positive("timeoutMs", options.timeoutMs ?? defaults.timeoutMs, false),
    totalTimeoutMs: positive(
      "totalTimeoutMs",
      options.totalTimeoutMs ?? defaults.totalTimeoutMs,
      false,
    ),
    maxAttempts: positive("maxAttempts", options.maxAttempts ?? defaults.maxAttempts, true),
    limiter: new SlidingWindowLimiter({
      limit: positive(
        "requestsPerMinute",
        options.requestsPerMinute ?? defaults.requestsPerMinute,
        true,
      ),
      windowMs: 60_000,
      marginMs: ARRIVAL_MARGIN_MS,
      clock: options.clock,
    }),
  };
}

/** An http(s) base URL without trailing slashes, and its origin (for messages). */
export function baseUrlOf(service: string, url: string): { baseUrl: string; origin: string } {
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new TypeError(`${service} baseUrl is not a URL: ${text}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new TypeError(`${service} baseUrl must be http(s): ${text}`);
  }
  return { baseUrl: text.replace(/\/+$/, ""), origin: parsed.origin };
}

/** The body as JSON, or undefined when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One line of at most `max` characters, for quoting an upstream's words in a message. */
export function clipText(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

/** What fetch's "fetch failed" hides: the cause's code and message (ECONNREFUSED ...). */
export function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" && !cause.message.includes(code)
      ? `${code} ${cause.message}`
      : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export type FetchOutcome =
  | { ok: true; response: Response; text: string; durationMs: number }
  | { ok: false; failure: "too_large"; maxBytes: number; response: Response }
  | {
      ok: false;
      /** timeout: the attempt's time (or the deadline) ran out; unreachable: no answer; lost: cut off while reading. */
      failure: "timeout" | "unreachable" | "lost";
      /** The attempt's time limit, for the message. */
      timeoutMs: number;
      error: unknown;
    };

/**
 * The body as text, or null as soon as it passes `maxBytes`: what a longer body holds is never
 * kept (a Content-Length above the limit is refused before reading).
 */
async function boundedText(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/**
 * One HTTP attempt with its own time limit (never past `deadlineAt`), aborted with `deadline`
 * (the caller's cancel or the total deadline), the body read whole unless it passes
 * `maxBytes`. Never throws.
 */
export async function fetchOnce(
  client: { fetch: typeof fetch; clock: Clock; timeoutMs: number; maxBytes?: number },
  url: string,
  init: Omit<RequestInit, "signal">,
  deadline: AbortSignal,
  deadlineAt: number,
): Promise<FetchOutcome> {
  const timeoutMs = Math.max(1, Math.min(client.timeoutMs, deadlineAt - client.clock.now()));
  const perAttempt = new AbortController();
  const timer = setTimeout(() => perAttempt.abort(), timeoutMs);
  const signal = AbortSignal.any([perAttempt.signal, deadline]);
  const sentAt = client.clock.now();
  const failed = (error: unknown, reading: boolean): FetchOutcome => ({
    ok: false,
    failure: signal.aborted ? "timeout" : reading ? "lost" : "unreachable",
    timeoutMs,
    error,
  });
  try {
    let response: Response;
    try {
      response = await client.fetch(url, { ...init, signal });
    } catch (error) {
      return failed(error, false);
    }
    try {
      const text =
        client.maxBytes === undefined
          ? await response.text()
          : await boundedText(response, client.maxBytes);
      if (text === null) {
        return { ok: false, failure: "too_large", maxBytes: client.maxBytes ?? 0, response };
      }
      return { ok: true, response, text, durationMs: client.clock.now() - sentAt };
    } catch (error) {
      return failed(error, true);
    }
  } finally {
    clearTimeout(timer);
  }
}
