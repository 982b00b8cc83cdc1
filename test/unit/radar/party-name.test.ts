import { describe, expect, it } from "vitest";
import { nameKey, nameProblem, queryName } from "../../../src/radar/party-name.js";

describe("party names as the radar compares them", () => {
  it("sets accents, case, punctuation and the legal form aside", () => {
    const key = nameKey("ACME COMERCIO");

    expect(nameKey("Acme Comércio Ltda.")).toBe(key);
    expect(nameKey("ACME COMÉRCIO LTDA - ME")).toBe(key);
    expect(nameKey("acme comercio s/a")).toBe(key);
    expect(nameKey("ACME COMERCIO S.A.")).toBe(key);
    expect(nameKey("ACME COMERCIO EPP")).toBe(key);
    expect(nameKey("ACME COMERCIO EIRELI")).toBe(key);
    expect(nameKey("ACME COMERCIO DE ALIMENTOS LTDA")).not.toBe(key);
  });

  it("asks DJEN for the name without accents or punctuation, legal form kept", () => {
    expect(queryName(" Acme  Comércio Ltda. ")).toBe("ACME COMERCIO LTDA");
  });
});

describe("names too short or too common to watch", () => {
  it("refuses a name too short, saying why", () => {
    expect(nameProblem("ACME")).toMatch(/too short to watch \(4 letters; at least 6\)/);
    expect(nameProblem("J. S.")).toMatch(/too short/);
  });

  it("refuses a single first name or surname among Brazil's commonest (IBGE)", () => {
    expect(nameProblem("Maria")).toMatch(/single common name .* thousands of people/);
    expect(nameProblem("SILVA")).toMatch(/single common name/);
  });

  it("refuses two common names, particles aside, and generic company words", () => {
    expect(nameProblem("Maria da Silva")).toMatch(/only of common Brazilian names/);
    expect(nameProblem("José dos Santos")).toMatch(/only of common Brazilian names/);
    expect(nameProblem("Comércio e Serviços Ltda")).toMatch(/only of generic words/);
    expect(nameProblem("BRASIL")).toMatch(/single generic word/);
  });

  it("accepts a full name, a razão social and a distinctive single word", () => {
    expect(nameProblem("Maria Aparecida de Souza Lima")).toBeNull();
    expect(nameProblem("ACME COMÉRCIO LTDA")).toBeNull();
    expect(nameProblem("PETROBRAS")).toBeNull();
  });
});
