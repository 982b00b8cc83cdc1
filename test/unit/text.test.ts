import { describe, expect, it } from "vitest";
import { stripAccents } from "../../src/text.js";

describe("stripAccents", () => {
  it("removes the marks of Portuguese letters and keeps everything else", () => {
    expect(stripAccents("Conclusão, Petição, Pública, Crédito, à")).toBe(
      "Conclusao, Peticao, Publica, Credito, a",
    );
    expect(stripAccents("Juntada de Ofício nº 12")).toBe("Juntada de Oficio nº 12");
  });
});
