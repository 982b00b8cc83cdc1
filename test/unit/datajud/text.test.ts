import { describe, expect, it } from "vitest";
import { repairMojibake } from "../../../src/datajud/text.js";

describe("repairMojibake", () => {
  it("repairs UTF-8 that was read as Latin-1, alone or mixed with correct text", () => {
    const repaired = [
      repairMojibake("Ã³rgÃ£o"),
      repairMojibake("alteração de competência do Ã³rgÃ£o"),
      repairMojibake("DECISÃƒO"),
      repairMojibake("â€œcitaçãoâ€\u009d"),
    ];

    expect(repaired).toEqual([
      "órgão",
      "alteração de competência do órgão",
      "DECISÃO",
      "“citação”",
    ]);
  });

  it("leaves correct text, `?` losses and anything it cannot decode as sent", () => {
    const texts = ["Conclusão", "6? VARA DA FAZENDA P?BLICA DO DF", "Ã x", "AÇÃO", "São Paulo"];

    expect(texts.map(repairMojibake)).toEqual(texts);
  });
});
