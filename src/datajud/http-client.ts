import { followAbort } from "../abort.js";
import { fullJitterDelayMs } from "../pacing/backoff.js";
import type { SlidingWindowLimiter, WindowUsage } from "../pacing/limiter.js";
import {
  baseUrlOf,
  fetchOnce,
  networkDetail,
  positive,
  type UpstreamOptions,
  upstream,
} from "../pacing/upstream.js";
import type { Clock } from "../time/clock.js";
import {
  DataJudError,
  type DataJudErrorKind,
  type DataJudErrorOptions,
  invalidInput,
} from "./errors.js";
import { asksForFirstPage, readSearchAnswer, type SearchResult } from "./search-response.js";

export type DataJudClientEvent =
  | {
      type: "retry";
      index: string;
      /** The attempt that failed (1-based); the next one starts after `delayMs`. */
      attempt: number;
      delayMs: number;
      error: { kind: DataJudErrorKind; message: string };
    }
  | { type: "request"; index: string; attempt: number; status: number; durationMs: number };

export interface DataJudRateStatus extends WindowUsage {
  /** Requests in flight at most at once; always 1 (one request at a time) for now. */
  concurrency: number;
  /** HTTP attempts this client sent since it started. */
  requestsSent: number;
}

/**
 * requestsPerMinute defaults to 120 (the cap in CNJ's terms of use), timeoutMs to 90 s,
 * totalTimeoutMs (one search, all attempts and waits) to 180 s, maxAttempts to 4.
 */
export interface DataJudClientOptions extends UpstreamOptions {
  /** e.g. https://api-publica.datajud.cnj.jus.br (trailing slash tolerated) */
  baseUrl: string;
  /** Sent as `Authorization: APIKey <key>`; never put in error messages or events. */
  apiKey: string;
  /**
   * Largest answer read, in bytes; a longer body is refused as it streams in (kind `too_large`),
   * never buffered whole. @default 8 MiB
   */
  maxResponseBytes?: number;
  onEvent?: (event: DataJudClientEvent) => void;
}

/** Far above a batch of 100 real records (a 600-movement record is about 300 KB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 2 ** 20;

/** Why the total deadline's abort fired. */
const DEADLINE = Symbol("deadline");

type AttemptResult =
  | { ok: true; result: SearchResult }
  | { ok: false; error: DataJudError; retryAfterMs?: number };

interface Search {
  index: string;
  url: string;
  payload: string;
  /** The query asks for the first page of hits, so a positive total must come with some. */
  expectsHits: boolean;
  caller: AbortSignal | undefined;
  deadline: AbortSignal;
  deadlineAt: number;
}

/**
 * DataJud's `_search` over HTTP: a sliding-window limiter in front of every attempt, full-jitter
 * retries of everything that may succeed next time, a per-attempt timeout inside a total
 * deadline, and an answer only when it is complete (partial shards are retried, never returned).
 */
export class DataJudHttpClient {
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #limiter: SlidingWindowLimiter;
  readonly #timeoutMs: number;
  readonly #totalTimeoutMs: number;
  readonly #maxAttempts: number;
  readonly #maxResponseBytes: number;
  readonly #onEvent: ((event: DataJudClientEvent) => void) | undefined;
  #requestCount = 0;

  constructor(options: DataJudClientOptions) {
    const { baseUrl, origin } = baseUrlOf("DataJud", options.baseUrl);
    this.#baseUrl = baseUrl;
    this.#origin = origin;
    this.#apiKey = options.apiKey;
    const resolved = upstream(options, {
      requestsPerMinute: 120,
      timeoutMs: 90_000,
      totalTimeoutMs: 180_000,
      maxAttempts: 4,
    });
    this.#fetch = resolved.fetch;
    this.#clock = resolved.clock;
    this.#random = resolved.random;
    this.#timeoutMs = resolved.timeoutMs;
    this.#totalTimeoutMs = resolved.totalTimeoutMs;
    this.#maxAttempts = resolved.maxAttempts;
    this.#maxResponseBytes = positive(
      "maxResponseBytes",
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      true,
    );
    this.#limiter = resolved.limiter;
    this.#onEvent = options.onEvent;
  }

  /** HTTP attempts actually sent (for reports/bench). */
  get requestCount(): number {
    return this.#requestCount;
  }

  /** The limiter's window now, and how many requests this client sends at once. */
  rateStatus(): DataJudRateStatus {
    return { ...this.#limiter.usage(), concurrency: 1, requestsSent: this.#requestCount };
  }

  /** POST {baseUrl}/api_publica_<alias>/_search with the body as JSON. */
  async search(
    alias: string,
    body: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<SearchResult> {
    const name = alias.trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
      throw invalidInput(`"${alias}" is not a DataJud court alias (letters, digits, _ and - only)`);
    }
    const index = `api_publica_${name}`;
    let payload: string;
    try {
      payload = JSON.stringify(body);
    } catch (error) {
      throw invalidInput(`the DataJud query for ${index} cannot be sent as JSON: ${String(error)}`);
    }
    const caller = options.signal;
    if (caller?.aborted) throw this.#cancelled(index, 0);

    const deadlineAt = this.#clock.now() + this.#totalTimeoutMs;
    const deadline = new AbortController();
    // A real timer, so a hung limiter wait or fetch is cut off even if the clock is frozen.
    const timer = setTimeout(() => deadline.abort(DEADLINE), this.#totalTimeoutMs);
    const search: Search = {
      index,
      url: `${this.#baseUrl}/${index}/_search`,
      payload,
      expectsHits: asksForFirstPage(body),
      caller,
      deadline: deadline.signal,
      deadlineAt,
    };
    // The caller's cancellation reaches every wait through the deadline's signal.
    const unfollow = followAbort(caller, deadline);
    const wait = deadline.signal;
    let last: DataJudError | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        if (this.#expired(search)) throw this.#deadline(search, attempt - 1, last);
        try {
          await this.#limiter.acquire(wait);
        } catch (error) {
          throw this.#interrupted(error, search, attempt - 1, last);
        }
        if (this.#expired(search)) throw this.#deadline(search, attempt - 1, last);

        const tried = await this.#attempt(search, attempt);
        if (tried.ok) return tried.result;
        last = tried.error;
        if (!last.retryable) throw last.withAttempts(attempt);
        if (this.#expired(search)) throw this.#deadline(search, attempt, last);
        if (attempt >= this.#maxAttempts) throw last.withAttempts(attempt);

        const delayMs = tried.retryAfterMs ?? fullJitterDelayMs(attempt, this.#random);
        if (delayMs >= deadlineAt - this.#clock.now()) {
          // Waiting would end past the deadline: give up now rather than sleep towards a failure.
          throw this.#deadline(search, attempt, last, delayMs);
        }
        this.#emit({
          type: "retry",
          index,
          attempt,
          delayMs,
          error: { kind: last.kind, message: last.message },
        });
        try {
          await this.#clock.sleep(delayMs, wait);
        } catch (error) {
          throw this.#interrupted(error, search, attempt, last);
        }
      }
    } finally {
      clearTimeout(timer);
      unfollow();
    }
  }

  async #attempt(search: Search, attempt: number): Promise<AttemptResult> {
    const { index } = search;
    this.#requestCount++;
    // The deadline signal also carries the caller's cancellation (see search()).
    const sent = await fetchOnce(
      {
        fetch: this.#fetch,
        clock: this.#clock,
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxResponseBytes,
      },
      search.url,
      {
        method: "POST",
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          Authorization: `APIKey ${this.#apiKey}`,
        },
        body: search.payload,
      },
      search.deadline,
      search.deadlineAt,
    );
    if (!sent.ok && sent.failure === "too_large") {
      const mib = Math.round((sent.maxBytes / 2 ** 20) * 10) / 10;
      const message = `DataJud's answer for ${index} is larger than ${mib} MiB (datajud.maxResponseMb); it was not read`;
      return {
        ok: false,
        error: this.#error("too_large", message, { index, status: sent.response.status }),
      };
    }
    if (!sent.ok) {
      if (search.caller?.aborted) return { ok: false, error: this.#cancelled(index, attempt) };
      if (sent.failure === "timeout") {
        const message = `DataJud did not answer ${index} within ${sent.timeoutMs} ms`;
        return { ok: false, error: this.#error("timeout", message, { index }) };
      }
      const what =
        sent.failure === "lost"
          ? "lost the connection to DataJud while reading"
          : "could not reach DataJud";
      const message = `${what} (${this.#origin}) for ${index}: ${networkDetail(sent.error)}`;
      return { ok: false, error: this.#error("network", message, { index, cause: sent.error }) };
    }
    this.#emit({
      type: "request",
      index,
      attempt,
      status: sent.response.status,
      durationMs: sent.durationMs,
    });
    return this.#interpret(search, sent.response, sent.text, attempt);
  }

  #interpret(search: Search, response: Response, text: string, attempt: number): AttemptResult {
    const read = readSearchAnswer({
      index: search.index,
      url: search.url,
      expectsHits: search.expectsHits,
      attempt,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      text,
      now: this.#clock.now(),
    });
    if (read.ok) return read;
    const error = this.#error(read.kind, read.message, read.options);
    return read.retryAfterMs === undefined
      ? { ok: false, error }
      : { ok: false, error, retryAfterMs: read.retryAfterMs };
  }

  #expired(search: Search): boolean {
    return search.deadline.aborted || this.#clock.now() >= search.deadlineAt;
  }

  /** A limiter or backoff wait that ended by abort: the caller's, or the deadline's. */
  #interrupted(
    error: unknown,
    search: Search,
    attempts: number,
    last: DataJudError | undefined,
  ): DataJudError {
    if (search.caller?.aborted) return this.#cancelled(search.index, attempts);
    if (search.deadline.aborted) return this.#deadline(search, attempts, last);
    if (error instanceof DataJudError) return error;
    return this.#error(
      "network",
      `waiting to send a request to ${search.index} failed: ${String(error)}`,
      {
        index: search.index,
        attempts,
        cause: error,
      },
    );
  }

  #deadline(
    search: Search,
    attempts: number,
    last: DataJudError | undefined,
    nextDelayMs?: number,
  ): DataJudError {
    const seconds = Math.round(this.#totalTimeoutMs / 100) / 10;
    const tried = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    const wait =
      nextDelayMs === undefined
        ? ""
        : `; the next try would start ${Math.ceil(nextDelayMs / 1000)} s from now, past the deadline`;
    const because = last ? `; last error: ${last.message}` : "";
    return this.#error(
      "deadline",
      `DataJud gave no complete answer for ${search.index} within ${seconds} s (${tried})${wait}${because}`,
      {
        retryable: true,
        index: search.index,
        attempts,
        ...(last?.status === undefined ? {} : { status: last.status }),
        ...(last?.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: last.retryAfterSeconds }),
        ...(last === undefined ? {} : { cause: last }),
      },
    );
  }

  #cancelled(index: string, attempts: number): DataJudError {
    return this.#error("cancelled", `the DataJud request to ${index} was cancelled`, {
      retryable: false,
      index,
      attempts,
    });
  }

  /** Every error goes through here so the key cannot leak, even if DataJud echoes it back. */
  #error(kind: DataJudErrorKind, message: string, options: DataJudErrorOptions): DataJudError {
    const key = this.#apiKey;
    const safe = key.length >= 4 ? message.replaceAll(key, "[redacted]") : message;
    return new DataJudError(kind, safe, options);
  }

  #emit(event: DataJudClientEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(event);
    } catch {
      // A logging hook must never change the outcome of a search.
    }
  }
}
