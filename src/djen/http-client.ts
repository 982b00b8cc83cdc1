import { parseRetryAfter } from "../pacing/backoff.js";
import {
  type Attempt,
  type AttemptContext,
  deadlineMessage,
  withRetries,
} from "../pacing/retry.js";
import {
  baseUrlOf,
  clipText as clip,
  fetchOnce,
  networkDetail,
  parseJsonBody as parseJson,
  positive,
  type Upstream,
  type UpstreamOptions,
  upstream,
} from "../pacing/upstream.js";
import { isoNow } from "../time/clock.js";
import {
  DJEN_UNREACHABLE_PREFIX,
  DjenError,
  type DjenErrorKind,
  type DjenErrorOptions,
  GEO_BLOCKED_MESSAGE,
} from "./errors.js";
import { type Publication, toPublication } from "./publication.js";
import { type DjenQuery, describeQuery, mismatch, queryParams } from "./query.js";
import { RawAnswer, RawErrorBody, RawItem } from "./raw-schemas.js";

export const DEFAULT_DJEN_BASE_URL = "https://comunicaapi.pje.jus.br";

/**
 * Largest answer read, in bytes (djen.maxResponseMb). A page is 50 items; a long acórdão's HTML
 * is a few hundred KB, so 8 MiB is far above a real page, and an endless or runaway answer stops
 * there instead of growing the process until the request's timeout.
 */
export const DEFAULT_DJEN_MAX_RESPONSE_BYTES = 8 * 2 ** 20;

/** `count` never goes past this: a query that reaches it has an unknown real total. */
export const DJEN_COUNT_CAP = 10_000;

export type DjenClientEvent =
  | {
      type: "retry";
      /** The attempt that failed (1-based); the next one starts after `delayMs`. */
      attempt: number;
      delayMs: number;
      error: { kind: DjenErrorKind; message: string };
    }
  | {
      /**
       * An attempt waits for our own rate limit (djen.requestsPerMinute) before it can leave,
       * about `waitMs`: told before the wait.
       */
      type: "throttled";
      attempt: number;
      waitMs: number;
      /** Requests a minute allowed. */
      limit: number;
    }
  | { type: "request"; attempt: number; status: number; durationMs: number }
  | {
      /** An attempt ended without an HTTP answer. */
      type: "unanswered";
      attempt: number;
      kind: "timeout" | "network";
      durationMs: number;
    };

/**
 * requestsPerMinute defaults to 20 (DJEN answers bursts with 429 or 500), timeoutMs to 30 s,
 * totalTimeoutMs (one page, all attempts and waits) to 120 s, maxAttempts to 4.
 */
export interface DjenClientOptions extends UpstreamOptions {
  /** @default https://comunicaapi.pje.jus.br (trailing slash tolerated) */
  baseUrl?: string;
  /** `itensPorPagina`; larger pages have been seen coming back empty. @default 50 */
  pageSize?: number;
  /**
   * Largest answer read, in bytes; a longer body is refused as it streams in (kind `too_large`,
   * not retried). @default DEFAULT_DJEN_MAX_RESPONSE_BYTES
   */
  maxResponseBytes?: number;
  onEvent?: (event: DjenClientEvent) => void;
}

/** One page of one query, every item checked against the query. */
export interface DjenPage {
  url: string;
  /** ISO time the answer arrived, from the clock. */
  fetchedAt: string;
  page: number;
  pageSize: number;
  /** DJEN's total for the query (at most DJEN_COUNT_CAP). */
  count: number;
  publications: Publication[];
  attempts: number;
}

/** What an error body says, for the message; DJEN's words are quoted, never trusted. */
function bodyDetail(json: unknown, text: string): string {
  const parsed = RawErrorBody.safeParse(json);
  const said = parsed.success
    ? (parsed.data.message ?? parsed.data.mensagem ?? parsed.data.error)
    : json === undefined
      ? text
      : null;
  return said ? `: ${JSON.stringify(clip(said, 200))}` : "";
}

const FAILED_STATUS = /^(error|erro|fail|failed|failure|falha)$/iu;

/**
 * DJEN's public Comunica API, `GET {baseUrl}/api/v1/comunicacao`, one page at a time: a
 * sliding-window limiter in front of every attempt, retries of what may work next time (429, 5xx,
 * timeouts, network, an empty page before `count` is reached), and a page only when every item
 * in it answers the query. An item that does not (DJEN ignored a filter) spoils the whole page.
 */
export class DjenClient {
  readonly baseUrl: string;
  readonly pageSize: number;
  readonly #up: Upstream;
  readonly #maxResponseBytes: number;
  readonly #onEvent: ((event: DjenClientEvent) => void) | undefined;
  #requestCount = 0;

  constructor(options: DjenClientOptions) {
    this.baseUrl = baseUrlOf("DJEN", options.baseUrl ?? DEFAULT_DJEN_BASE_URL).baseUrl;
    this.#up = upstream(options, {
      requestsPerMinute: 20,
      timeoutMs: 30_000,
      totalTimeoutMs: 120_000,
      maxAttempts: 4,
    });
    this.pageSize = positive("pageSize", options.pageSize ?? 50, true);
    this.#maxResponseBytes = positive(
      "maxResponseBytes",
      options.maxResponseBytes ?? DEFAULT_DJEN_MAX_RESPONSE_BYTES,
      true,
    );
    this.#onEvent = options.onEvent;
  }

  /** Requests a minute our limiter allows (djen.requestsPerMinute). */
  get requestsPerMinute(): number {
    return this.#up.limiter.usage().limit;
  }

  /**
   * How long the last of `requests` requests asked now would wait for our rate limit, behind those
   * already queued (an MCP tool tells its caller rather than leave it waiting in silence).
   */
  expectedWaitMs(requests = 1): number {
    return this.#up.limiter.expectedWaitMsFor(requests);
  }

  /** HTTP attempts actually sent. */
  get requestCount(): number {
    return this.#requestCount;
  }

  /**
   * Page `page` (from 1) of `query`. `readSoFar`: distinct items already read from earlier pages,
   * so an empty page while fewer than `count` were read is known to be DJEN losing data, retried.
   */
  async page(
    query: DjenQuery,
    page: number,
    options: { readSoFar?: number; signal?: AbortSignal } = {},
  ): Promise<DjenPage> {
    if (!Number.isInteger(page) || page < 1)
      throw new RangeError(`page must be 1 or more, got ${page}`);
    const url = `${this.baseUrl}/api/v1/comunicacao?${queryParams(query, page, this.pageSize)}`;
    const readSoFar = options.readSoFar ?? (page - 1) * this.pageSize;
    const described = describeQuery(query);
    const { value, attempts } = await withRetries<Omit<DjenPage, "attempts">, DjenError>(
      {
        limiter: this.#up.limiter,
        clock: this.#up.clock,
        random: this.#up.random,
        maxAttempts: this.#up.maxAttempts,
        totalTimeoutMs: this.#up.totalTimeoutMs,
        retryNow: (error) => error.retryNow,
        final: (error, n) => error.withAttempts(n),
        deadline: (n, last, nextDelayMs) => this.#deadline(described, n, last, nextDelayMs),
        cancelled: (n) =>
          new DjenError("cancelled", `the DJEN request for ${described} was cancelled`, {
            retryable: false,
            attempts: n,
          }),
        onLimiterQueue: (attempt, waitMs) => {
          const { limit } = this.#up.limiter.usage();
          this.#emit({ type: "throttled", attempt, waitMs, limit });
        },
        onRetry: (attempt, delayMs, error) =>
          this.#emit({
            type: "retry",
            attempt,
            delayMs,
            error: { kind: error.kind, message: error.message },
          }),
      },
      (context) => this.#attempt(url, query, page, readSoFar, context),
      options.signal,
    );
    return { ...value, attempts };
  }

  async #attempt(
    url: string,
    query: DjenQuery,
    page: number,
    readSoFar: number,
    context: AttemptContext,
  ): Promise<Attempt<Omit<DjenPage, "attempts">, DjenError>> {
    this.#requestCount++;
    const sentAt = this.#up.clock.now();
    const sent = await fetchOnce(
      { ...this.#up, maxBytes: this.#maxResponseBytes },
      url,
      { headers: { Accept: "application/json" } },
      context.signal,
      context.deadlineAt,
    );
    if (!sent.ok && sent.failure === "too_large") {
      this.#emit({
        type: "request",
        attempt: context.attempt,
        status: sent.response.status,
        durationMs: this.#up.clock.now() - sentAt,
      });
      const mib = Math.round((sent.maxBytes / 2 ** 20) * 10) / 10;
      const message = `DJEN's answer for ${describeQuery(query)} (page ${page}) is larger than ${mib} MiB (djen.maxResponseMb); it was not read`;
      return {
        ok: false,
        error: new DjenError("too_large", message, { status: sent.response.status }),
      };
    }
    if (!sent.ok) {
      this.#emit({
        type: "unanswered",
        attempt: context.attempt,
        kind: sent.failure === "timeout" ? "timeout" : "network",
        durationMs: this.#up.clock.now() - sentAt,
      });
      const error =
        sent.failure === "timeout"
          ? new DjenError("timeout", `DJEN did not answer within ${sent.timeoutMs} ms`)
          : new DjenError(
              "network",
              `${sent.failure === "lost" ? "lost the connection to DJEN while reading" : DJEN_UNREACHABLE_PREFIX} (${this.baseUrl}): ${networkDetail(sent.error)}`,
              { cause: sent.error },
            );
      return { ok: false, error };
    }
    this.#emit({
      type: "request",
      attempt: context.attempt,
      status: sent.response.status,
      durationMs: sent.durationMs,
    });
    return this.#interpret(url, query, page, readSoFar, sent.response, sent.text);
  }

  #interpret(
    url: string,
    query: DjenQuery,
    page: number,
    readSoFar: number,
    response: Response,
    text: string,
  ): Attempt<Omit<DjenPage, "attempts">, DjenError> {
    const status = response.status;
    const json = parseJson(text);
    if (status >= 200 && status < 300) return this.#success(url, query, page, readSoFar, json);
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.#up.clock.now());
    const fail = (
      kind: DjenErrorKind,
      message: string,
      extra: DjenErrorOptions = {},
    ): Attempt<never, DjenError> => ({
      ok: false,
      error: new DjenError(kind, message, {
        status,
        ...(retryAfterMs === undefined
          ? {}
          : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) }),
        ...extra,
      }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    const detail = bodyDetail(json, text);
    if (status === 403) return fail("geo_blocked", GEO_BLOCKED_MESSAGE, { retryable: false });
    if (status === 429)
      return fail("rate_limited", `DJEN is rate limiting requests (HTTP 429)${detail}`);
    if (status === 408) return fail("timeout", `DJEN gave up waiting for our request (HTTP 408)`);
    if (status >= 500) return fail("server", `DJEN answered HTTP ${status}${detail}`);
    if (status === 404) {
      return fail(
        "bad_request",
        `DJEN has no ${new URL(url).pathname} (HTTP 404): check DJEN_BASE_URL (${this.baseUrl})`,
      );
    }
    if (status >= 400)
      return fail("bad_request", `DJEN refused the query (HTTP ${status})${detail}`);
    return fail("bad_response", `DJEN answered with an unexpected HTTP ${status}`);
  }

  #success(
    url: string,
    query: DjenQuery,
    page: number,
    readSoFar: number,
    json: unknown,
  ): Attempt<Omit<DjenPage, "attempts">, DjenError> {
    const bad = (kind: DjenErrorKind, message: string): Attempt<never, DjenError> => ({
      ok: false,
      error: new DjenError(kind, message, { status: 200 }),
    });
    if (json === undefined)
      return bad("bad_response", "DJEN answered HTTP 200 with a body that is not JSON");
    const parsed = RawAnswer.safeParse(json);
    if (!parsed.success) {
      const said = RawErrorBody.safeParse(json);
      const message = said.success ? (said.data.message ?? said.data.mensagem) : null;
      const where = parsed.error.issues[0]?.path.join(".") ?? "";
      return bad(
        "bad_response",
        `DJEN answered HTTP 200 but not a list of communications${where ? ` (at ${where})` : ""}${message ? `: ${JSON.stringify(clip(message, 200))}` : ""}`,
      );
    }
    const answer = parsed.data;
    if (
      answer.status !== null &&
      answer.status !== undefined &&
      FAILED_STATUS.test(answer.status.trim())
    ) {
      return bad(
        "bad_response",
        `DJEN answered status "${clip(answer.status, 40)}"${answer.message ? `: ${JSON.stringify(clip(answer.message, 200))}` : ""}`,
      );
    }
    const publications: Publication[] = [];
    for (const [index, entry] of answer.items.entries()) {
      const item = RawItem.safeParse(entry);
      if (!item.success || typeof entry !== "object" || entry === null) {
        return bad("bad_response", `DJEN's item ${index + 1} on page ${page} has no numeric id`);
      }
      const publication = toPublication(item.data, entry as Record<string, unknown>, {
        baseUrl: this.baseUrl,
      });
      if (!publication.ok) return bad("bad_response", `DJEN's ${publication.problem}`);
      const wrong = mismatch(query, publication.value);
      if (wrong !== null) {
        return bad(
          "filter_ignored",
          `DJEN's answer for ${describeQuery(query)} does not match it (${wrong}): it ignored a filter, so none of it is used`,
        );
      }
      publications.push(publication.value);
    }
    if (publications.length === 0 && readSoFar < answer.count) {
      return bad(
        "incomplete",
        `DJEN answered page ${page} empty although it counts ${answer.count} items and ${readSoFar} were read`,
      );
    }
    return {
      ok: true,
      value: {
        url,
        fetchedAt: isoNow(this.#up.clock),
        page,
        pageSize: this.pageSize,
        count: answer.count,
        publications,
      },
    };
  }

  #deadline(
    described: string,
    attempts: number,
    last: DjenError | undefined,
    nextDelayMs?: number,
  ): DjenError {
    return new DjenError(
      "deadline",
      deadlineMessage("DJEN", described, this.#up.totalTimeoutMs, attempts, last, nextDelayMs),
      {
        attempts,
        ...(last?.status === undefined ? {} : { status: last.status }),
        ...(last === undefined ? {} : { cause: last }),
      },
    );
  }

  #emit(event: DjenClientEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(event);
    } catch {
      // A logging hook must never change the outcome of a request.
    }
  }
}
