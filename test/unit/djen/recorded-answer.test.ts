import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseOabRegistration } from "../../../src/djen/oab.js";
import { Publication, toPublication } from "../../../src/djen/publication.js";
import { publicationText } from "../../../src/djen/publication-text.js";
import { djenQuery, mismatch } from "../../../src/djen/query.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { countingDates } from "../../../src/time/counting-dates.js";

/*
 * A DJEN answer recorded from the live API (test/fixtures/djen/README.md): what our normalizer,
 * the filter check and the counting dates make of DJEN as it is, not as our fake imagines it.
 */

const BASE = "https://comunicaapi.pje.jus.br";
const answer = JSON.parse(
  readFileSync(new URL("../../fixtures/djen/recorded-tjrj-answer.json", import.meta.url), "utf8"),
) as { count: number; items: Record<string, unknown>[] };

const publications = answer.items.map((raw) => {
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: BASE });
  if (!result.ok) throw new Error(result.problem);
  return Publication.parse(result.value);
});

function registration(text: string) {
  const parsed = parseOabRegistration(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

describe("a recorded DJEN answer (TJRJ)", () => {
  it("normalizes every item, as many as DJEN counted", () => {
    expect(publications).toHaveLength(answer.count);
    expect(publications.map((p) => [p.id, p.availableOn, p.kind])).toEqual([
      ["417370278", "2025-09-29", "Pauta de julgamento"],
      ["344526996", "2025-08-06", "Pauta de julgamento"],
      ["303585197", "2025-06-23", "Lista de distribuição"],
      ["248164095", "2025-03-28", "Intimação"],
    ]);
  });

  it("reads the intimação's case, unit, document, links and lawyers", () => {
    const intimacao = publications[3];

    expect(intimacao).toMatchObject({
      caseNumber: "09199921120238190001",
      caseNumberFormatted: "0919992-11.2023.8.19.0001",
      court: "TJRJ",
      courtUnit: "27ª Vara Cível da Comarca da Capital",
      documentType: "Sentença",
      active: true,
      cancellation: null,
      certificateUrl: `${BASE}/api/v1/comunicacao/A7mjrylDRjXfn8ztgTWJoVLZwL5MW2/certidao`,
    });
    expect(intimacao?.link).toMatch(/^https:\/\/www3\.tjrj\.jus\.br\/gedcacheweb\//);
    expect(intimacao?.lawyers.map((l) => [l.oabDigits, l.uf])).toEqual([
      ["196913", "RJ"],
      ["94719", "RJ"],
    ]);
    expect(publications[0]?.link).toBeNull();
  });

  it("accepts every item as an answer to the case and to the registration, leading zero or not", () => {
    const byCase = djenQuery({ caseNumber: "0919992-11.2023.8.19.0001" });
    const byOab = djenQuery({ oab: registration("094719/RJ") });
    const otherState = djenQuery({ oab: registration("94719/SP") });

    expect(publications.map((p) => mismatch(byCase, p))).toEqual([null, null, null, null]);
    expect(publications.map((p) => mismatch(byOab, p))).toEqual([null, null, null, null]);
    expect(mismatch(otherState, publications[3] as Publication)).toContain("names no lawyer");
  });

  it("turns the \\n\\r breaks into plain lines", () => {
    const text = publicationText(publications[0]?.text ?? "").text;

    expect(text).not.toContain("\r");
    expect(text.split("\n").map((line) => line.trim())).toContain("EDITAL-PAUTA");
  });

  it("dates the sentence's intimação: made available Friday, published Monday, counting Tuesday", () => {
    expect(countingDates(publications[3]?.availableOn ?? "")).toMatchObject({
      publishedOn: "2025-03-31",
      countingStartsOn: "2025-04-01",
      estimate: true,
    });
  });
});
