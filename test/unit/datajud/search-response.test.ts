import { describe, expect, it } from "vitest";
import { readSearchAnswer, type SearchAnswer } from "../../../src/datajud/search-response.js";

const NOW = Date.parse("2026-12-02T10:00:00.000Z");

function answer(patch: Partial<SearchAnswer>): SearchAnswer {
  return {
    index: "api_publica_tjdft",
    url: "https://datajud.example/api_publica_tjdft/_search",
    expectsHits: true,
    attempt: 1,
    status: 200,
    retryAfter: null,
    text: "{}",
    now: NOW,
    ...patch,
  };
}

const COMPLETE = {
  took: 12,
  timed_out: false,
  _shards: { total: 3, successful: 3, failed: 0 },
  hits: { total: { value: 1 }, hits: [{ _id: "a", _source: { numeroProcesso: "1" } }] },
};

describe("readSearchAnswer", () => {
  it("returns the hits of a complete answer, stamped with when it arrived", () => {
    const read = readSearchAnswer(answer({ text: JSON.stringify(COMPLETE), attempt: 2 }));

    expect(read).toEqual({
      ok: true,
      result: {
        index: "api_publica_tjdft",
        url: "https://datajud.example/api_publica_tjdft/_search",
        fetchedAt: "2026-12-02T10:00:00.000Z",
        total: 1,
        hits: [{ _id: "a", _index: "api_publica_tjdft", _source: { numeroProcesso: "1" } }],
        attempts: 2,
        tookMs: 12,
      },
    });
  });

  it("never takes an answer with a shard missing, or a total without its hits, as complete", () => {
    const partial = { ...COMPLETE, _shards: { total: 3, successful: 2, failed: 0 } };
    const empty = { ...COMPLETE, hits: { total: { value: 4 }, hits: [] } };

    const shards = readSearchAnswer(answer({ text: JSON.stringify(partial) }));
    const hits = readSearchAnswer(answer({ text: JSON.stringify(empty) }));

    expect(shards).toMatchObject({ ok: false, kind: "partial_shards" });
    expect(hits).toMatchObject({ ok: false, kind: "bad_response" });
  });

  it("reads a refused key, a rate limit with its wait, and an overloaded cluster by their kinds", () => {
    const key = readSearchAnswer(answer({ status: 401 }));
    const limited = readSearchAnswer(answer({ status: 429, retryAfter: "30" }));
    const rejected = readSearchAnswer(
      answer({
        status: 503,
        text: JSON.stringify({ error: { type: "es_rejected_execution_exception" } }),
      }),
    );

    expect(key).toMatchObject({ ok: false, kind: "auth", options: { status: 401 } });
    expect(limited).toMatchObject({
      ok: false,
      kind: "rate_limited",
      retryAfterMs: 30_000,
      options: { retryAfterSeconds: 30 },
    });
    expect(rejected).toMatchObject({ ok: false, kind: "rejected" });
  });
});
