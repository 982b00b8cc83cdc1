import { describe, expect, it } from "vitest";
import {
  type CnjNumber,
  computeCheckDigits,
  parseCnjNumber,
} from "../../../src/datajud/cnj-number.js";
import {
  courtCaseLink,
  courtDocumentLink,
  linkedCourts,
} from "../../../src/datajud/court-links.js";
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

describe("courtDocumentLink (DJEN's link)", () => {
  it("keeps links on a court's host, as real DJEN items carry them", () => {
    for (const url of [
      "https://www3.tjrj.jus.br/gedcacheweb/default.aspx?GEDID=0004B1F4F67C2150D639E14F918727111686C5030B5B3C4B",
      "https://esaj.tjsp.jus.br/cpopg/show.do?processo.numero=1004567-48.2023.8.26.0100",
      "https://pje.trt1.jus.br/consultaprocessual/detalhe-processo/0101129-06.2017.5.01.0000",
      "https://PJE1G.TRF1.JUS.BR:8443/consultapublica/listView.seam?ca=8d7bcea5",
    ]) {
      expect(courtDocumentLink(url)).toBe(new URL(url).href);
    }
  });

  it("sends an http court link as https", () => {
    expect(courtDocumentLink("http://www.tjpa.jus.br/doc?id=1")).toBe(
      "https://www.tjpa.jus.br/doc?id=1",
    );
    expect(courtDocumentLink("http://www.tjpa.jus.br:80/doc")).toBe("https://www.tjpa.jus.br/doc");
  });

  it("drops every other host, look-alikes, credentials and other schemes", () => {
    for (const url of [
      "https://golpe.example/boleto",
      "https://tjsp.jus.br.golpe.example/x",
      "https://golpe.example/?u=https://tjsp.jus.br",
      "https://tjsp.jus.br@golpe.example/x",
      "https://user:senha@esaj.tjsp.jus.br/x",
      "https://jus.br/",
      "https://tjsp.jusbr.com/x",
      "https://esaj.tjsp.jus.br./x",
      "ftp://esaj.tjsp.jus.br/x",
      "javascript:alert(1)//.jus.br",
      "data:text/html,<a>.jus.br</a>",
      `https://esaj.tjsp.jus.br/${"a".repeat(2000)}`,
      "",
      null,
      undefined,
    ]) {
      expect(courtDocumentLink(url)).toBeNull();
    }
  });
});
