import { describe, expect, it } from "vitest";
import { foldText, stripAccents, terminalText } from "../../src/text.js";

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

describe("terminalText", () => {
  it("writes out every control, bidi and invisible character a court might send, and keeps the rest", () => {
    const hostile =
      "Despacho\u001b[31mVERMELHO\u001b]0;título\u0007\u0000\r\u0008\u009b1m" +
      "\u202egnp.exe\u2066\u200b\u200d\u2060\ufeff\u00ad\u2028\udc00\u{e0041}fim";

    expect(terminalText(hostile)).toBe(
      "Despacho\\x1B[31mVERMELHO\\x1B]0;título\\x07\\x00\\x0D\\x08\\x9B1m" +
        "\\u202Egnp.exe\\u2066\\u200B\\u200D\\u2060\\uFEFF\\xAD\\u2028\\uDC00\\u{E0041}fim",
    );
    expect(terminalText("Conclusão para decisão · 1º grau ⚠ 😀")).toBe(
      "Conclusão para decisão · 1º grau ⚠ 😀",
    );
  });

  it("keeps line breaks and tabs only in whole lines of our own output", () => {
    expect(terminalText("a\tb\nc\r\n")).toBe("a\\x09b\\x0Ac\\x0D\\x0A");
    expect(terminalText("a\tb\nc\r\n", { keepLineBreaks: true })).toBe("a\tb\nc\\x0D\n");
  });
});
