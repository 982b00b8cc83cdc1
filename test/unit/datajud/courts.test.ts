import { describe, expect, it } from "vitest";
import {
  type CnjNumber,
  computeCheckDigits,
  parseCnjNumber,
} from "../../../src/datajud/cnj-number.js";
import {
  COURTS,
  courtAliasForNumber,
  findCourt,
  indexName,
  lookupIndices,
  parseCourts,
  preferIndex,
  resolveCourt,
  SEGMENTS,
  SUCCESSOR_INDICES,
  segmentOfNumber,
  successorNote,
} from "../../../src/datajud/courts.js";
import courtsJson from "../../../src/datajud/data/courts.json" with { type: "json" };
import { type DataJudErrorKind, isDataJudError } from "../../../src/datajud/errors.js";

/** A valid number for segment J and court TR (check digits computed, not typed). */
function numberFor(segment: string, tribunal: string, origin = "0001"): CnjNumber {
  const sequence = "0001234";
  const year = "2023";
  const dd = computeCheckDigits(sequence, year, segment, tribunal, origin);
  const parsed = parseCnjNumber(`${sequence}-${dd}.${year}.${segment}.${tribunal}.${origin}`);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

function errorOf(run: () => unknown): { kind: DataJudErrorKind; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!isDataJudError(error)) throw error;
    return { kind: error.kind, message: error.message };
  }
}

/** CNJ's TR order for segments 6 and 8 (Resolução 65/2008), not alphabetical by state code. */
const UF_BY_TR =
  "ac al ap am ba ce df es go ma mt ms mg pa pb pr pe pi rj rn rs ro rr sc se sp to".split(" ");

describe("COURTS", () => {
  it("lists the 91 public indices with unique aliases", () => {
    const aliases = COURTS.map((c) => c.alias);

    expect(COURTS).toHaveLength(91);
    expect(new Set(aliases).size).toBe(91);
  });

  it("has the expected number of courts per segment", () => {
    const counts = Object.fromEntries(
      SEGMENTS.map((s) => [s, COURTS.filter((c) => c.segment === s).length]),
    );

    expect(counts).toEqual({
      superior: 4,
      federal: 6,
      state: 27,
      labor: 24,
      electoral: 27,
      military: 3,
    });
  });

  it("uses DataJud's alias spelling", () => {
    const bySegment = (segment: string): string[] =>
      COURTS.filter((c) => c.segment === segment).map((c) => c.alias);

    expect(bySegment("superior")).toEqual(["tst", "tse", "stj", "stm"]);
    expect(bySegment("federal")).toEqual(["trf1", "trf2", "trf3", "trf4", "trf5", "trf6"]);
    expect(bySegment("state")).toEqual(
      "tjac tjal tjam tjap tjba tjce tjdft tjes tjgo tjma tjmg tjms tjmt tjpa tjpb tjpe tjpi tjpr tjrj tjrn tjro tjrr tjrs tjsc tjse tjsp tjto".split(
        " ",
      ),
    );
    expect(bySegment("labor")).toEqual(Array.from({ length: 24 }, (_, i) => `trt${i + 1}`));
    expect(bySegment("electoral")).toContain("tre-dft");
    expect(bySegment("electoral").every((a) => /^tre-[a-z]{2,3}$/.test(a))).toBe(true);
    expect(bySegment("military")).toEqual(["tjmmg", "tjmrs", "tjmsp"]);
  });

  it("gives every court its Portuguese name", () => {
    const names = Object.fromEntries(COURTS.map((c) => [c.alias, c.name]));

    expect(names.tjsp).toBe("Tribunal de Justiça de São Paulo");
    expect(names.tjdft).toBe("Tribunal de Justiça do Distrito Federal e dos Territórios");
    expect(names.trf3).toBe("Tribunal Regional Federal da 3ª Região");
    expect(names.trt15).toBe("Tribunal Regional do Trabalho da 15ª Região");
    expect(names["tre-dft"]).toBe("Tribunal Regional Eleitoral do Distrito Federal");
    expect(names["tre-ba"]).toBe("Tribunal Regional Eleitoral da Bahia");
    expect(names.stj).toBe("Superior Tribunal de Justiça");
    expect(names.tjmrs).toBe("Tribunal de Justiça Militar do Rio Grande do Sul");
    expect(COURTS.every((c) => c.name.length > 10)).toBe(true);
  });
});

/**
 * Res. CNJ 65/2008 art. 1 § 4: the justice segment (J) of each kind of court; § 5: TR 00 for the
 * superior courts, the region for TRFs (01 to 06, Res. CNJ 477/2022) and TRTs (01 to 24), the
 * state in CNJ's order (UF_BY_TR) for TJs, TREs and TJMs.
 */
describe("data/courts.json", () => {
  const table = parseCourts(courtsJson);
  const ufOf = (tr: string | null): string | undefined =>
    tr === null ? undefined : UF_BY_TR[Number(tr) - 1];

  it("names its source, CNJ's Endpoints page, and the resolution the codes follow", () => {
    expect(table.url).toBe("https://datajud-wiki.cnj.jus.br/api-publica/endpoints");
    expect(table.numbering.source).toMatch(/^Res\. CNJ 65\/2008, art\. 1, §§ 4 and 5/u);
    expect(table.courts).toHaveLength(91);
  });

  it("gives each court the J of its segment", () => {
    const jBySegment = {
      federal: ["4"],
      state: ["8"],
      labor: ["5"],
      electoral: ["6"],
      military: ["9"],
      superior: ["3", "5", "6", "7"],
    };
    const wrong = table.courts.filter((c) => !jBySegment[c.segment].includes(c.j));

    expect(wrong).toEqual([]);
  });

  it("gives each court the TR its alias names: 00 above, the region, or the state in CNJ's order", () => {
    const prefix: Record<string, string> = { state: "tj", electoral: "tre-", military: "tjm" };
    const expected = ({ alias, segment, tr }: (typeof table.courts)[number]): boolean => {
      const region = /^tr[ft](\d+)$/u.exec(alias)?.[1];
      if (region !== undefined) return Number(tr) === Number(region);
      const own = prefix[segment];
      if (own !== undefined) return alias === `${own}${ufOf(tr) === "df" ? "dft" : ufOf(tr)}`;
      return tr === "00" || (tr === null && (alias === "stj" || alias === "stm"));
    };
    const wrong = table.courts.filter((c) => !expected(c)).map((c) => c.alias);

    expect(wrong).toEqual([]);
  });

  it("sends each court's own J.TR to that court's index", () => {
    const aliases = table.courts.map((c) => courtAliasForNumber(numberFor(c.j, c.tr ?? "00")));

    expect(aliases).toEqual(table.courts.map((c) => c.alias));
  });

  it("refuses a damaged table, naming the place, a code listed twice or an unknown successor", () => {
    const [first, second] = courtsJson.courts;

    expect(() => parseCourts({ ...courtsJson, courts: [{ ...first, segment: "x" }] })).toThrow(
      /courts\.json is damaged at courts\.0\.segment/u,
    );
    expect(() =>
      parseCourts({ ...courtsJson, courts: [first, { ...second, j: first?.j, tr: first?.tr }] }),
    ).toThrow(/courts\.json: 5\.00 is listed twice/u);
    expect(() => parseCourts({ ...courtsJson, courts: [first] })).toThrow(
      /successor court "trf1" is not an index/u,
    );
  });
});

describe("findCourt and indexName", () => {
  it("finds a court case-insensitively, by alias or by index name", () => {
    const found = ["tjsp", "TJSP", " api_publica_tjsp ", "API_PUBLICA_TJSP"].map(
      (a) => findCourt(a)?.alias,
    );

    expect(found).toEqual(["tjsp", "tjsp", "tjsp", "tjsp"]);
  });

  it("returns undefined for an unknown alias", () => {
    const found = [findCourt("tjxx"), findCourt("stf"), findCourt("")];

    expect(found).toEqual([undefined, undefined, undefined]);
  });

  it("builds the index name", () => {
    const names = [indexName("tjsp"), indexName("tre-dft")];

    expect(names).toEqual(["api_publica_tjsp", "api_publica_tre-dft"]);
  });
});

describe("courtAliasForNumber", () => {
  it("maps the real example numbers", () => {
    const aliases = [
      "0713383-43.2025.8.07.0006",
      "1035289-48.2022.8.26.0602",
      "0013075-90.2000.4.01.3800",
    ].map((n) => {
      const parsed = parseCnjNumber(n);
      if (!parsed.ok) throw new Error(parsed.error);
      return courtAliasForNumber(parsed.value);
    });

    expect(aliases).toEqual(["tjdft", "tjsp", "trf1"]);
  });

  it("maps state justice (J=8) TR 01..27 in CNJ's order", () => {
    const aliases = UF_BY_TR.map((_, i) => courtAliasForNumber(numberFor("8", two(i + 1))));

    expect(aliases).toEqual(UF_BY_TR.map((uf) => (uf === "df" ? "tjdft" : `tj${uf}`)));
  });

  it("maps electoral justice (J=6): TR 00 to TSE, 01..27 to the TREs", () => {
    const aliases = UF_BY_TR.map((_, i) => courtAliasForNumber(numberFor("6", two(i + 1))));

    expect(courtAliasForNumber(numberFor("6", "00"))).toBe("tse");
    expect(aliases).toEqual(UF_BY_TR.map((uf) => (uf === "df" ? "tre-dft" : `tre-${uf}`)));
  });

  it("maps labor justice (J=5): TR 00 to TST, 01..24 to the TRTs", () => {
    const aliases = Array.from({ length: 24 }, (_, i) =>
      courtAliasForNumber(numberFor("5", two(i + 1))),
    );

    expect(courtAliasForNumber(numberFor("5", "00"))).toBe("tst");
    expect(aliases).toEqual(Array.from({ length: 24 }, (_, i) => `trt${i + 1}`));
  });

  it("maps federal justice (J=4) TR 01..06 to the TRFs", () => {
    const aliases = [1, 2, 3, 4, 5, 6].map((n) => courtAliasForNumber(numberFor("4", two(n))));

    expect(aliases).toEqual(["trf1", "trf2", "trf3", "trf4", "trf5", "trf6"]);
  });

  it("maps STJ (J=3) and the federal military justice (J=7) whatever the TR", () => {
    const aliases = [
      courtAliasForNumber(numberFor("3", "00")),
      courtAliasForNumber(numberFor("7", "00")),
      courtAliasForNumber(numberFor("7", "11")),
    ];

    expect(aliases).toEqual(["stj", "stm", "stm"]);
  });

  it("maps state military justice (J=9) for MG, RS and SP only", () => {
    const aliases = ["13", "21", "26"].map((tr) => courtAliasForNumber(numberFor("9", tr)));
    const other = errorOf(() => courtAliasForNumber(numberFor("9", "05")));

    expect(aliases).toEqual(["tjmmg", "tjmrs", "tjmsp"]);
    expect(other?.kind).toBe("unsupported_court");
    expect(other?.message).toContain('pass court "tjba"');
  });

  it("reaches every one of the 91 courts from some number", () => {
    const reached = new Set<string>();
    const plan: [string, number[]][] = [
      ["3", [0]],
      ["4", [1, 2, 3, 4, 5, 6]],
      ["5", Array.from({ length: 25 }, (_, i) => i)],
      ["6", Array.from({ length: 28 }, (_, i) => i)],
      ["7", [0]],
      ["8", Array.from({ length: 27 }, (_, i) => i + 1)],
      ["9", [13, 21, 26]],
    ];

    for (const [segment, trs] of plan) {
      for (const tr of trs) reached.add(courtAliasForNumber(numberFor(segment, two(tr))));
    }

    expect([...reached].sort()).toEqual(COURTS.map((c) => c.alias).sort());
  });

  it("explains that STF is not in the public API", () => {
    const error = errorOf(() => courtAliasForNumber(numberFor("1", "00")));

    expect(error?.kind).toBe("unsupported_court");
    expect(error?.message).toContain("STF");
    expect(error?.message).toContain("not in DataJud's public API");
    expect(error?.message).toContain("STF portal");
  });

  it("refuses CNJ's own numbers (J=2) and the councils (TR 90)", () => {
    const kinds = [
      errorOf(() => courtAliasForNumber(numberFor("2", "00")))?.kind,
      errorOf(() => courtAliasForNumber(numberFor("4", "90")))?.kind,
      errorOf(() => courtAliasForNumber(numberFor("5", "90")))?.kind,
    ];

    expect(kinds).toEqual(["unsupported_court", "unsupported_court", "unsupported_court"]);
  });

  it("calls an out-of-range TR invalid input, naming the valid range", () => {
    const cases = [
      errorOf(() => courtAliasForNumber(numberFor("8", "28"))),
      errorOf(() => courtAliasForNumber(numberFor("8", "00"))),
      errorOf(() => courtAliasForNumber(numberFor("4", "07"))),
      errorOf(() => courtAliasForNumber(numberFor("5", "25"))),
      errorOf(() => courtAliasForNumber(numberFor("6", "30"))),
      errorOf(() => courtAliasForNumber(numberFor("9", "40"))),
    ];

    for (const error of cases) expect(error?.kind).toBe("invalid_input");
    expect(cases[0]?.message).toContain(
      "court code (TR) 28 does not exist in state justice (segment 8), it must be 01 to 27",
    );
  });
});

describe("resolveCourt", () => {
  it("derives the court from the number when none is given", () => {
    const court = resolveCourt(numberFor("8", "26"));

    expect(court).toBe("tjsp");
  });

  it("lets an explicit court win, so a superior court's record of an origin number is read there", () => {
    const tjspNumber = numberFor("8", "26");

    const courts = [resolveCourt(tjspNumber, "stj"), resolveCourt(tjspNumber, "API_PUBLICA_STJ")];

    expect(courts).toEqual(["stj", "stj"]);
  });

  it("reads an explicit court even for numbers the derivation refuses", () => {
    const stfNumber = numberFor("1", "00");

    const court = resolveCourt(stfNumber, "stj");

    expect(court).toBe("stj");
  });

  it("rejects an unknown explicit alias and says where to find the valid ones", () => {
    const error = errorOf(() => resolveCourt(numberFor("8", "26"), "tjxx"));

    expect(error?.kind).toBe("invalid_input");
    expect(error?.message).toContain('"tjxx" is not a DataJud court alias');
    expect(error?.message).toContain("list_courts");
    expect(error?.message).toContain("docs/watchlist.md");
  });

  it("passes the derivation's errors through", () => {
    const error = errorOf(() => resolveCourt(numberFor("1", "00")));

    expect(error?.kind).toBe("unsupported_court");
  });
});

describe("segmentOfNumber", () => {
  it("names the segment of every kind of number", () => {
    const segments = [
      ["1", "00"],
      ["2", "00"],
      ["3", "00"],
      ["4", "03"],
      ["5", "00"],
      ["5", "02"],
      ["6", "00"],
      ["6", "26"],
      ["7", "01"],
      ["8", "26"],
      ["9", "26"],
    ].map(([j, tr]) => segmentOfNumber(numberFor(j ?? "", tr ?? "")));

    expect(segments).toEqual([
      "supreme",
      "cnj",
      "superior",
      "federal",
      "superior",
      "labor",
      "superior",
      "electoral",
      "superior",
      "state",
      "military",
    ]);
  });

  it("agrees with the segment of the court a number maps to", () => {
    const numbers = [
      numberFor("4", "01"),
      numberFor("5", "00"),
      numberFor("6", "07"),
      numberFor("9", "13"),
    ];

    const pairs = numbers.map((n) => [
      segmentOfNumber(n),
      findCourt(courtAliasForNumber(n))?.segment,
    ]);

    for (const [fromNumber, fromCourt] of pairs) expect(fromNumber).toBe(fromCourt);
  });
});

describe("successor indices", () => {
  it("asks a TRF1 number in TRF1 and then TRF6, and any other court's number only there", () => {
    expect(lookupIndices(numberFor("4", "01", "3800"), "trf1")).toEqual(["trf1", "trf6"]);
    expect(lookupIndices(numberFor("4", "06", "3800"), "trf6")).toEqual(["trf6"]);
    expect(lookupIndices(numberFor("8", "26"), "tjsp")).toEqual(["tjsp"]);
  });

  it("asks an explicit other court alone", () => {
    expect(lookupIndices(numberFor("4", "01"), "trf6")).toEqual(["trf6"]);
    expect(lookupIndices(numberFor("4", "01"), "stj")).toEqual(["stj"]);
  });

  it("asks where the case was last found first, if it is still a candidate", () => {
    expect(preferIndex(["trf1", "trf6"], "trf6")).toEqual(["trf6", "trf1"]);
    expect(preferIndex(["trf1", "trf6"], null)).toEqual(["trf1", "trf6"]);
    expect(preferIndex(["tjsp"], "trf6")).toEqual(["tjsp"]);
  });

  it("names only real courts, and explains a case read from a successor", () => {
    for (const s of SUCCESSOR_INDICES) {
      expect(findCourt(s.court)?.alias).toBe(s.court);
      expect(findCourt(s.successor)?.alias).toBe(s.successor);
    }
    expect(successorNote("trf1", "api_publica_trf6")).toMatch(/TRF6 assumiu em 2022/);
    expect(successorNote("trf1", "api_publica_trf1")).toBeNull();
    expect(successorNote("tjsp", "api_publica_trf6")).toBeNull();
  });
});
