import { describe, expect, it } from "vitest";
import { DjenError } from "../../../src/djen/errors.js";
import { type Publication, toPublication } from "../../../src/djen/publication.js";
import { djenQuery, mismatch, queryParams } from "../../../src/djen/query.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { djenItem } from "../../fakes/fake-djen.js";

const SP = { number: "123456", uf: "SP" } as const;

function publication(options: Parameters<typeof djenItem>[0]): Publication {
  const raw = djenItem(options);
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  return result.value;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DjenError);
    expect((error as DjenError).kind).toBe("invalid_input");
    return (error as DjenError).message;
  }
  throw new Error("expected a refusal");
}

describe("djenQuery", () => {
  it("normalizes a case number, an OAB variant, a court and a window", () => {
    const query = djenQuery({
      caseNumber: "0713383-43.2025.8.07.0006",
      oab: SP,
      oabVariant: "123456-A",
      court: " tjdft ",
      from: "2025-09-29",
      to: "2025-09-30",
    });

    expect(query).toEqual({
      caseNumber: "07133834320258070006",
      oab: { number: "123456-A", registration: SP },
      court: "TJDFT",
      from: "2025-09-29",
      to: "2025-09-30",
    });
  });

  it("sends DJEN's parameter names, page and page size", () => {
    const query = djenQuery({ oab: SP, from: "2025-09-29", to: "2025-09-30", court: "TJSP" });

    const params = Object.fromEntries(queryParams(query, 2, 50));

    expect(params).toEqual({
      numeroOab: "123456",
      ufOab: "SP",
      siglaTribunal: "TJSP",
      dataDisponibilizacaoInicio: "2025-09-29",
      dataDisponibilizacaoFim: "2025-09-30",
      pagina: "2",
      itensPorPagina: "50",
    });
  });

  it("says what to fix in a bad query", () => {
    expect(refusal(() => djenQuery({ court: "TJSP" }))).toMatch(
      /needs a case number, an OAB registration or a party.s name/,
    );
    expect(refusal(() => djenQuery({ caseNumber: "0713383-44.2025.8.07.0006" }))).toMatch(
      /check digits are 44 but should be 43/,
    );
    expect(refusal(() => djenQuery({ oab: SP, from: "2025-09-30" }))).toMatch(/both dates/);
    expect(refusal(() => djenQuery({ oab: SP, from: "2025-09-30", to: "2025-09-29" }))).toMatch(
      /starts \(2025-09-30\) after it ends/,
    );
    expect(refusal(() => djenQuery({ oab: SP, from: "29/09/2025", to: "2025-09-30" }))).toMatch(
      /YYYY-MM-DD/,
    );
    expect(refusal(() => djenQuery({ oab: SP, court: "TJ SP" }))).toMatch(/court acronym/);
    expect(refusal(() => djenQuery({ oab: SP, oabVariant: "123456&x=1" }))).toMatch(
      /not an OAB number/,
    );
  });
});

describe("mismatch", () => {
  const window = { from: "2025-09-29", to: "2025-09-30" };

  it("accepts an item that answers every filter", () => {
    const query = djenQuery({ oab: SP, court: "TJDFT", ...window });

    expect(mismatch(query, publication({ id: 1, date: "2025-09-30" }))).toBeNull();
  });

  it("accepts a lawyer stored with a suffix or leading zero", () => {
    const query = djenQuery({ oab: SP, oabVariant: "123456-O", ...window });
    const item = publication({ id: 2, lawyers: [{ name: "X", oab: "0123456-O", uf: "SP" }] });

    expect(mismatch(query, item)).toBeNull();
  });

  it.each([
    [
      "another case",
      { caseNumber: "0713383-43.2025.8.07.0006" },
      { caseNumber: "09199921120238190001" },
      /is for case 09199921120238190001, not 07133834320258070006/,
    ],
    [
      "no lawyer of the registration",
      { oab: SP },
      { lawyers: [{ name: "ANA ADVOGADA", oab: "123456", uf: "RJ" }] },
      /names no lawyer 123456\/SP \(it names 123456\/RJ\)/,
    ],
    ["another court", { oab: SP, court: "TJSP" }, {}, /is from TJDFT, not TJSP/],
    [
      "another date",
      { oab: SP, ...window },
      { date: "2025-09-26" },
      /outside 2025-09-29 to 2025-09-30/,
    ],
  ])("refuses an item for %s", (_what, input, item, reason) => {
    const query = djenQuery(input);

    expect(mismatch(query, publication({ id: 3, ...item }))).toMatch(reason);
  });
});
