import { describe, expect, it } from "vitest";
import {
  type CommunicationFacts,
  publicEntityOf,
  readCommunication,
} from "../../../src/deadlines/communication.js";

function facts(change: Partial<CommunicationFacts>): CommunicationFacts {
  return {
    kind: "Intimação",
    documentType: "Despacho",
    className: "PROCEDIMENTO COMUM CÍVEL",
    classCode: 7,
    medium: "D",
    text: "Intime-se.",
    recipients: [{ name: "FULANO DE TAL", side: "A" }],
    lawyerCount: 1,
    caseNumber: "10000000020258260100",
    court: "TJSP",
    ...change,
  };
}

describe("readCommunication", () => {
  it("reads the kind from DJEN's type first (the TJRJ EDITAL-PAUTA is a pauta)", () => {
    expect(
      readCommunication(facts({ kind: "Pauta de julgamento", text: "EDITAL-PAUTA" })).kind,
    ).toBe("pauta");
    expect(readCommunication(facts({ kind: "Lista de distribuição" })).kind).toBe("no-deadline");
    expect(readCommunication(facts({ kind: "Certidão" })).kind).toBe("no-deadline");
    expect(readCommunication(facts({ kind: "Edital" })).kind).toBe("edital");
    expect(readCommunication(facts({ kind: "Intimação", medium: "E" })).kind).toBe("edital");
    expect(readCommunication(facts({ kind: "Citação" })).kind).toBe("citacao");
    expect(readCommunication(facts({ kind: null })).kind).toBe("intimacao");
  });

  it("an item only for a public entity, with no lawyer, is a personal intimação", () => {
    const state = [{ name: "ESTADO DE SÃO PAULO", side: "P" }];

    expect(readCommunication(facts({ recipients: state, lawyerCount: 0 })).kind).toBe("personal");
    expect(readCommunication(facts({ recipients: state, lawyerCount: 2 })).kind).toBe("intimacao");
    expect(readCommunication(facts({ recipients: state, lawyerCount: 2 })).publicParties).toEqual([
      "fazenda",
    ]);
  });

  it("names the public entities by what they are", () => {
    expect(publicEntityOf("INSTITUTO NACIONAL DO SEGURO SOCIAL - INSS")).toBe("fazenda");
    expect(publicEntityOf("União Federal - Fazenda Nacional")).toBe("fazenda");
    expect(publicEntityOf("MUNICÍPIO DE CAMPINAS")).toBe("fazenda");
    expect(publicEntityOf("Ministério Público do Estado de São Paulo")).toBe("mp");
    expect(publicEntityOf("DEFENSORIA PÚBLICA DA UNIÃO")).toBe("defensoria");
    // A state company or a private firm has no doubled periods.
    expect(publicEntityOf("CAIXA ECONÔMICA FEDERAL")).toBeNull();
    expect(publicEntityOf("ESTADÃO COMUNICAÇÕES S.A.")).toBeNull();
  });

  it("decides the procedure from the court and the class", () => {
    expect(readCommunication(facts({ court: "TRT2", caseNumber: null })).procedure).toBe("labour");
    expect(readCommunication(facts({ caseNumber: "00000000020255020001" })).procedure).toBe(
      "labour",
    );
    expect(
      readCommunication(facts({ court: "TRE-SP", className: "Recurso Eleitoral" })).procedure,
    ).toBe("electoral");
    expect(
      readCommunication(
        facts({ className: "AÇÃO PENAL - PROCEDIMENTO ORDINÁRIO", classCode: null }),
      ).procedure,
    ).toBe("criminal");
    expect(readCommunication(facts({ className: null, classCode: 283 })).procedure).toBe(
      "criminal",
    );
    expect(
      readCommunication(facts({ className: "HABEAS CORPUS CÍVEL", classCode: null })).procedure,
    ).toBe("civil");
    expect(
      readCommunication(facts({ className: "HABEAS CORPUS CRIMINAL", classCode: null })).procedure,
    ).toBe("criminal");
    expect(
      readCommunication(facts({ court: "STM", className: "Apelação", classCode: null })).procedure,
    ).toBe("criminal");
  });

  it("reads custody and the Lei Maria da Penha from a criminal text", () => {
    const criminal = { className: "Ação Penal - Procedimento Ordinário", classCode: 283 };

    expect(
      readCommunication(facts({ ...criminal, text: "RÉU PRESO. Intime-se a defesa." })).custody,
    ).toBe("yes");
    expect(readCommunication(facts({ ...criminal, text: "Réu solto. Intime-se." })).custody).toBe(
      "no",
    );
    expect(readCommunication(facts({ ...criminal, text: "Intime-se a defesa." })).custody).toBe(
      "unknown",
    );
    expect(
      readCommunication(
        facts({
          className: "Medidas Protetivas de Urgência (Lei Maria da Penha) Criminal",
          classCode: null,
        }),
      ).mariaDaPenha,
    ).toBe(true);
  });

  it("says when the class was not given, and tells the Juizados", () => {
    expect(readCommunication(facts({ className: null, classCode: null })).classUnknown).toBe(true);
    expect(
      readCommunication(
        facts({ className: "PROCEDIMENTO DO JUIZADO ESPECIAL CÍVEL", classCode: 436 }),
      ).juizado,
    ).toBe(true);
  });
});
