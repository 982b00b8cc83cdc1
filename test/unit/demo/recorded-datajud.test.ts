import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { fingerprintQuery } from "../../../src/datajud/queries.js";
import type { RecordedDocument } from "../../../src/demo/elasticsearch/documents.js";
import { createRecordedDataJud } from "../../../src/demo/recorded-datajud.js";
import { systemClock } from "../../../src/time/clock.js";

const KEY = "recorded-key";

function doc(id: string, digits: string, grau: string): RecordedDocument {
  return {
    _id: id,
    _source: { numeroProcesso: digits, grau, id, "@timestamp": `2025-01-0${id.length}T00:00:00Z` },
  };
}

function client(recorded: ReturnType<typeof createRecordedDataJud>, apiKey = KEY) {
  return new DataJudHttpClient({
    baseUrl: "https://api-publica.datajud.cnj.jus.br",
    apiKey,
    fetch: recorded.fetch,
    maxAttempts: 1,
    clock: systemClock,
    random: Math.random,
  });
}

async function failure(promise: Promise<unknown>): Promise<DataJudError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DataJudError) return error;
    throw error;
  }
  throw new Error("expected a DataJud error");
}

describe("createRecordedDataJud", () => {
  it("answers the monitor's batch queries from the recorded documents, in memory", async () => {
    const recorded = createRecordedDataJud({
      apiKey: KEY,
      state: { indices: { tjdft: [doc("A", "111", "G1"), doc("BB", "222", "JE")] } },
    });

    const result = await client(recorded).search("tjdft", fingerprintQuery(["222"]));

    expect(result.hits.map((h) => h._id)).toEqual(["BB"]);
    expect(result.hits[0]?._source).toEqual({
      numeroProcesso: "222",
      grau: "JE",
      id: "BB",
      "@timestamp": "2025-01-02T00:00:00Z",
    });
    expect(result.index).toBe("api_publica_tjdft");
    expect(recorded.requests).toBe(1);
  });

  it("answers the doctor's probe (size 0, match_all) with no hits and the total", async () => {
    const recorded = createRecordedDataJud({
      state: { indices: { tjsp: [doc("A", "1", "G1"), doc("B", "2", "G1")] } },
    });

    const result = await client(recorded).search("tjsp", { size: 0, query: { match_all: {} } });

    expect(result.hits).toEqual([]);
    expect(result.total).toBe(2);
  });

  it("refuses a wrong key, an unknown index and an unsupported query like DataJud", async () => {
    const recorded = createRecordedDataJud({
      apiKey: KEY,
      state: { indices: { tjdft: [doc("A", "1", "G1")] } },
    });

    const auth = await failure(client(recorded, "old-key").search("tjdft", {}));
    const index = await failure(client(recorded).search("tjzz", {}));
    const query = await failure(
      client(recorded).search("tjdft", { query: { wildcard: { grau: "G*" } } }),
    );

    expect(auth.kind).toBe("auth");
    expect(index.kind).toBe("unknown_index");
    expect(query.kind).toBe("bad_request");
    expect(query.message).toContain("unknown query [wildcard]");
  });

  it("switches to another recorded state, dropping indices the new state does not name", async () => {
    const recorded = createRecordedDataJud({
      state: { indices: { tjdft: [doc("A", "1", "G1")], stj: [doc("S", "1", "SUP")] } },
    });
    const http = client(recorded);

    recorded.indices.load({ indices: { tjdft: [doc("A", "1", "G2"), doc("C", "3", "G1")] } });
    const tjdft = await http.search("tjdft", { query: { term: { grau: "G2" } } });
    const stj = await failure(http.search("stj", {}));

    expect(tjdft.hits.map((h) => h._id)).toEqual(["A"]);
    expect(stj.kind).toBe("unknown_index");
  });

  it("answers only _search, and rejects at once when the caller already aborted", async () => {
    const recorded = createRecordedDataJud({ state: { indices: { tjdft: [] } } });
    const controller = new AbortController();
    controller.abort(new Error("stop"));

    const other = await recorded.fetch("https://x.invalid/api_publica_tjdft/_doc/1", {
      method: "POST",
    });
    const aborted = recorded.fetch("https://x.invalid/api_publica_tjdft/_search", {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });

    expect(other.status).toBe(400);
    await expect(aborted).rejects.toThrow("stop");
  });
});
