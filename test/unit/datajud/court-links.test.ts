import { describe, expect, it } from "vitest";
import {
  type CnjNumber,
  computeCheckDigits,
  parseCnjNumber,
} from "../../../src/datajud/cnj-number.js";
import { courtCaseLink, linkedCourts } from "../../../src/datajud/court-links.js";
import { courtAliasForNumber } from "../../../src/datajud/courts.js";

function numberFor(segment: string, tribunal: string, origin = "0001"): CnjNumber {
  const dd = computeCheckDigits("0004567", "2024", segment, tribunal, origin);
  const parsed = parseCnjNumber(`0004567-${dd}.2024.${segment}.${tribunal}.${origin}`);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const REQUIRED = [
  numberFor("8", "26"),
  numberFor("8", "07"),
  numberFor("8", "19"),
  numberFor("8", "13"),
  ...["01", "02", "03", "04", "05", "06"].map((tr) => numberFor("4", tr)),
  ...Array.from({ length: 24 }, (_, i) => numberFor("5", String(i + 1).padStart(2, "0"))),
];

describe("courtCaseLink", () => {
  it("links TJSP, TJDFT, TJRJ, TJMG, TRF1-6 and every TRT, over https, from the number alone", () => {
    for (const cnj of REQUIRED) {
      const court = courtAliasForNumber(cnj);
      const link = courtCaseLink(cnj, court);

      expect(link, court).not.toBeNull();
      const url = new URL(link?.url ?? "");
      expect(url.protocol).toBe("https:");
      expect(url.hostname.endsWith(".jus.br")).toBe(true);
      expect(link?.url.includes(cnj.formatted) || link?.url.includes(cnj.digits)).toBe(true);
      // Nothing but the number's digits, dots and dashes is put into the URL.
      expect(link?.url).not.toMatch(/[<>"'\s]/);
    }
  });

  it("gives no link where the court has no stable URL pattern", () => {
    expect(courtCaseLink(numberFor("8", "05"), "tjba")).toBeNull();
    expect(courtCaseLink(numberFor("3", "00"), "stj")).toBeNull();
    expect(linkedCourts()).not.toContain("tjba");
  });

  it("opens a labour case on PJe-JT's case page", () => {
    const cnj = numberFor("5", "02");

    expect(courtCaseLink(cnj, "trt2")?.url).toBe(
      `https://pje.trt2.jus.br/consultaprocessual/detalhe-processo/${cnj.formatted}`,
    );
  });
});
