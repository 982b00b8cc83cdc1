import { describe, expect, it } from "vitest";
import { statesOfCase } from "../../../src/radar/case-state.js";
import { classifyItem, type RadarParty } from "../../../src/radar/classify.js";

const ACME: RadarParty = {
  name: "ACME COMÉRCIO LTDA",
  names: ["ACME COMÉRCIO LTDA", "ACME ALIMENTOS"],
  document: { kind: "cnpj", digits: "11222333000181" },
};

const PERSON: RadarParty = {
  name: "JOSÉ CARLOS PEREIRA NETO",
  names: ["JOSÉ CARLOS PEREIRA NETO"],
  document: { kind: "cpf", digits: "52998224725" },
};

const BARE = { text: "Fica a parte intimada.", recipients: [] };

describe("classifying a DJEN item for a watched party", () => {
  it("confirms by the CNPJ written in the text, with or without separators", () => {
    const item = {
      text: "Cite-se ACME COMERCIO LTDA, inscrita no CNPJ sob o nº 11.222.333/0001-81.",
      recipients: [{ name: "Acme Comércio Ltda.", side: "P" }],
    };

    const match = classifyItem(item, ACME);

    expect(match).toEqual({
      confidence: "confirmado",
      reason: "o CNPJ 11.222.333/0001-81 consta do texto",
      recipient: "Acme Comércio Ltda.",
      side: "P",
    });
    expect(classifyItem({ ...BARE, text: "CNPJ 11222333000181" }, ACME)?.confidence).toBe(
      "confirmado",
    );
  });

  it("confirms by the CNPJ written in a destinatário", () => {
    const item = { ...BARE, recipients: [{ name: "ACME - CNPJ 11.222.333/0001-81", side: "P" }] };

    expect(classifyItem(item, ACME)?.confidence).toBe("confirmado");
  });

  it("calls an exact destinatário name provável, with its polo, through any alias", () => {
    const viaName = { ...BARE, recipients: [{ name: "ACME COMERCIO S/A", side: "P" }] };
    const viaAlias = { ...BARE, recipients: [{ name: "Acme Alimentos - ME", side: "A" }] };

    expect(classifyItem(viaName, ACME)).toEqual({
      confidence: "provavel",
      reason:
        'o destinatário "ACME COMERCIO S/A" (polo passivo) tem o nome do cliente, mas o CNPJ não consta da publicação',
      recipient: "ACME COMERCIO S/A",
      side: "P",
    });
    expect(classifyItem(viaAlias, ACME)?.confidence).toBe("provavel");
  });

  it("calls a longer, different company name a possível homônimo (partial)", () => {
    const item = {
      ...BARE,
      recipients: [{ name: "ACME COMÉRCIO DE ALIMENTOS CONGELADOS LTDA", side: "P" }],
    };

    expect(classifyItem(item, ACME)).toEqual({
      confidence: "homonimo",
      reason:
        'só parte do nome confere: o destinatário é "ACME COMÉRCIO DE ALIMENTOS CONGELADOS LTDA" (polo passivo)',
      recipient: "ACME COMÉRCIO DE ALIMENTOS CONGELADOS LTDA",
      side: "P",
    });
  });

  it("calls the name found only in the text a possível homônimo", () => {
    const item = {
      text: "Intime-se a ré ACME COMÉRCIO LTDA. para pagar.",
      recipients: [{ name: "FULANO DE TAL", side: "A" }],
    };

    expect(classifyItem(item, ACME)?.reason).toBe(
      "o nome aparece só no texto, não entre os destinatários",
    );
  });

  // 111.444.777-35 by hand: 1·10+1·9+1·8+4·7+4·6+4·5+7·4+7·3+7·2 = 162, mod 11 = 8 -> 3;
  // 1·11+1·10+1·9+4·8+4·7+4·6+7·5+7·4+7·3+3·2 = 204, mod 11 = 6 -> 5.
  it("calls a person of the same name with another CPF a possível homônimo", () => {
    const item = {
      text: "Cite-se JOSÉ CARLOS PEREIRA NETO, CPF 111.444.777-35, residente em Campinas.",
      recipients: [{ name: "JOSE CARLOS PEREIRA NETO", side: "P" }],
    };

    const match = classifyItem(item, PERSON);

    expect(match?.confidence).toBe("homonimo");
    expect(match?.reason).toContain("outro CPF (111.444.777-35)");
  });

  it("drops what names the party nowhere (DJEN's search is loose)", () => {
    const item = {
      text: "Intime-se a ACME CONSTRUÇÕES.",
      recipients: [{ name: "ACME CONSTRUÇÕES E REFORMAS", side: "P" }],
    };

    expect(classifyItem(item, ACME)).toBeNull();
  });
});

describe("the states of a case's court, for ufs:", () => {
  it("reads a state court, a labour region and leaves federal courts open", () => {
    // J=8 TR=26: TJSP. J=5 TR=02: TRT2. J=4 TR=01: TRF1, many states.
    expect(statesOfCase("1035289-48.2022.8.26.0602")).toEqual(["SP"]);
    expect(statesOfCase("0713383-43.2025.8.07.0006")).toEqual(["DF"]);
    expect(statesOfCase("1000123-59.2024.5.02.0001")).toEqual(["SP"]);
    expect(statesOfCase("1001234-14.2023.4.01.3400")).toBeNull();
  });
});
