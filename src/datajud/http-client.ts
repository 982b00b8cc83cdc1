import { fullJitterDelayMs } from "../pacing/backoff.js";
import { BudgetShare, type SharedBudget } from "../pacing/budget-share.js";
import {
  AdaptiveConcurrency,
  type ConcurrencyChange,
  type ConcurrencySlot,
  type CongestionCause,
} from "../pacing/concurrency.js";
import type { SlidingWindowLimiter, WindowUsage } from "../pacing/limiter.js";
import {
  type AttemptContext,
  deadlineMessage,
  type RetryPolicy,
  withRetries,
} from "../pacing/retry.js";
import {
  ARRIVAL_MARGIN_MS,
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
  UNREACHABLE_PREFIX,
} from "./errors.js";
import { asksForFirstPage, readSearchAnswer, type SearchResult } from "./search-response.js";

/**
 * What the client tells as it works, for logs and metrics. Every attempt sends `send`, then
 * either `request` (an HTTP answer arrived, whatever its status) or `unanswered`; `retry` when
 * another attempt follows. Stable: new kinds may be added, these keep their fields.
 */
export type DataJudClientEvent =
  | {
      type: "retry";
      index: string;
      /** The attempt that failed (1-based); the next one starts after `delayMs`. */
      attempt: number;
      delayMs: number;
      error: { kind: DataJudErrorKind; message: string };
    }
  | {
      /** An attempt leaves now, past the concurrency gate and the limiter. */
      type: "send";
      index: string;
      attempt: number;
      /** Requests in flight, this one included. */
      inFlight: number;
    }
  | { type: "request"; index: string; attempt: number; status: number; durationMs: number }
  | {
      /** An attempt ended without an HTTP answer. */
      type: "unanswered";
      index: string;
      attempt: number;
      kind: "timeout" | "network" | "cancelled";
      durationMs: number;
    }
  | {
      /** A request waited this long before it could go: for a place in flight, or for the limiter. */
      type: "wait";
      index: string;
      for: "concurrency" | "limiter";
      waitedMs: number;
    }
  | ({ type: "concurrency" } & ConcurrencyChange);

export interface DataJudRateStatus extends WindowUsage {
  /** Requests allowed in flight at once now (halved on overload, grown back when quiet). */
  concurrency: number;
  /** The configured ceiling (datajud.concurrency). */
  maxConcurrency: number;
  /** Requests in flight now. */
  inFlight: number;
  /** HTTP attempts this client sent since it started. */
  requestsSent: number;
}

/**
 * DataJud requests in flight at once unless configured: what public clients run against DataJud
 * in production (config/default.yaml says why).
 */
export const DEFAULT_DATAJUD_CONCURRENCY = 8;
/** DataJud is one shared public cluster: no process sends more than this at once. */
export const MAX_DATAJUD_CONCURRENCY = 16;

/**
 * requestsPerMinute defaults to 120 (the cap in CNJ's terms of use), concurrency to 8, timeoutMs
 * to 75 s, totalTimeoutMs (one search, all attempts and waits) to 180 s, maxAttempts to 4.
 */
export interface DataJudClientOptions extends UpstreamOptions {
  /** e.g. https://api-publica.datajud.cnj.jus.br (trailing slash tolerated) */
  baseUrl: string;
  /** Sent as `Authorization: APIKey <key>`; never put in error messages or events. */
  apiKey: string;
  /** Most requests in flight at once, 1..16; halved on overload, grown back when quiet. */
  concurrency?: number;
  /**
   * Largest answer read, in bytes; a longer body is refused as it streams in (kind `too_large`),
   * never buffered whole. @default 8 MiB
   */
  maxResponseBytes?: number;
  /**
   * Percent of requestsPerMinute the guest searcher (the daemon's MCP tools) may use while a
   * counted caller (a sweep) is active; beyond it a guest search fails at once. @default 25
   */
  mcpSharePercent?: number;
  /**
   * The budget shared with the other processes on the monitor's database: each search takes a
   * grant there before it starts (a sweep's waits, a tool's is refused at once). Absent: this
   * process's limiter alone.
   */
  shared?: SharedBudget;
  onEvent?: (event: DataJudClientEvent) => void;
}

/** The MCP tools' share of the budget while a sweep runs, in percent. */
export const DEFAULT_MCP_SHARE_PERCENT = 25;

/** Far above a batch of 100 real records (a 600-movement record is about 300 KB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 2 ** 20;

/** A 429 answers in about 0.1 s: DataJud is counting, not drowning, so a short pause will do. */
const RATE_LIMITED_BACKOFF = { baseMs: 250, capMs: 4_000 };

/** The window the concurrency grows back in: the rate cap's own minute. */
const GROWTH_WINDOW_MS = 60_000;

type AttemptResult =
  | { ok: true; value: SearchResult }
  | { ok: false; error: DataJudError; retryAfterMs?: number };

interface Search {
  index: string;
  url: string;
  payload: string;
  /** The query asks for the first page of hits, so a positive total must come with some. */
  expectsHits: boolean;
  caller: AbortSignal | undefined;
  slot: ConcurrencySlot;
  /** Told each HTTP attempt sent for this search (a caller's own count). */
  onSend: (() => void) | undefined;
}

/** The client as one caller uses it: the same limiter and gate, its own count of requests sent. */
export interface CountedSearcher {
  search: DataJudHttpClient["search"];
  /** HTTP attempts sent for this caller's searches (retries included). */
  readonly requestCount: number;
}

/** The overload an error shows, if any: what halves the concurrency. */
function congestionOf(error: DataJudError): CongestionCause | null {
  if (error.kind === "rate_limited") return "rate_limited";
  if (error.kind === "timeout") return "timeout";
  if (error.kind === "rejected") return "rejected";
  if (error.kind === "server" && error.status === 504) return "gateway_timeout";
  return null;
}

/**
 * DataJud's `_search` over HTTP: a place among the requests in flight (adaptive concurrency),
 * then the sliding-window limiter in front of every attempt, full-jitter retries of everything
 * that may succeed next time, a per-attempt timeout inside a total deadline, and an answer only
 * when it is complete (partial shards are retried, never returned). One client per process: the
 * sweep and the MCP tools it serves share its limiter and its concurrency.
 */
export class DataJudHttpClient {
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #limiter: SlidingWindowLimiter;
  readonly #gate: AdaptiveConcurrency;
  readonly #timeoutMs: number;
  readonly #totalTimeoutMs: number;
  readonly #maxAttempts: number;
  readonly #maxResponseBytes: number;
  readonly #onEvent: ((event: DataJudClientEvent) => void) | undefined;
  readonly #share: BudgetShare;
  readonly #shared: SharedBudget | undefined;
  #requestCount = 0;

  constructor(options: DataJudClientOptions) {
    const { baseUrl, origin } = baseUrlOf("DataJud", options.baseUrl);
    this.#baseUrl = baseUrl;
    this.#origin = origin;
    this.#apiKey = options.apiKey;
    const resolved = upstream(options, {
      requestsPerMinute: 120,
      timeoutMs: 75_000,
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
    this.#shared = options.shared;
    this.#share = new BudgetShare({
      limit: this.#limiter.usage().limit,
      windowMs: 60_000 + ARRIVAL_MARGIN_MS,
      percent: options.mcpSharePercent ?? DEFAULT_MCP_SHARE_PERCENT,
      clock: this.#clock,
    });
    const concurrency = positive(
      "concurrency",
      options.concurrency ?? DEFAULT_DATAJUD_CONCURRENCY,
      true,
    );
    if (concurrency > MAX_DATAJUD_CONCURRENCY) {
      throw new RangeError(
        `concurrency must be at most ${MAX_DATAJUD_CONCURRENCY} (DataJud is one shared public cluster), got ${concurrency}`,
      );
    }
    this.#gate = new AdaptiveConcurrency({
      max: concurrency,
      windowMs: GROWTH_WINDOW_MS,
      clock: this.#clock,
      onChange: (change) => this.#emit({ type: "concurrency", ...change }),
    });
  }

  /** HTTP attempts actually sent (for reports/bench). */
  get requestCount(): number {
    return this.#requestCount;
  }

  /**
   * This client for one caller (a sweep, beside the MCP tools a daemon serves): its searches share
   * the limiter and the gate, and only its own are counted in its `requestCount`.
   */
  counted(): CountedSearcher {
    let sent = 0;
    return {
      search: async (alias, body, options = {}) => {
        await this.#sharedTurn("sweep", alias, options.signal);
        // The sweep comes first: while it searches, the guest searcher's share is bounded.
        const ended = this.#share.hostBegins();
        try {
          return await this.search(alias, body, {
            ...options,
            onSend: () => {
              sent += 1;
            },
          });
        } finally {
          ended();
        }
      },
      get requestCount() {
        return sent;
      },
    };
  }

  /**
   * This client for the daemon's MCP tools: the whole budget while no sweep is active, and at
   * most mcpSharePercent of it while one is. A search over that share fails at once (kind
   * `rate_limited`, with the seconds to wait) rather than queueing ahead of the sweep's requests.
   */
  guest(): CountedSearcher {
    let sent = 0;
    return {
      search: async (alias, body, options = {}) => {
        const waitMs = this.#share.guestTake();
        if (waitMs > 0) {
          const seconds = Math.ceil(waitMs / 1000);
          throw new DataJudError(
            "rate_limited",
            `DataJud budget reserved for the sweep: retry in ${seconds} s (the MCP tools may use ${this.#share.guestLimit} of ${this.#limiter.usage().limit} requests a minute while a sweep runs; datajud.mcpSharePercent)`,
            { retryAfterSeconds: seconds, attempts: 0 },
          );
        }
        await this.#sharedTurn("tool", alias, options.signal);
        return this.search(alias, body, {
          ...options,
          onSend: () => {
            sent += 1;
          },
        });
      },
      get requestCount() {
        return sent;
      },
    };
  }

  /**
   * Waits until the budget shared with the other processes on the database has room for one more
   * search (at once when there is nothing to share), as this process's limiter would queue it; a
   * tool past its share while a sweep runs is refused at once instead, told when to come back.
   */
  async #sharedTurn(
    who: "sweep" | "tool",
    alias: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const shared = this.#shared;
    if (shared === undefined) return;
    const index = `api_publica_${alias.trim().toLowerCase()}`;
    for (let turn = shared.take(who); turn.waitMs > 0; turn = shared.take(who)) {
      if ("cause" in turn && turn.cause === "share") {
        const seconds = Math.ceil(turn.waitMs / 1000);
        throw new DataJudError(
          "rate_limited",
          `DataJud budget reserved for the sweep: retry in ${seconds} s (a sweep runs in another process on the monitor's database; the MCP tools may use ${shared.toolLimit} of ${this.#limiter.usage().limit} requests a minute while one runs; datajud.mcpSharePercent)`,
          { retryAfterSeconds: seconds, attempts: 0 },
        );
      }
      try {
        await this.#clock.sleep(turn.waitMs, signal);
      } catch {
        throw this.#cancelled(index, 0);
      }
      this.#emit({ type: "wait", index, for: "limiter", waitedMs: turn.waitMs });
    }
  }

  /** The limiter's window now, and how many requests this client sends at once. */
  rateStatus(): DataJudRateStatus {
    const gate = this.#gate.usage();
    return {
      ...this.#limiter.usage(),
      concurrency: gate.limit,
      maxConcurrency: gate.max,
      inFlight: gate.inFlight,
      requestsSent: this.#requestCount,
    };
  }

  /**
   * POST {baseUrl}/api_publica_<alias>/_search with the body as JSON. The total deadline starts
   * once the request has its place in flight: a request queued behind others is not failed for
   * their slowness (the caller's signal still ends the wait).
   */
  async search(
    alias: string,
    body: Record<string, unknown>,
    options: { signal?: AbortSignal; onSend?: () => void } = {},
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

    const queuedAt = this.#clock.now();
    let slot: ConcurrencySlot;
    try {
      slot = await this.#gate.acquire(caller);
    } catch {
      throw this.#cancelled(index, 0);
    }
    const waitedMs = this.#clock.now() - queuedAt;
    if (waitedMs > 0) this.#emit({ type: "wait", index, for: "concurrency", waitedMs });
    const search: Search = {
      index,
      url: `${this.#baseUrl}/${index}/_search`,
      payload,
      expectsHits: asksForFirstPage(body),
      caller,
      slot,
      onSend: options.onSend,
    };
    try {
      const { value } = await withRetries(
        this.#policy(index),
        (context) => this.#attempt(search, context),
        caller,
      );
      return value;
    } finally {
      slot.release();
    }
  }

  #policy(index: string): RetryPolicy<DataJudError> {
    return {
      limiter: this.#limiter,
      clock: this.#clock,
      random: this.#random,
      maxAttempts: this.#maxAttempts,
      totalTimeoutMs: this.#totalTimeoutMs,
      retryNow: (error) => error.retryable,
      delayFor: (error, attempt) =>
        error.kind === "rate_limited"
          ? fullJitterDelayMs(attempt, this.#random, RATE_LIMITED_BACKOFF)
          : undefined,
      final: (error, attempts) => error.withAttempts(attempts),
      deadline: (attempts, last, nextDelayMs) => this.#deadline(index, attempts, last, nextDelayMs),
      cancelled: (attempts) => this.#cancelled(index, attempts),
      onRetry: (attempt, delayMs, error) =>
        this.#emit({
          type: "retry",
          index,
          attempt,
          delayMs,
          error: { kind: error.kind, message: error.message },
        }),
      onLimiterWait: (_attempt, waitedMs) =>
        this.#emit({ type: "wait", index, for: "limiter", waitedMs }),
    };
  }

  async #attempt(search: Search, context: AttemptContext): Promise<AttemptResult> {
    const { index } = search;
    const { attempt } = context;
    this.#requestCount++;
    search.onSend?.();
    this.#emit({ type: "send", index, attempt, inFlight: this.#gate.usage().inFlight });
    const sentAt = this.#clock.now();
    // The context's signal carries the caller's cancellation and the total deadline.
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
      context.signal,
      context.deadlineAt,
    );
    if (!sent.ok && sent.failure === "too_large") {
      this.#emit({
        type: "request",
        index,
        attempt,
        status: sent.response.status,
        durationMs: this.#clock.now() - sentAt,
      });
      const mib = Math.round((sent.maxBytes / 2 ** 20) * 10) / 10;
      const message = `DataJud's answer for ${index} is larger than ${mib} MiB (datajud.maxResponseMb); it was not read`;
      return {
        ok: false,
        error: this.#error("too_large", message, { index, status: sent.response.status }),
      };
    }
    if (!sent.ok) {
      const kind = search.caller?.aborted
        ? "cancelled"
        : sent.failure === "timeout"
          ? "timeout"
          : "network";
      this.#emit({
        type: "unanswered",
        index,
        attempt,
        kind,
        durationMs: this.#clock.now() - sentAt,
      });
      if (kind === "cancelled") return { ok: false, error: this.#cancelled(index, attempt) };
      if (kind === "timeout") {
        const message = `DataJud did not answer ${index} within ${sent.timeoutMs} ms`;
        return this.#failed(search, this.#error("timeout", message, { index }));
      }
      const what =
        sent.failure === "lost"
          ? "lost the connection to DataJud while reading"
          : UNREACHABLE_PREFIX;
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
    if (read.ok) return { ok: true, value: read.result };
    return this.#failed(
      search,
      this.#error(read.kind, read.message, read.options),
      read.retryAfterMs,
    );
  }

  /** A failed attempt; one that shows overload halves the concurrency. */
  #failed(search: Search, error: DataJudError, retryAfterMs?: number): AttemptResult {
    const congestion = congestionOf(error);
    if (congestion !== null) search.slot.congested(congestion);
    return retryAfterMs === undefined ? { ok: false, error } : { ok: false, error, retryAfterMs };
  }

  #deadline(
    index: string,
    attempts: number,
    last: DataJudError | undefined,
    nextDelayMs?: number,
  ): DataJudError {
    return this.#error(
      "deadline",
      deadlineMessage("DataJud", index, this.#totalTimeoutMs, attempts, last, nextDelayMs),
      {
        retryable: true,
        index,
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
