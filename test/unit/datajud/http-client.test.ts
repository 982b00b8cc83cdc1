import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import {
  type DataJudClientEvent,
  type DataJudClientOptions,
  DataJudHttpClient,
} from "../../../src/datajud/http-client.js";
import { systemClock } from "../../../src/time/clock.js";
import { FakeClock } from "../../fakes/fake-clock.js";

const KEY = "unit-test-key-3f9a";
const BASE = "https://datajud.example";

type Reply = Response | Error | ((init: RequestInit) => Promise<Response>);

interface Call {
  url: string;
  init: RequestInit;
}

function scripted(replies: Reply[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchImpl = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> => {
    calls.push({ url: String(input), init });
    const reply = replies.shift();
    if (reply === undefined) throw new Error("the test scripted no more replies");
    if (reply instanceof Error) throw reply;
    if (typeof reply === "function") return reply(init);
    return reply;
  };
  return { fetch: fetchImpl, calls };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function answer(
  hits: Array<{ _id: string; _source: unknown; sort?: unknown[] }>,
  extra: object = {},
): Response {
  return json(200, {
    took: 42,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: { value: hits.length, relation: "eq" },
      max_score: 1,
      hits: hits.map((h) => ({ _index: "api_publica_tjdft", _type: "_doc", _score: 1, ...h })),
    },
    ...extra,
  });
}

const ok = (): Response => answer([{ _id: "a", _source: { numeroProcesso: "1" } }]);

/** Resolves only when the request is aborted, like a server that never answers. */
function hang(init: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
  });
}

function client(
  replies: Reply[],
  options: Partial<DataJudClientOptions> = {},
): { http: DataJudHttpClient; calls: Call[]; clock: FakeClock; events: DataJudClientEvent[] } {
  const { fetch: fetchImpl, calls } = scripted(replies);
  const clock = new FakeClock({ now: Date.UTC(2025, 5, 2, 12), autoAdvance: true });
  const events: DataJudClientEvent[] = [];
  const http = new DataJudHttpClient({
    baseUrl: BASE,
    apiKey: KEY,
    fetch: fetchImpl,
    clock,
    random: () => 0.5,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { http, calls, clock, events };
}

async function failure(promise: Promise<unknown>): Promise<DataJudError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DataJudError) return error;
    throw error;
  }
  throw new Error("expected the search to fail");
}

function retries(events: DataJudClientEvent[]): Array<{ kind: string; delayMs: number }> {
  return events.flatMap((e) =>
    e.type === "retry" ? [{ kind: e.error.kind, delayMs: e.delayMs }] : [],
  );
}

describe("DataJudHttpClient.search: the request", () => {
  it("POSTs the body as JSON to the court's index with the APIKey header", async () => {
    const { http, calls } = client([ok()], { baseUrl: `${BASE}/` });

    await http.search("tjdft", { size: 1, query: { match_all: {} } });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`${BASE}/api_publica_tjdft/_search`);
    expect(calls[0]?.init.method).toBe("POST");
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get("authorization")).toBe(`APIKey ${KEY}`);
    expect(headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ size: 1, query: { match_all: {} } });
  });

  it("returns hits, total, provenance and attempts", async () => {
    const { http, clock } = client([
      answer([
        { _id: "x", _source: { numeroProcesso: "07133834320258070006" }, sort: [1] },
        { _id: "y", _source: { numeroProcesso: "07133834320258070006" } },
      ]),
    ]);

    const result = await http.search("tjdft", {});

    expect(result.index).toBe("api_publica_tjdft");
    expect(result.url).toBe(`${BASE}/api_publica_tjdft/_search`);
    expect(result.fetchedAt).toBe(new Date(clock.now()).toISOString());
    expect(result.total).toBe(2);
    expect(result.attempts).toBe(1);
    expect(result.tookMs).toBe(42);
    expect(result.hits.map((h) => h._id)).toEqual(["x", "y"]);
    expect(result.hits[0]).toEqual({
      _id: "x",
      _index: "api_publica_tjdft",
      _source: { numeroProcesso: "07133834320258070006" },
      sort: [1],
    });
    expect(result.hits[1]).not.toHaveProperty("sort");
    expect(http.requestCount).toBe(1);
  });

  it("accepts hits.total as a number or missing, and tolerates extra fields", async () => {
    const shards = { total: 2, successful: 2, skipped: 1, failed: 0 };
    const numeric = json(200, {
      _shards: shards,
      hits: { total: 7, hits: [{ _id: 4, _source: {} }], extra: true },
      _clusters: {},
      took: "x",
    });
    const missing = json(200, { _shards: shards, hits: { hits: [{ _id: 5, _source: {} }] } });
    const { http } = client([numeric, missing]);

    const first = await http.search("tjsp", {});
    const second = await http.search("tjsp", {});

    expect(first.total).toBe(7);
    expect(first.tookMs).toBeNull();
    expect(second.total).toBe(1);
    expect(second.hits[0]?._id).toBe("5");
    expect(second.hits[0]?._index).toBe("api_publica_tjsp");
  });

  it("refuses an alias that could escape the index path, without sending anything", async () => {
    const { http } = client([]);

    const error = await failure(http.search("../_cluster", {}));

    expect(error.kind).toBe("invalid_input");
    expect(http.requestCount).toBe(0);
  });
});

describe("DataJudHttpClient.search: retries", () => {
  it("retries a 503 with full-jitter backoff, then returns the answer", async () => {
    const { http, clock, events } = client([json(503, { error: "busy" }), json(503, {}), ok()]);

    const result = await http.search("tjdft", {});

    expect(result.attempts).toBe(3);
    expect(http.requestCount).toBe(3);
    expect(clock.sleeps).toEqual([1000, 2000]);
    expect(retries(events)).toEqual([
      { kind: "server", delayMs: 1000 },
      { kind: "server", delayMs: 2000 },
    ]);
    expect(
      events.filter((e) => e.type === "request").map((e) => (e.type === "request" ? e.status : 0)),
    ).toEqual([503, 503, 200]);
  });

  it("waits what Retry-After asks instead of the backoff", async () => {
    const { http, clock, events } = client([json(429, {}, { "retry-after": "7" }), ok()]);

    await http.search("tjdft", {});

    expect(clock.sleeps).toEqual([7000]);
    expect(retries(events)).toEqual([{ kind: "rate_limited", delayMs: 7000 }]);
  });

  it("classifies Elasticsearch rejections as rejected, whatever the status", async () => {
    const rejection = {
      error: {
        root_cause: [
          { type: "es_rejected_execution_exception", reason: "rejected execution of coordinating" },
        ],
        type: "search_phase_execution_exception",
        reason: "all shards failed",
      },
      status: 429,
    };
    const breaker = {
      error: { type: "circuit_breaking_exception", reason: "[parent] Data too large" },
      status: 503,
    };
    const { http, events } = client([json(429, rejection), json(503, breaker), ok()]);

    await http.search("tjdft", {});

    expect(retries(events).map((r) => r.kind)).toEqual(["rejected", "rejected"]);
  });

  it("retries network errors and per-attempt timeouts", async () => {
    const { http, events } = client(
      [new TypeError("fetch failed", { cause: new Error("ECONNRESET") }), hang, ok()],
      {
        timeoutMs: 30,
      },
    );

    const result = await http.search("tjdft", {});

    expect(result.attempts).toBe(3);
    expect(retries(events).map((r) => r.kind)).toEqual(["network", "timeout"]);
  });

  it("never returns the hits of an answer with failed shards or timed_out", async () => {
    const partial = answer([{ _id: "only-half", _source: {} }], {
      _shards: { total: 2, successful: 1, skipped: 0, failed: 1 },
    });
    const timedOut = answer([{ _id: "only-half", _source: {} }], { timed_out: true });
    const full = answer([
      { _id: "a", _source: {} },
      { _id: "b", _source: {} },
    ]);
    const { http, events } = client([partial, timedOut, full]);

    const result = await http.search("tjdft", {});

    expect(result.hits.map((h) => h._id)).toEqual(["a", "b"]);
    expect(retries(events).map((r) => r.kind)).toEqual(["partial_shards", "partial_shards"]);
  });

  it("never reads an answer with fewer successful shards than the total as complete, even with failed: 0", async () => {
    const missingShard = answer([], {
      _shards: { total: 5, successful: 4, skipped: 0, failed: 0 },
    });
    const noShards = json(200, {
      took: 3,
      timed_out: false,
      hits: { total: { value: 0, relation: "eq" }, hits: [] },
    });
    const timedOut = answer([], { timed_out: true });
    const { http, events } = client([missingShard, noShards, timedOut, ok()]);

    const result = await http.search("tjdft", { size: 100, query: { terms: {} } });

    expect(result.hits.map((h) => h._id)).toEqual(["a"]);
    expect(retries(events).map((r) => r.kind)).toEqual([
      "partial_shards",
      "bad_response",
      "partial_shards",
    ]);
  });

  it("fails, retryably, a search whose every answer leaves shards unaccounted for", async () => {
    const missingShard = (): Response =>
      answer([], { _shards: { total: 3, successful: 2, failed: 0 } });
    const { http } = client([missingShard(), missingShard()], { maxAttempts: 2 });

    const error = await failure(http.search("tjdft", { size: 100 }));

    expect(error.kind).toBe("partial_shards");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("2 of 3 shards answered");
  });

  it("retries an answer whose total is positive but whose hits are missing", async () => {
    const hollow = json(200, {
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: { value: 1, relation: "eq" }, max_score: null, hits: [] },
    });
    const { http, events } = client([hollow, ok()]);

    const result = await http.search("tjdft", {
      size: 20,
      query: { match: { numeroProcesso: "1" } },
    });

    expect(result.hits.map((h) => h._id)).toEqual(["a"]);
    expect(retries(events).map((r) => r.kind)).toEqual(["bad_response"]);
  });

  it("fails a case read retryably, never as an empty answer, when every attempt lacks the hits", async () => {
    const hollow = (): Response =>
      json(200, { _shards: { total: 1, successful: 1 }, hits: { total: { value: 3 }, hits: [] } });
    const { http } = client([hollow(), hollow()], { maxAttempts: 2 });

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("bad_response");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("3 matching record(s) but no hits");
  });

  it("accepts a positive total without hits where none were asked for: counts and later pages", async () => {
    const empty = (): Response =>
      json(200, {
        _shards: { total: 1, successful: 1 },
        hits: { total: { value: 250 }, hits: [] },
      });
    const { http } = client([empty(), empty(), empty()]);

    const count = await http.search("tjdft", { size: 0 });
    const after = await http.search("tjdft", { size: 100, search_after: [1, "x"] });
    const offset = await http.search("tjdft", { size: 100, from: 300 });

    expect([count.total, after.total, offset.total]).toEqual([250, 250, 250]);
    expect([count.hits, after.hits, offset.hits]).toEqual([[], [], []]);
  });

  it("gives up after maxAttempts with the last error and the attempt count", async () => {
    const partial = (): Response =>
      answer([{ _id: "a", _source: {} }], { _shards: { total: 2, successful: 1, failed: 1 } });
    const { http } = client([partial(), partial(), partial(), partial(), ok()]);

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("partial_shards");
    expect(error.attempts).toBe(4);
    expect(error.retryable).toBe(true);
    expect(http.requestCount).toBe(4);
  });

  it("retries a body that is not JSON or not a search answer", async () => {
    const garbage = new Response("<html>upstream error</html>", { status: 200 });
    const notSearch = json(200, { acknowledged: true });
    const { http, events } = client([garbage, notSearch, ok()]);

    await http.search("tjdft", {});

    expect(retries(events).map((r) => r.kind)).toEqual(["bad_response", "bad_response"]);
  });
});

describe("DataJudHttpClient.search: errors that are not retried", () => {
  it("400 is bad_request with Elasticsearch's reason", async () => {
    const body = {
      error: {
        root_cause: [
          { type: "parsing_exception", reason: "[terms] query malformed, no start_object" },
        ],
        type: "parsing_exception",
        reason: "[terms] query malformed, no start_object",
      },
      status: 400,
    };
    const { http } = client([json(400, body)]);

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("bad_request");
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(400);
    expect(error.message).toContain("[terms] query malformed");
    expect(error.attempts).toBe(1);
    expect(http.requestCount).toBe(1);
  });

  it("401 says the key is mistyped or rotated, and where to get the current one", async () => {
    const { http } = client([json(401, { message: "Unauthorized" })]);

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("auth");
    expect(error.message).toBe(
      "DataJud refused the key (HTTP 401): it is mistyped or CNJ rotated it; compare DATAJUD_API_KEY with the current public key on the DataJud wiki (https://datajud-wiki.cnj.jus.br/api-publica/acesso)",
    );
    expect(http.requestCount).toBe(1);
  });

  it("403 is forbidden and 404 names the unknown court alias", async () => {
    const notFound = {
      error: { type: "index_not_found_exception", reason: "no such index [api_publica_tjxx]" },
      status: 404,
    };
    const { http } = client([json(403, {}), json(404, notFound)]);

    const forbidden = await failure(http.search("tjdft", {}));
    const unknown = await failure(http.search("tjxx", {}));

    expect(forbidden.kind).toBe("forbidden");
    expect(forbidden.retryable).toBe(false);
    expect(unknown.kind).toBe("unknown_index");
    expect(unknown.retryable).toBe(false);
    expect(unknown.message).toContain('"tjxx" is not a DataJud court alias');
    expect(unknown.message).toContain("court");
    expect(http.requestCount).toBe(2);
  });

  it("never puts the key in an error, even when DataJud echoes it", async () => {
    const echo = {
      error: { type: "parsing_exception", reason: `bad header APIKey ${KEY}` },
      status: 400,
    };
    const { http } = client([json(400, echo), new TypeError(`fetch failed for ${KEY}`)], {
      maxAttempts: 1,
    });

    const badRequest = await failure(http.search("tjdft", {}));
    const network = await failure(http.search("tjdft", {}));

    for (const error of [badRequest, network]) {
      expect(error.message).not.toContain(KEY);
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
    expect(badRequest.message).toContain("[redacted]");
  });
});

describe("DataJudHttpClient.search: deadlines and cancellation", () => {
  it("fails with a retryable deadline error carrying the last error once the total time is spent", async () => {
    const { http, clock } = client([json(503, {}), json(503, {}), json(503, {}), ok()], {
      random: () => 0.99,
      totalTimeoutMs: 3000,
      maxAttempts: 10,
    });

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("deadline");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("HTTP 503");
    expect(error.attempts).toBe(2);
    expect(clock.sleeps).toEqual([1980]);
    expect(http.requestCount).toBe(2);
  });

  it("does not sleep when Retry-After asks for more than the time left", async () => {
    const { http, clock } = client([json(503, {}, { "retry-after": "30" }), ok()], {
      totalTimeoutMs: 10_000,
    });

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("deadline");
    expect(error.retryAfterSeconds).toBe(30);
    expect(clock.sleeps).toEqual([]);
  });

  it("clips the per-attempt timeout to the time left of the deadline", async () => {
    const { http } = client([hang, hang], { timeoutMs: 5000, totalTimeoutMs: 80, random: () => 0 });
    const started = performance.now();

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("deadline");
    expect(error.message).toContain("did not answer");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("does not send anything when the signal is already aborted", async () => {
    const { http } = client([ok()]);

    const error = await failure(http.search("tjdft", {}, { signal: AbortSignal.abort() }));

    expect(error.kind).toBe("cancelled");
    expect(error.retryable).toBe(false);
    expect(http.requestCount).toBe(0);
  });

  it("aborts the in-flight fetch when the caller cancels", async () => {
    const controller = new AbortController();
    const { http, calls } = client([hang], { timeoutMs: 60_000 });
    const pending = failure(http.search("tjdft", {}, { signal: controller.signal }));
    // In flight: the fetch has been called.
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));

    controller.abort();
    const error = await pending;

    expect(error.kind).toBe("cancelled");
    expect(error.attempts).toBe(1);
    expect(calls[0]?.init.signal?.aborted).toBe(true);
  });

  it("stops waiting in backoff when the caller cancels", async () => {
    const controller = new AbortController();
    const clock = new FakeClock({ now: 0 });
    const { fetch: fetchImpl } = scripted([json(503, {}), ok()]);
    const http = new DataJudHttpClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetch: fetchImpl,
      clock,
      random: () => 0.5,
    });
    const pending = failure(http.search("tjdft", {}, { signal: controller.signal }));
    while (clock.pending === 0) await new Promise((resolve) => setTimeout(resolve, 1));

    controller.abort();
    const error = await pending;

    expect(error.kind).toBe("cancelled");
    expect(http.requestCount).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it("stops waiting for the rate limiter when the caller cancels", async () => {
    const clock = new FakeClock({ now: 0 });
    const { fetch: fetchImpl } = scripted([ok(), ok()]);
    const http = new DataJudHttpClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetch: fetchImpl,
      clock,
      random: Math.random,
      requestsPerMinute: 1,
    });
    await http.search("tjdft", {});
    const controller = new AbortController();
    const pending = failure(http.search("tjdft", {}, { signal: controller.signal }));
    await clock.advance(1000);

    controller.abort();
    const error = await pending;

    expect(error.kind).toBe("cancelled");
    expect(http.requestCount).toBe(1);
  });

  it("refuses options that cannot work", () => {
    const make = (options: Partial<DataJudClientOptions>) => (): DataJudHttpClient =>
      new DataJudHttpClient({
        baseUrl: BASE,
        apiKey: KEY,
        clock: systemClock,
        random: Math.random,
        ...options,
      });

    expect(make({ baseUrl: "not a url" })).toThrow(TypeError);
    expect(make({ baseUrl: "ftp://datajud.example" })).toThrow(TypeError);
    expect(make({ maxAttempts: 0 })).toThrow(RangeError);
    expect(make({ timeoutMs: -1 })).toThrow(RangeError);
    expect(make({ concurrency: 0 })).toThrow(RangeError);
    expect(make({ concurrency: 17 })).toThrow(/at most 16/);
  });
});

/** A DataJud that answers after `latencyMs` of the fake clock, counting requests in flight. */
function slowDataJud(
  clock: FakeClock,
  latencyMs: number,
  reply: (n: number) => Response = () => ok(),
): { fetch: typeof fetch; sentAt: number[]; maxInFlight: () => number } {
  const sentAt: number[] = [];
  let inFlight = 0;
  let most = 0;
  const fetchImpl = async (_input: string | URL | Request, init: RequestInit = {}) => {
    const n = sentAt.push(clock.now());
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      await clock.sleep(latencyMs, init.signal ?? undefined);
      return reply(n);
    } finally {
      inFlight--;
    }
  };
  return { fetch: fetchImpl, sentAt, maxInFlight: () => most };
}

/** The most requests sent in any window of `windowMs`, wherever it starts. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while ((sorted[to] ?? 0) - (sorted[from] ?? 0) >= windowMs) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

async function settle(clock: FakeClock, done: () => boolean, stepMs: number): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await clock.advance(stepMs);
}

describe("DataJudHttpClient.search: requests in flight", () => {
  it("overlaps up to `concurrency` requests and never sends more than the cap in any 60-s window", async () => {
    const clock = new FakeClock({ now: 0 });
    const datajud = slowDataJud(clock, 2000);
    const http = new DataJudHttpClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetch: datajud.fetch,
      clock,
      random: Math.random,
      concurrency: 16,
      requestsPerMinute: 120,
    });
    let answered = 0;
    const searches = Array.from({ length: 300 }, () =>
      http.search("tjdft", {}).then(() => {
        answered++;
      }),
    );

    await settle(clock, () => answered === 300, 500);
    await Promise.all(searches);

    expect(datajud.sentAt).toHaveLength(300);
    expect(datajud.maxInFlight()).toBe(16);
    expect(busiestWindow(datajud.sentAt, 60_000)).toBe(120);
    expect(http.rateStatus()).toMatchObject({ concurrency: 16, maxConcurrency: 16, inFlight: 0 });
  });

  it("halves on a burst of 429s, retries them after a short pause, and grows back one step per quiet minute", async () => {
    const clock = new FakeClock({ now: 0 });
    const datajud = slowDataJud(clock, 100, (n) => (n <= 8 ? json(429, {}) : ok()));
    const events: DataJudClientEvent[] = [];
    const http = new DataJudHttpClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetch: datajud.fetch,
      clock,
      random: () => 0.99,
      concurrency: 8,
      requestsPerMinute: 120,
      onEvent: (event) => events.push(event),
    });
    let answered = 0;
    const burst = Array.from({ length: 8 }, () =>
      http.search("tjdft", {}).then(() => {
        answered++;
      }),
    );
    await settle(clock, () => answered === 8, 100);
    await Promise.all(burst);
    const afterBurst = http.rateStatus().concurrency;
    const steps: number[] = [];
    for (let minute = 0; minute < 5; minute++) {
      await clock.advance(60_000);
      const one = http.search("tjdft", {});
      await clock.advance(100);
      await one;
      steps.push(http.rateStatus().concurrency);
    }

    expect(afterBurst).toBe(4);
    expect(steps).toEqual([5, 6, 7, 8, 8]);
    expect(events.filter((e) => e.type === "concurrency")).toEqual([
      { type: "concurrency", from: 8, to: 4, cause: "rate_limited" },
      { type: "concurrency", from: 4, to: 5, cause: "quiet_window" },
      { type: "concurrency", from: 5, to: 6, cause: "quiet_window" },
      { type: "concurrency", from: 6, to: 7, cause: "quiet_window" },
      { type: "concurrency", from: 7, to: 8, cause: "quiet_window" },
    ]);
    const pauses = events.flatMap((e) => (e.type === "retry" ? [e.delayMs] : []));
    expect(pauses).toHaveLength(8);
    expect(Math.max(...pauses)).toBeLessThan(1000);
  });

  it("halves on a gateway's 504 and on a timeout, not on other failures", async () => {
    const { http, events } = client(
      [json(503, {}), ok(), json(504, {}), ok(), new TypeError("fetch failed"), ok()],
      { concurrency: 8 },
    );

    await http.search("tjdft", {});
    const after503 = http.rateStatus().concurrency;
    await http.search("tjdft", {});
    const after504 = http.rateStatus().concurrency;
    await http.search("tjdft", {});

    expect(after503).toBe(8);
    expect(after504).toBe(4);
    expect(http.rateStatus().concurrency).toBe(4);
    expect(events.filter((e) => e.type === "concurrency")).toEqual([
      { type: "concurrency", from: 8, to: 4, cause: "gateway_timeout" },
    ]);
  });

  it("starts a request's deadline when it gets its place, not while it queues behind others", async () => {
    const clock = new FakeClock({ now: 0 });
    const datajud = slowDataJud(clock, 40_000);
    const http = new DataJudHttpClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetch: datajud.fetch,
      clock,
      random: Math.random,
      concurrency: 1,
      timeoutMs: 50_000,
      totalTimeoutMs: 50_000,
    });
    const results: string[] = [];
    const searches = [0, 1, 2].map((i) =>
      http.search("tjdft", {}).then(
        () => results.push(`${i} ok`),
        (error: DataJudError) => results.push(`${i} ${error.kind}`),
      ),
    );

    await settle(clock, () => results.length === 3, 1000);
    await Promise.all(searches);

    expect(results).toEqual(["0 ok", "1 ok", "2 ok"]);
    expect(datajud.sentAt).toEqual([0, 40_000, 80_000]);
  });

  it("tells each attempt as sent, then answered or not, with the waits it had", async () => {
    const { http, events } = client([new TypeError("fetch failed"), ok()], {
      requestsPerMinute: 1,
      random: () => 0,
    });

    await http.search("tjdft", {});

    expect(events.map((e) => e.type)).toEqual([
      "send",
      "unanswered",
      "retry",
      "wait",
      "send",
      "request",
    ]);
    expect(events[1]).toMatchObject({ kind: "network", attempt: 1 });
    expect(events[3]).toMatchObject({ for: "limiter", waitedMs: 61_000 }); // a minute and the arrival margin
    expect(events[4]).toMatchObject({ attempt: 2, inFlight: 1 });
  });
});

describe("DataJudHttpClient.search: answers too large to read", () => {
  it("refuses a body past maxResponseBytes as it streams in, reading no further, never retried", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode("x".repeat(1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const streamed = new Response(endless, { status: 200 });
    const { http, events } = client([streamed], { maxResponseBytes: 64 * 1024 });

    const error = await failure(http.search("tjdft", { size: 100 }));

    expect(error.kind).toBe("too_large");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("larger than 0.1 MiB (datajud.maxResponseMb); it was not read");
    expect(pulled).toBeLessThan(70);
    expect(retries(events)).toEqual([]);
  });

  it("refuses a declared Content-Length past the limit before reading the body", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(10));
      },
    });
    const big = new Response(body, { status: 200, headers: { "content-length": "999999999" } });
    const { http } = client([big], { maxResponseBytes: 1024 * 1024 });

    const error = await failure(http.search("tjdft", {}));

    expect(error.kind).toBe("too_large");
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("reads an answer within the limit as before", async () => {
    const { http } = client([ok()], { maxResponseBytes: 4096 });

    const result = await http.search("tjdft", {});

    expect(result.hits.map((h) => h._id)).toEqual(["a"]);
  });
});
