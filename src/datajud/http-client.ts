import { z } from "zod";
import { followAbort } from "../abort.js";
import { fullJitterDelayMs, parseRetryAfter } from "../pacing/backoff.js";
import type { SlidingWindowLimiter, WindowUsage } from "../pacing/limiter.js";
import {
  baseUrlOf,
  clipText as clip,
  fetchOnce,
  networkDetail,
  parseJsonBody as parseJson,
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
  onEvent?: (event: DataJudClientEvent) => void;
}

export interface RawSearchHit {
  _id: string;
  _index: string;
  _source: unknown;
  sort?: unknown[];
}

export interface SearchResult {
  index: string;
  url: string;
  /** ISO time the answer arrived, from the clock. */
  fetchedAt: string;
  total: number;
  hits: RawSearchHit[];
  attempts: number;
  tookMs: number | null;
}

const KEY_ROTATED =
  "DataJud rejected the API key (HTTP 401): CNJ rotated the public key; copy the current one from the DataJud wiki (https://datajud-wiki.cnj.jus.br/api-publica/acesso) into DATAJUD_API_KEY";

const EsHit = z.looseObject({
  _id: z.union([z.string(), z.number()]).transform(String),
  _index: z.string().optional().catch(undefined),
  _source: z.unknown().optional(),
  sort: z.array(z.unknown()).optional().catch(undefined),
});

/**
 * The parts of an Elasticsearch 7 search answer we rely on. Lenient about everything else;
 * strict about what decides whether the hits are complete (`_shards`, `timed_out`).
 */
export const SearchEnvelope = z.looseObject({
  took: z.number().optional().catch(undefined),
  timed_out: z.boolean().optional(),
  _shards: z
    .looseObject({
      total: z.number().optional().catch(undefined),
      successful: z.number().optional().catch(undefined),
      failed: z.number().optional(),
    })
    .optional(),
  hits: z.looseObject({
    total: z
      .union([z.number(), z.looseObject({ value: z.number(), relation: z.string().optional() })])
      .optional(),
    hits: z.array(EsHit),
  }),
});
export type SearchEnvelope = z.infer<typeof SearchEnvelope>;

const EsCause = z.looseObject({
  type: z.string().optional().catch(undefined),
  reason: z.string().optional().catch(undefined),
});

const EsErrorBody = z.looseObject({
  error: z.union([
    z.string(),
    z.looseObject({
      type: z.string().optional().catch(undefined),
      reason: z.string().optional().catch(undefined),
      root_cause: z.array(EsCause).optional().catch(undefined),
      caused_by: EsCause.optional().catch(undefined),
    }),
  ]),
});

/** Elasticsearch refusing work because it is overloaded, whatever HTTP status carries it. */
const REJECTION = /rejected_execution|circuit_breaking/;

/** Why the total deadline's abort fired. */
const DEADLINE = Symbol("deadline");

type AttemptResult =
  | { ok: true; result: SearchResult }
  | { ok: false; error: DataJudError; retryAfterMs?: number };

interface EsErrorSummary {
  type: string | undefined;
  reason: string | undefined;
}

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

function esError(json: unknown): EsErrorSummary | undefined {
  const parsed = EsErrorBody.safeParse(json);
  if (!parsed.success) return undefined;
  const error = parsed.data.error;
  if (typeof error === "string") return { type: undefined, reason: error };
  // root_cause names what is actually wrong; the top level is often a generic phase failure.
  const root = error.root_cause?.[0];
  const types = [error.type, root?.type, error.caused_by?.type].filter((t) => t !== undefined);
  return {
    type: types.find((t) => REJECTION.test(t)) ?? root?.type ?? error.type,
    reason: root?.reason ?? error.reason ?? error.caused_by?.reason,
  };
}

function describeEs(es: EsErrorSummary | undefined): string {
  if (!es) return "";
  const parts = [es.type, es.reason].filter((p) => p !== undefined && p !== "");
  return parts.length > 0 ? `: ${clip(parts.join(": "))}` : "";
}

/**
 * Why a 200 cannot be taken as the whole answer, or null when it can: every shard accounted for
 * as successful (ES counts skipped shards among them), none failed, not timed out. An answer that
 * does not say (no `_shards`) is not complete either: read as complete, a lost shard would turn
 * its cases into "not found" and, sweeps later, into "gone".
 */
function incompleteness(
  envelope: SearchEnvelope,
): { kind: "partial_shards" | "bad_response"; what: string } | null {
  const shards = envelope._shards;
  const failed = shards?.failed ?? 0;
  if (failed > 0) {
    const of = shards?.total === undefined ? "" : ` of ${shards.total}`;
    return { kind: "partial_shards", what: `${failed}${of} shards failed` };
  }
  if (envelope.timed_out === true) {
    return { kind: "partial_shards", what: "a search that timed out inside (timed_out: true)" };
  }
  if (shards?.total === undefined || shards.successful === undefined) {
    return { kind: "bad_response", what: "no shard count (_shards.total and .successful)" };
  }
  if (shards.successful < shards.total) {
    return {
      kind: "partial_shards",
      what: `only ${shards.successful} of ${shards.total} shards answered`,
    };
  }
  return null;
}

/** Not a count-only query (`size: 0`) and not a later page (`from`, `search_after`). */
function asksForFirstPage(body: Record<string, unknown>): boolean {
  const size = body.size === undefined ? 10 : Number(body.size);
  const from = body.from === undefined ? 0 : Number(body.from);
  return size > 0 && from === 0 && body.search_after === undefined;
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
      { fetch: this.#fetch, clock: this.#clock, timeoutMs: this.#timeoutMs },
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
    const { index } = search;
    const status = response.status;
    const json = parseJson(text);
    if (status >= 200 && status < 300) return this.#success(search, json, attempt);

    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.#clock.now());
    const retryAfter = retryAfterMs === undefined ? {} : { retryAfterMs };
    const waitHint =
      retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    const es = esError(json);
    const detail = describeEs(es);
    const fail = (
      kind: DataJudErrorKind,
      message: string,
      extra: DataJudErrorOptions = {},
    ): AttemptResult => ({
      ok: false,
      error: this.#error(kind, message, { status, index, ...waitHint, ...extra }),
      ...retryAfter,
    });

    if (es?.type !== undefined && REJECTION.test(es.type)) {
      return fail(
        "rejected",
        `DataJud's cluster rejected the search on ${index} (HTTP ${status})${detail}`,
      );
    }
    if (status === 400) {
      return fail("bad_request", `DataJud refused the query to ${index} (HTTP 400)${detail}`);
    }
    if (status === 401) return fail("auth", KEY_ROTATED);
    if (status === 403) {
      return fail(
        "forbidden",
        `DataJud refused access to ${index} (HTTP 403): the API key is valid but may not read this index${detail}`,
      );
    }
    if (status === 404) {
      const alias = index.slice("api_publica_".length);
      return fail(
        "unknown_index",
        `DataJud has no index ${index} (HTTP 404): "${alias}" is not a DataJud court alias; check \`court\``,
      );
    }
    if (status === 408) {
      return fail("timeout", `DataJud gave up waiting for our request to ${index} (HTTP 408)`);
    }
    if (status === 429) {
      return fail(
        "rate_limited",
        `DataJud is rate limiting requests (HTTP 429) to ${index}${detail}`,
      );
    }
    if (status >= 500)
      return fail("server", `DataJud answered HTTP ${status} for ${index}${detail}`);
    if (status >= 400) {
      return fail(
        "bad_request",
        `DataJud refused the request to ${index} (HTTP ${status})${detail}`,
      );
    }
    return fail("bad_response", `DataJud answered ${index} with an unexpected HTTP ${status}`);
  }

  #success(search: Search, json: unknown, attempt: number): AttemptResult {
    const { index } = search;
    const bad = (message: string): AttemptResult => ({
      ok: false,
      error: this.#error("bad_response", message, { index, status: 200 }),
    });
    if (json === undefined)
      return bad(`DataJud answered ${index} with HTTP 200 but a body that is not JSON`);
    const parsed = SearchEnvelope.safeParse(json);
    if (!parsed.success) {
      const es = esError(json);
      if (es?.type !== undefined && REJECTION.test(es.type)) {
        return {
          ok: false,
          error: this.#error(
            "rejected",
            `DataJud's cluster rejected the search on ${index}${describeEs(es)}`,
            {
              index,
              status: 200,
            },
          ),
        };
      }
      const where = parsed.error.issues[0]?.path.join(".") ?? "";
      return bad(
        `DataJud answered ${index} with HTTP 200 but not a search response${where ? ` (at ${where})` : ""}`,
      );
    }
    const envelope = parsed.data;
    const incomplete = incompleteness(envelope);
    if (incomplete !== null) {
      return {
        ok: false,
        error: this.#error(
          incomplete.kind,
          `DataJud answered ${index} with ${incomplete.what}; the hits may be incomplete, so they are not used`,
          { index, status: 200 },
        ),
      };
    }
    const hits = envelope.hits.hits.map(
      (hit): RawSearchHit => ({
        _id: hit._id,
        _index: hit._index ?? index,
        _source: hit._source,
        ...(hit.sort === undefined ? {} : { sort: hit.sort }),
      }),
    );
    const rawTotal = envelope.hits.total;
    const total =
      rawTotal === undefined
        ? hits.length
        : typeof rawTotal === "number"
          ? rawTotal
          : rawTotal.value;
    if (search.expectsHits && total > 0 && hits.length === 0) {
      // Seen live: a total without its hits. Read as "no such case" it would count towards
      // declaring a watched case gone; it is a broken answer, worth another attempt.
      return bad(
        `DataJud answered ${index} with ${total} matching record(s) but no hits; the answer is incomplete, so it is not used`,
      );
    }
    return {
      ok: true,
      result: {
        index,
        url: search.url,
        fetchedAt: new Date(this.#clock.now()).toISOString(),
        total,
        hits,
        attempts: attempt,
        tookMs: envelope.took ?? null,
      },
    };
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
