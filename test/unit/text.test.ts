import { describe, expect, it } from "vitest";
import { foldText, stripAccents } from "../../src/text.js";

describe("stripAccents", () => {
  it("removes the marks of Portuguese letters and keeps everything else", () => {
    expect(stripAccents("Conclusão, Petição, Pública, Crédito, à")).toBe(
      "Conclusao, Peticao, Publica, Credito, a",
    );
    expect(stripAccents("Juntada de Ofício nº 12")).toBe("Juntada de Oficio nº 12");
  });
});

describe("foldText", () => {
  it("ignores case, accents and runs of whitespace, and keeps `?`", () => {
    const forms = [
      "Conclusão  para DECISÃO",
      " conclusao para decisao ",
      "CONCLUSÃO\tpara decisão",
    ];

    expect(new Set(forms.map(foldText))).toEqual(new Set(["conclusao para decisao"]));
    expect(foldText("Decis?o")).toBe("decis?o");
  });
});
