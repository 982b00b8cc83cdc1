import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import {
  batchCaseQuery,
  caseQuery,
  decodeCursor,
  encodeCursor,
  FINGERPRINT_FIELDS,
  fingerprintQuery,
  searchCasesQuery,
} from "../../../src/datajud/queries.js";

describe("query builders", () => {
  it("looks one case up by its 20 digits", () => {
    expect(caseQuery("07133834320258070006")).toEqual({
      size: 20,
      query: { match: { numeroProcesso: "07133834320258070006" } },
    });
  });

  it("asks for many numbers in one terms query with room for every instance", () => {
    const digits = Array.from({ length: 100 }, (_, i) => String(i).padStart(20, "0"));

    const body = batchCaseQuery(digits);

    expect(body.query).toEqual({ terms: { numeroProcesso: digits } });
    expect(body.size).toBe(1000);
    expect(body.track_total_hits).toBe(true);
  });

  it("restricts a fingerprint query to the fields a fingerprint needs", () => {
    const body = fingerprintQuery(["07133834320258070006"]);

    expect(body._source).toEqual([...FINGERPRINT_FIELDS]);
    expect(body._source).toContain("dataHoraUltimaAtualizacao");
    expect(body._source).toContain("@timestamp");
    expect(body._source).not.toContain("movimentos");
  });

  it("converts ISO filing dates into DataJud's stored yyyyMMddHHmmss form", () => {
    const body = searchCasesQuery(
      { classCode: 7, filedFrom: "2023-01-01", filedTo: "2023-12-31" },
      10,
    );

    expect(body.query).toEqual({
      bool: {
        filter: [
          { term: { "classe.codigo": 7 } },
          { range: { dataAjuizamento: { gte: "20230101000000", lte: "20231231235959" } } },
        ],
      },
    });
  });

  it("refuses a search without filters, saying which filters exist", () => {
    expect(() => searchCasesQuery({}, 10)).toThrow(/at least one filter/);
  });

  it("round-trips search_after cursors and rejects foreign ones", () => {
    const cursor = encodeCursor([1717000000000, "x"]);

    expect(decodeCursor(cursor)).toEqual([1717000000000, "x"]);
    expect(searchCasesQuery({ classCode: 1 }, 5, cursor).search_after).toEqual([
      1717000000000,
      "x",
    ]);
    expect(() => decodeCursor("not-a-cursor")).toThrow(DataJudError);
  });
});
