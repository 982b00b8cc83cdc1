import { describe, expect, it } from "vitest";
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  findTaxIds,
  formatTaxId,
  parseTaxId,
} from "../../../src/radar/tax-id.js";

/*
 * Check digits worked out by hand with the Receita Federal's mod-11 rule (a remainder below 2
 * gives 0, else 11 minus it):
 *
 * CPF 529.982.247-25: 5·10+2·9+9·8+9·7+8·6+2·5+2·4+4·3+7·2 = 295; 295 mod 11 = 9 -> 2.
 *   5·11+2·10+9·9+9·8+8·7+2·6+2·5+4·4+7·3+2·2 = 347; 347 mod 11 = 6 -> 5.
 * CNPJ 11.222.333/0001-81: 1·5+1·4+2·3+2·2+2·9+3·8+3·7+3·6+0+0+0+1·2 = 102; 102 mod 11 = 3 -> 8.
 *   1·6+1·5+2·4+2·3+2·2+3·9+3·8+3·7+0+0+0+1·3+8·2 = 120; 120 mod 11 = 10 -> 1.
 * CNPJ 12.ABC.345/01DE-35 (IN RFB 2.229/2024: a letter counts as its code minus 48, A = 17):
 *   1·5+2·4+17·3+18·2+19·9+3·8+4·7+5·6+0·5+1·4+20·3+21·2 = 459; 459 mod 11 = 8 -> 3.
 *   1·6+2·5+17·4+18·3+19·2+3·9+4·8+5·7+0·6+1·5+20·4+21·3+3·2 = 424; 424 mod 11 = 6 -> 5.
 */
describe("CPF and CNPJ check digits", () => {
  it("computes the digits worked out by hand", () => {
    expect(cpfCheckDigits("529982247")).toBe("25");
    expect(cnpjCheckDigits("112223330001")).toBe("81");
    expect(cnpjCheckDigits("12ABC34501DE")).toBe("35");
  });

  it("accepts a CPF and a CNPJ written with or without separators", () => {
    expect(parseTaxId("529.982.247-25")).toEqual({
      ok: true,
      value: { kind: "cpf", digits: "52998224725" },
    });
    expect(parseTaxId(" 11222333000181 ")).toEqual({
      ok: true,
      value: { kind: "cnpj", digits: "11222333000181" },
    });
    expect(parseTaxId("12.abc.345/01de-35")).toEqual({
      ok: true,
      value: { kind: "cnpj", digits: "12ABC34501DE35" },
    });
  });

  it("refuses a wrong check digit, naming the right ones", () => {
    const cnpj = parseTaxId("11.222.333/0001-80");
    const cpf = parseTaxId("529.982.247-52");

    expect(cnpj).toEqual({
      ok: false,
      error: expect.stringContaining(
        "wrong check digits: its first twelve characters call for -81",
      ),
    });
    expect(cpf).toEqual({
      ok: false,
      error: expect.stringContaining("call for -25"),
    });
  });

  it("refuses placeholders and what is neither", () => {
    expect(parseTaxId("000.000.000-00").ok).toBe(false);
    expect(parseTaxId("11.111.111/1111-11").ok).toBe(false);
    expect(parseTaxId("12345").ok).toBe(false);
  });

  it("formats them as written in Brazil", () => {
    expect(formatTaxId({ kind: "cpf", digits: "52998224725" })).toBe("529.982.247-25");
    expect(formatTaxId({ kind: "cnpj", digits: "11222333000181" })).toBe("11.222.333/0001-81");
  });
});

describe("CPF and CNPJ in running text", () => {
  it("finds them with or without separators, only with valid check digits", () => {
    const text =
      "ACME COMÉRCIO LTDA, CNPJ nº 11.222.333/0001-81, e FULANO, CPF 52998224725; conta 11222333000180.";

    const found = findTaxIds(text).map(({ kind, digits }) => ({ kind, digits }));

    expect(found).toEqual([
      { kind: "cnpj", digits: "11222333000181" },
      { kind: "cpf", digits: "52998224725" },
    ]);
  });

  it("never reads a CPF inside a longer number such as a case number", () => {
    expect(findTaxIds("processo 10352894820228260602 e 5299822472512")).toEqual([]);
  });
});
