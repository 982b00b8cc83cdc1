import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DataJudError } from "../../src/datajud/errors.js";
import {
  type DataJudClientEvent,
  type DataJudClientOptions,
  DataJudHttpClient,
} from "../../src/datajud/http-client.js";
import { systemClock } from "../../src/time/clock.js";
import { FakeClock } from "../fakes/fake-clock.js";
import { type FakeDataJud, type FakeDocument, startFakeDataJud } from "../fakes/fake-datajud.js";
import { waitFor } from "../support/wait-for.js";

const KEY = "integration-key-7c2e91";
const WRONG_KEY = "rotated-away-key-5d10";

const DOCS: FakeDocument[] = [
  {
    _id: "TJDFT_G1_1",
    _source: {
      numeroProcesso: "07133834320258070006",
      grau: "G1",
      classe: { codigo: 92, nome: "Despejo por Falta de Pagamento" },
      assuntos: [{ codigo: 9608, nome: "Despejo para Uso Próprio" }],
      dataAjuizamento: "20250314101500",
      "@timestamp": "2025-10-03T03:02:11.101Z",
      valor: 1500,
    },
  },
  {
    _id: "TJDFT_JE_2",
    _source: {
      numeroProcesso: "07012341920248070016",
      grau: "JE",
      classe: { codigo: "436", nome: "Procedimento do Juizado Especial Cível" },
      assuntos: [[{ codigo: 7779 }], [{ codigo: 6226 }, { codigo: 9608 }]],
      dataAjuizamento: "20240102090000",
      "@timestamp": "2025-09-01T00:00:00.000Z",
      valor: 300,
    },
  },
  {
    _id: "TJDFT_TR_3",
    _source: {
      numeroProcesso: "07012341920248070016",
      grau: "TR",
      classe: { codigo: 460, nome: "Recurso Inominado Cível" },
      assuntos: [{ codigo: 7779 }],
      dataAjuizamento: "20240901120000",
      "@timestamp": "2025-11-21T09:00:00.000Z",
    },
  },
];

let fake: FakeDataJud;

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: KEY });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.setDocuments("tjdft", DOCS);
  fake.setDocuments("tjsp", []);
  fake.failAlways(null);
  fake.rejectTermsQueries = false;
  fake.latencyMs = 0;
  fake.requests.length = 0;
});

function client(options: Partial<DataJudClientOptions> = {}): {
  http: DataJudHttpClient;
  events: DataJudClientEvent[];
} {
  const events: DataJudClientEvent[] = [];
  const http = new DataJudHttpClient({
    baseUrl: fake.url,
    apiKey: KEY,
    clock: systemClock,
    random: () => 0,
    timeoutMs: 1000,
    totalTimeoutMs: 4000,
    maxAttempts: 4,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { http, events };
}

function retryKinds(events: DataJudClientEvent[]): string[] {
  return events.flatMap((e) => (e.type === "retry" ? [e.error.kind] : []));
}

/** The error a search failed with; every one is also checked for the keys. */
async function failure(promise: Promise<unknown>): Promise<DataJudError> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DataJudError)) throw error;
    for (const text of [error.message, JSON.stringify(error), String(error.cause ?? "")]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(WRONG_KEY);
    }
    return error;
  }
  throw new Error("expected the search to fail");
}

const byNumber = (digits: string): Record<string, unknown> => ({
  query: { match: { numeroProcesso: digits } },
});

describe("DataJudHttpClient against the loopback fake DataJud", () => {
  it("answers a search with the fake's hits and sends the key", async () => {
    const { http } = client();

    const result = await http.search("tjdft", byNumber("07012341920248070016"));

    expect(result.hits.map((h) => h._id)).toEqual(["TJDFT_JE_2", "TJDFT_TR_3"]);
    expect(result.total).toBe(2);
    expect(result.index).toBe("api_publica_tjdft");
    expect(result.url).toBe(`${fake.url}/api_publica_tjdft/_search`);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.authorization).toBe(`APIKey ${KEY}`);
    expect(fake.requests[0]?.body).toEqual(byNumber("07012341920248070016"));
  });

  it("recovers from a 503 and from a 504", async () => {
    const { http, events } = client();
    fake.failNext({ status: 503 }, { status: 504, body: "<html>504 Gateway Time-out</html>" });

    const result = await http.search("tjdft", byNumber("07133834320258070006"));

    expect(result.attempts).toBe(3);
    expect(result.hits).toHaveLength(1);
    expect(retryKinds(events)).toEqual(["server", "server"]);
    expect(http.requestCount).toBe(3);
    expect(fake.requests).toHaveLength(3);
  });

  it("waits what Retry-After asks on a 429", async () => {
    // The wait on the client's clock, which skips it: a second of real time proves nothing more.
    const clock = new FakeClock({ now: Date.parse("2026-03-03T13:00:00.000Z"), autoAdvance: true });
    const { http, events } = client({ clock });
    fake.failNext({ status: 429, headers: { "Retry-After": "1" } });
    const started = clock.now();

    const result = await http.search("tjdft", byNumber("07133834320258070006"));

    expect(result.attempts).toBe(2);
    expect(clock.sleeps).toContain(1000);
    expect(clock.now() - started).toBeGreaterThanOrEqual(1000);
    expect(events.find((e) => e.type === "retry")).toMatchObject({
      delayMs: 1000,
      error: { kind: "rate_limited" },
    });
  });

  it("retries Elasticsearch rejections", async () => {
    const { http, events } = client();
    fake.failNext({
      status: 429,
      body: {
        error: { type: "es_rejected_execution_exception", reason: "rejected execution of search" },
        status: 429,
      },
    });

    await http.search("tjdft", byNumber("07133834320258070006"));

    expect(retryKinds(events)).toEqual(["rejected"]);
  });

  it("retries partial-shard and timed-out answers and returns only the complete one", async () => {
    const { http, events } = client();
    fake.failNext({ partialShards: true }, { timedOut: true });

    const result = await http.search("tjdft", byNumber("07012341920248070016"));

    expect(result.hits.map((h) => h._id)).toEqual(["TJDFT_JE_2", "TJDFT_TR_3"]);
    expect(retryKinds(events)).toEqual(["partial_shards", "partial_shards"]);
  });

  it("retries a garbage body", async () => {
    const { http, events } = client();
    fake.failNext({ body: '{"took": 3, "hits": {' });

    const result = await http.search("tjdft", byNumber("07133834320258070006"));

    expect(result.hits).toHaveLength(1);
    expect(retryKinds(events)).toEqual(["bad_response"]);
  });

  it("times out a hung request and succeeds on the next attempt", async () => {
    const { http, events } = client({ timeoutMs: 100 });
    fake.failNext({ hang: true });
    const started = performance.now();

    const result = await http.search("tjdft", byNumber("07133834320258070006"));

    expect(result.attempts).toBe(2);
    expect(retryKinds(events)).toEqual(["timeout"]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("does not retry a rejected key, and says how to fix it", async () => {
    const { http } = client({ apiKey: WRONG_KEY });

    const error = await failure(http.search("tjdft", byNumber("07133834320258070006")));

    expect(error.kind).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("DataJud refused the key");
    expect(error.message).toContain("it is mistyped or CNJ rotated it");
    expect(error.message).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(error.message).toContain("DATAJUD_API_KEY");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.authorization).toBe(`APIKey ${WRONG_KEY}`);
  });

  it("does not retry a 400, and reports Elasticsearch's reason", async () => {
    const { http } = client();
    fake.rejectTermsQueries = true;

    const error = await failure(
      http.search("tjdft", { query: { terms: { numeroProcesso: ["07133834320258070006"] } } }),
    );

    expect(error.kind).toBe("bad_request");
    expect(error.message).toContain("parsing_exception");
    expect(error.message).toContain("[terms] query malformed");
    expect(http.requestCount).toBe(1);
  });

  it("does not retry an unknown index, and points at `court`", async () => {
    const { http } = client();

    const error = await failure(http.search("tjzz", byNumber("1")));

    expect(error.kind).toBe("unknown_index");
    expect(error.status).toBe(404);
    expect(error.message).toContain('"tjzz" is not a DataJud court alias');
    expect(error.message).toContain("`court`");
    expect(fake.requests).toHaveLength(1);
  });

  it("gives up with a retryable deadline error when DataJud keeps hanging", async () => {
    const { http } = client({ timeoutMs: 100, totalTimeoutMs: 350, maxAttempts: 10 });
    fake.failAlways({ hang: true });
    const started = performance.now();

    const error = await failure(http.search("tjdft", byNumber("07133834320258070006")));

    expect(error.kind).toBe("deadline");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("did not answer");
    expect(error.attempts).toBeGreaterThanOrEqual(3);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("cancels quickly when the caller aborts mid-request", async () => {
    const { http } = client({ timeoutMs: 5000 });
    fake.failAlways({ hang: true });
    const controller = new AbortController();
    const asked = fake.requests.length;

    const pending = failure(
      http.search("tjdft", byNumber("07133834320258070006"), { signal: controller.signal }),
    );
    await waitFor(() => fake.requests.length > asked, "the request to arrive");
    controller.abort();
    const error = await pending;

    // Cancelled, not timed out (5 s) or retried: the caller's abort ended the request in flight.
    expect(error.kind).toBe("cancelled");
    expect(error.retryable).toBe(false);
    expect(http.requestCount).toBe(1);
  });

  it("applies a fault scoped to one index only to that index", async () => {
    const { http, events } = client();
    fake.failNext({ status: 503, alias: "tjsp" });

    await http.search("tjdft", byNumber("07133834320258070006"));
    const before = retryKinds(events).length;
    await http.search("tjsp", byNumber("1"));

    expect(before).toBe(0);
    expect(retryKinds(events)).toEqual(["server"]);
  });

  it("counts every attempt it sent", async () => {
    const { http } = client({ maxAttempts: 2 });
    fake.failNext({ status: 500 }, { status: 502 });

    await failure(http.search("tjdft", byNumber("1")));
    await http.search("tjdft", byNumber("1"));

    expect(http.requestCount).toBe(3);
    expect(fake.requests).toHaveLength(3);
  });

  it("adds latencyMs to every answer", async () => {
    const { http } = client();
    fake.latencyMs = 120;
    const started = performance.now();

    await http.search("tjdft", byNumber("1"));

    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });
});

describe("the fake's query subset", () => {
  async function ids(body: Record<string, unknown>): Promise<string[]> {
    const { http } = client();
    const result = await http.search("tjdft", body);
    return result.hits.map((h) => h._id);
  }

  it("matches text case-insensitively by tokens", async () => {
    const full = await ids({ query: { match: { "classe.nome": "recurso inominado" } } });
    const tokens = await ids({ query: { match: { "classe.nome": { query: "CÍVEL juizado" } } } });

    expect(full).toEqual(["TJDFT_TR_3"]);
    expect(tokens).toEqual(["TJDFT_JE_2"]);
  });

  it("compares term and terms loosely, through nested arrays of objects", async () => {
    const stringCode = await ids({ query: { term: { "classe.codigo": 436 } } });
    const numberCode = await ids({ query: { term: { "classe.codigo": { value: "92" } } } });
    const nested = await ids({ query: { terms: { "assuntos.codigo": [6226] } } });
    const shared = await ids({ query: { terms: { "assuntos.codigo": ["9608"] } } });

    expect(stringCode).toEqual(["TJDFT_JE_2"]);
    expect(numberCode).toEqual(["TJDFT_G1_1"]);
    expect(nested).toEqual(["TJDFT_JE_2"]);
    expect(shared).toEqual(["TJDFT_G1_1", "TJDFT_JE_2"]);
  });

  it("ranges strings lexicographically and numbers numerically", async () => {
    const dates = await ids({
      query: { range: { dataAjuizamento: { gte: "20240101000000", lt: "20250101000000" } } },
    });
    const values = await ids({ query: { range: { valor: { gt: 500 } } } });

    expect(dates).toEqual(["TJDFT_JE_2", "TJDFT_TR_3"]);
    expect(values).toEqual(["TJDFT_G1_1"]);
  });

  it("combines clauses with bool must, filter, should and must_not", async () => {
    const result = await ids({
      query: {
        bool: {
          filter: { match: { numeroProcesso: "07012341920248070016" } },
          must_not: [{ term: { grau: "TR" } }],
        },
      },
    });
    const either = await ids({
      query: {
        bool: {
          should: [{ term: { grau: "G1" } }, { term: { grau: "TR" } }],
          minimum_should_match: 1,
        },
      },
    });

    expect(result).toEqual(["TJDFT_JE_2"]);
    expect(either).toEqual(["TJDFT_G1_1", "TJDFT_TR_3"]);
  });

  it("sorts and pages with search_after until nothing is left", async () => {
    const { http } = client();
    const seen: string[] = [];
    let after: unknown[] | undefined;

    for (let page = 0; page < 5; page++) {
      const body = {
        size: 2,
        sort: [{ "@timestamp": { order: "asc" } }],
        query: { match_all: {} },
        ...(after ? { search_after: after } : {}),
      };
      const result = await http.search("tjdft", body);
      seen.push(...result.hits.map((h) => h._id));
      after = result.hits.at(-1)?.sort;
      if (result.hits.length < 2) break;
    }

    expect(seen).toEqual(["TJDFT_JE_2", "TJDFT_G1_1", "TJDFT_TR_3"]);
    const desc = await ids({ sort: [{ "@timestamp": "desc" }], size: 1 });
    expect(desc).toEqual(["TJDFT_TR_3"]);
  });

  it("filters _source by dotted paths, includes, or not at all", async () => {
    const { http } = client();
    const query = { match: { numeroProcesso: "07133834320258070006" } };

    const paths = await http.search("tjdft", {
      query,
      _source: ["numeroProcesso", "classe.codigo", "@timestamp"],
    });
    const includes = await http.search("tjdft", {
      query,
      _source: { includes: ["assuntos.codigo"] },
    });
    const none = await http.search("tjdft", { query, _source: false });

    expect(paths.hits[0]?._source).toEqual({
      numeroProcesso: "07133834320258070006",
      classe: { codigo: 92 },
      "@timestamp": "2025-10-03T03:02:11.101Z",
    });
    expect(includes.hits[0]?._source).toEqual({ assuntos: [{ codigo: 9608 }] });
    expect(none.hits[0]?._source).toBeUndefined();
  });

  it("honours size, from and track_total_hits, and refuses a window past 10 000", async () => {
    const { http } = client();

    const first = await http.search("tjdft", { size: 1, track_total_hits: true });
    const second = await http.search("tjdft", { size: 1, from: 1 });
    const untracked = await http.search("tjdft", { size: 1, track_total_hits: false });
    const tooLarge = await failure(http.search("tjdft", { size: 10_001 }));

    expect(first.total).toBe(3);
    expect(first.hits.map((h) => h._id)).toEqual(["TJDFT_G1_1"]);
    expect(second.hits.map((h) => h._id)).toEqual(["TJDFT_JE_2"]);
    expect(untracked.total).toBe(1);
    expect(tooLarge.kind).toBe("bad_request");
    expect(tooLarge.message).toContain("Result window is too large");
  });

  it("answers an unsupported query clause with a 400 instead of an empty result", async () => {
    const { http } = client();

    const error = await failure(http.search("tjdft", { query: { wildcard: { grau: "G*" } } }));

    expect(error.kind).toBe("bad_request");
    expect(error.message).toContain("unknown query [wildcard]");
  });

  it("upserts, removes and replaces documents", async () => {
    const changed = { _id: "TJDFT_G1_1", _source: { ...DOCS[0]?._source, grau: "G2" } };

    fake.upsert("tjdft", changed);
    fake.upsert("tjdft", { _id: "NEW", _source: { numeroProcesso: "1", grau: "G1" } });
    fake.remove("tjdft", "TJDFT_TR_3");
    const afterEdits = await ids({ query: { match_all: {} } });
    const regraded = await ids({ query: { term: { grau: "G2" } } });
    fake.setDocuments("tjdft", []);
    const emptied = await ids({ query: { match_all: {} } });

    expect(afterEdits).toEqual(["TJDFT_G1_1", "TJDFT_JE_2", "NEW"]);
    expect(regraded).toEqual(["TJDFT_G1_1"]);
    expect(emptied).toEqual([]);
  });
});

describe("startFakeDataJud", () => {
  it("ends hung requests on close", async () => {
    const other = await startFakeDataJud();
    other.setDocuments("tjdft", DOCS);
    other.failAlways({ hang: true });
    const pending = fetch(`${other.url}/api_publica_tjdft/_search`, {
      method: "POST",
      headers: { Authorization: `APIKey ${other.apiKey}`, "Content-Type": "application/json" },
      body: "{}",
    }).then(
      () => "answered",
      () => "connection closed",
    );
    while (other.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();

    await other.close();

    expect(await pending).toBe("connection closed");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
