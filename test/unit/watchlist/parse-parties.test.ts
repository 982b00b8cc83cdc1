import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { reported, valid, yaml } from "./watchlist-test-kit.js";

describe("parseWatchlist: watched parties (the radar)", () => {
  it("reads a party with its CNPJ, aliases, watchers and narrowing", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "parties:",
      '  - name: "ACME Comércio Ltda."',
      '    cpf_cnpj: "11.222.333/0001-81"',
      '    aliases: ["ACME Alimentos", "Acme Comercio S/A"]',
      "    notify: [ana@example.com]",
      "    courts: [tjsp, TRF3]",
      "    ufs: [sp]",
      "  - name: Maria Aparecida de Souza Lima",
      "    later: publications",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.parties).toEqual([
      {
        key: "cnpj:11222333000181",
        name: "ACME Comércio Ltda.",
        document: { kind: "cnpj", digits: "11222333000181" },
        aliases: ["ACME Alimentos", "Acme Comercio S/A"],
        queries: ["ACME COMERCIO LTDA", "ACME ALIMENTOS", "ACME COMERCIO SA"],
        notify: ["escritorio@example.com", "ana@example.com"],
        channels: [],
        courts: ["TJSP", "TRF3"],
        ufs: ["SP"],
        later: "none",
        line: 4,
      },
      expect.objectContaining({
        key: "name:MARIA APARECIDA DE SOUZA LIMA",
        document: null,
        notify: ["escritorio@example.com"],
        later: "publications",
        line: 10,
      }),
    ]);
  });

  it("refuses an alias that repeats the name", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "parties:",
      '  - name: "ACME Comércio Ltda."',
      '    aliases: ["ACME COMERCIO LTDA"]',
    );

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      '5:15 "ACME COMERCIO LTDA" is already this party\'s name or an alias (compared without accents or punctuation); keep it once',
    ]);
  });

  it("refuses a name too short or too common and a CNPJ with a wrong check digit, saying why", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "parties:",
      "  - name: ACME",
      "  - name: Maria",
      "  - name: ACME COMERCIO LTDA",
      '    cpf_cnpj: "11.222.333/0001-80"',
      "  - name: ACME INDUSTRIA LTDA",
      "    cpf_cnpj: 11222333000181",
    );

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      '4:11 "ACME" is too short to watch (4 letters; at least 6): DJEN\'s name search would bring every party whose name has it; write the full name or razão social',
      '5:11 "Maria" is a single common name (one of the commonest in Brazil, IBGE): it would match thousands of people; write the full name',
      "7:15 CNPJ 11.222.333/0001-80 has wrong check digits: its first twelve characters call for -81; check the number",
      '9:15 write the CPF/CNPJ in quotes ("11222333000181"): unquoted, YAML reads it as a number and drops its leading zeros',
    ]);
  });

  it("refuses a party nobody hears of, a party listed twice, bad courts and states", () => {
    const text = yaml(
      "parties:",
      '  - name: "ACME COMERCIO LTDA"',
      '    cpf_cnpj: "11222333000181"',
      "    notify: [ana@example.com]",
      '  - name: "ACME ALIMENTOS"',
      '    cpf_cnpj: "11.222.333/0001-81"',
      "    notify: [ana@example.com]",
      '  - name: "BETA TRANSPORTES LTDA"',
      "    courts: [TJ SP]",
      "    ufs: [XX]",
    );

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      "5:11 11.222.333/0001-81 is already watched on line 2; keep one entry (add the other names as aliases)",
      "8:5 nobody would hear of this party's new lawsuits: add notify: (or channels:) to it, or addresses to defaults.notify",
      '9:14 "TJ SP" is not a court as DJEN names it, like TJSP, TRF3 or TRT2',
      '10:11 "XX" is not a Brazilian state\'s code (SP, RJ, MG...)',
    ]);
  });
});
