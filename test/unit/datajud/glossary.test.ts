import { describe, expect, it } from "vitest";
import {
  countText,
  indexText,
  instanceName,
  instanceText,
  newMovementsText,
  poloText,
} from "../../../src/datajud/glossary.js";

describe("glossary", () => {
  it("names DataJud's instances in plain Portuguese, keeping the code beside the name", () => {
    expect(["G1", "G2", "SUP", "JE", "TR"].map((g) => instanceName(g))).toEqual([
      "1º grau",
      "2º grau",
      "Tribunal Superior",
      "Juizado Especial",
      "Turma Recursal",
    ]);
    expect(instanceText("G2")).toBe("2º grau (G2)");
    expect(instanceText("TR")).toBe("Turma Recursal (TR)");
    expect(instanceText("XYZ")).toBe("XYZ");
    expect(instanceText("unknown")).toBe("instância não informada");
  });

  it("says whose DataJud index a name is, and leaves a name that is no court's index alone", () => {
    expect(indexText("api_publica_tjdft")).toBe("índice do TJDFT no DataJud (api_publica_tjdft)");
    expect(indexText("api_publica_tre-sp")).toBe(
      "índice do TRE-SP no DataJud (api_publica_tre-sp)",
    );
    expect(indexText("api_publica_nada")).toBe("api_publica_nada");
  });

  it("writes plurals out", () => {
    expect(newMovementsText(0)).toBe("nenhuma movimentação nova");
    expect(newMovementsText(1)).toBe("1 movimentação nova");
    expect(newMovementsText(3)).toBe("3 movimentações novas");
    expect(countText(1, "dia", "dias")).toBe("1 dia");
    expect(countText(2, "dia", "dias")).toBe("2 dias");
  });
});

describe("poloText", () => {
  it("says DJEN's and the MNI's sides in words, an unknown one as it came", () => {
    expect([
      poloText("A"),
      poloText("p"),
      poloText("TC"),
      poloText("FL"),
      poloText("X"),
      poloText(" "),
      poloText(null),
    ]).toEqual([
      "polo ativo",
      "polo passivo",
      "terceiro interessado",
      "fiscal da lei",
      "polo X",
      null,
      null,
    ]);
  });
});
