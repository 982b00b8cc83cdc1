import { describe, expect, it } from "vitest";
import {
  CaseReader,
  type DataJudSearcher,
  MOVEMENTS_MAX,
} from "../../../src/datajud/case-reader.js";
import { DataJudError } from "../../../src/datajud/errors.js";
import { FINGERPRINT_FIELDS } from "../../../src/datajud/queries.js";

type Body = Record<string, unknown>;
type Hit = { _id: string; _source: unknown };

/** Answers from an in-memory list of records, like DataJud would, recording each body. */
function scriptedSearcher(
  records: Hit[],
  options: {
    pageLimit?: number;
    refuseTerms?: boolean;
    fail?: DataJudError;
    /** Answers holding this record are "too large", as the HTTP client refuses them. */
    hugeRecord?: string;
  } = {},
): DataJudSearcher & { bodies: Body[] } {
  const bodies: Body[] = [];
  return {
    bodies,
    async search(alias, body) {
      bodies.push(body);
      if (options.fail) throw options.fail;
      const query = body.query as {
        terms?: { numeroProcesso: string[] };
        match?: { numeroProcesso: string };
      };
      if (query.terms && options.refuseTerms) {
        throw new DataJudError(
          "bad_request",
          "DataJud refused the query (HTTP 400): [terms] unknown",
          { status: 400 },
        );
      }
      const wanted = new Set(
        query.terms ? query.terms.numeroProcesso : [query.match?.numeroProcesso ?? ""],
      );
      const matching = records.filter((r) =>
        wanted.has((r._source as { numeroProcesso: string }).numeroProcesso),
      );
      if (matching.some((r) => r._id === options.hugeRecord)) {
        throw new DataJudError("too_large", "DataJud's answer is larger than 32 MiB", {
          index: `api_publica_${alias}`,
        });
      }
      const size = Math.min(Number(body.size), options.pageLimit ?? Number.POSITIVE_INFINITY);
      return {
        index: `api_publica_${alias}`,
        url: `http://fake/api_publica_${alias}/_search`,
        fetchedAt: `2026-12-02T10:00:0${bodies.length % 10}.000Z`,
        total: matching.length,
        hits: matching.slice(0, size),
      };
    },
  };
}

function digits(i: number): string {
  return `${String(i).padStart(7, "0")}0020258070006`;
}

function record(i: number, grau = "G1"): Hit {
  return {
    _id: `TJDFT_${grau}_${i}`,
    _source: { numeroProcesso: digits(i), grau, dataHoraUltimaAtualizacao: "2025-01-01T00:00:00Z" },
  };
}

describe("CaseReader batching", () => {
  it("fingerprints 250 numbers of one court in 3 requests", async () => {
    const numbers = Array.from({ length: 250 }, (_, i) => digits(i));
    const searcher = scriptedSearcher(numbers.map((_, i) => record(i)));
    const reader = new CaseReader(searcher, { batchSize: 100 });

    const results = await reader.fingerprintCases("tjdft", numbers);

    expect(searcher.bodies).toHaveLength(3);
    expect(results).toHaveLength(250);
    expect(results.every((r) => r.found && r.fingerprint !== null)).toBe(true);
  });

  it("reports a number DataJud cleanly did not return as not found, with provenance", async () => {
    const searcher = scriptedSearcher([record(1)]);
    const reader = new CaseReader(searcher);

    const [found, missing] = await reader.fingerprintCases("tjdft", [digits(1), digits(2)]);

    expect(found?.found).toBe(true);
    expect(missing?.found).toBe(false);
    expect(missing?.fingerprint).toBeNull();
    expect(missing?.provenance.index).toBe("api_publica_tjdft");
  });

  it("splits a batch whose records do not fit in one answer instead of dropping any", async () => {
    const numbers = Array.from({ length: 8 }, (_, i) => digits(i));
    const records = numbers.flatMap((_, i) => [record(i, "G1"), record(i, "G2")]);
    const searcher = scriptedSearcher(records, { pageLimit: 5 });
    const reader = new CaseReader(searcher);

    const results = await reader.readCases("tjdft", numbers);

    expect(results.every((r) => r.records.length === 2)).toBe(true);
    expect(searcher.bodies.length).toBeGreaterThan(1);
  });

  it("falls back to one query per number when terms is refused, and remembers it", async () => {
    const searcher = scriptedSearcher([record(1), record(2)], { refuseTerms: true });
    const reader = new CaseReader(searcher);

    const first = await reader.fingerprintCases("tjdft", [digits(1), digits(2)]);
    const before = searcher.bodies.length;
    await reader.fingerprintCases("tjdft", [digits(1)]);

    expect(first.map((r) => r.found)).toEqual([true, true]);
    expect(reader.termsRefused).toBe(true);
    expect(searcher.bodies.length - before).toBe(1);
    const last = searcher.bodies.at(-1) ?? {};
    expect(last.query).toEqual({ match: { numeroProcesso: digits(1) } });
    expect(last._source).toEqual([...FINGERPRINT_FIELDS]);
  });

  it("propagates a DataJud failure instead of answering not found", async () => {
    const failure = new DataJudError("partial_shards", "1 of 5 shards failed", { status: 200 });
    const reader = new CaseReader(scriptedSearcher([], { fail: failure }));

    await expect(reader.fingerprintCases("tjdft", [digits(1)])).rejects.toBe(failure);
    await expect(reader.getCase(digits(1), "tjdft")).rejects.toBe(failure);
  });

  it("asks for each distinct number once", async () => {
    const searcher = scriptedSearcher([record(1)]);
    const reader = new CaseReader(searcher);

    const results = await reader.readCases("tjdft", [digits(1), digits(1)]);

    expect(results).toHaveLength(1);
    const query = searcher.bodies[0]?.query as { terms: { numeroProcesso: string[] } };
    expect(query.terms.numeroProcesso).toEqual([digits(1)]);
  });
});

describe("CaseReader and an answer too large to read", () => {
  it("splits the batch until only the huge case is left, and fails that case alone", async () => {
    const records = Array.from({ length: 8 }, (_, i) => record(i));
    const searcher = scriptedSearcher(records, { hugeRecord: "TJDFT_G1_5" });
    const reader = new CaseReader(searcher);

    const read = await reader.readCases(
      "tjdft",
      records.map((_, i) => digits(i)),
    );

    expect(read.map((c) => c.found)).toEqual([true, true, true, true, true, false, true, true]);
    expect(read[5]?.error).toEqual({
      kind: "too_large",
      message: "DataJud's answer is larger than 32 MiB",
    });
    expect(read.filter((c) => c.error !== null)).toHaveLength(1);
    expect(searcher.bodies.length).toBeLessThanOrEqual(8);
  });

  it("fails a fingerprint call whose one number is too large", async () => {
    const reader = new CaseReader(scriptedSearcher([record(1)], { hugeRecord: "TJDFT_G1_1" }));

    const error = await reader.fingerprintCases("tjdft", [digits(1)]).catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: "too_large" });
  });
});

describe("CaseReader and a record with too many movements", () => {
  const crowded = (i: number, movements: number): Hit => ({
    _id: `TJDFT_G1_${i}`,
    _source: {
      numeroProcesso: digits(i),
      grau: "G1",
      movimentos: Array.from({ length: movements }, (_, m) => ({
        codigo: 85,
        nome: "Petição",
        dataHora: new Date(Date.UTC(2020, 0, 1) + m * 60_000).toISOString(),
      })),
    },
  });

  it("fails that case alone, naming the count, and reads the others", async () => {
    const reader = new CaseReader(scriptedSearcher([crowded(1, MOVEMENTS_MAX + 1), crowded(2, 3)]));

    const [big, small] = await reader.readCases("tjdft", [digits(1), digits(2)]);

    expect(big?.found).toBe(false);
    expect(big?.records).toEqual([]);
    expect(big?.error?.kind).toBe("too_large");
    expect(big?.error?.message).toContain(`${(MOVEMENTS_MAX + 1).toLocaleString("en")} movements`);
    expect(small?.found).toBe(true);
    expect(small?.error).toBeNull();
  });

  it("refuses it in get_case's lookup too", async () => {
    const reader = new CaseReader(scriptedSearcher([crowded(1, MOVEMENTS_MAX + 1)]));

    const error = await reader.getCase(digits(1), "tjdft").catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: "too_large" });
  });
});
