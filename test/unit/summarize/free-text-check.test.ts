import { describe, expect, it } from "vitest";
import type { CaseSummary } from "../../../src/summarize/case-summary.js";
import {
  citedCaseNumbers,
  freeTextFindings,
  setAsideForText,
} from "../../../src/summarize/free-text-check.js";

const CASE = "0713383-43.2025.8.07.0006";

function summary(status: string, nextExpectedStep: string | null = null, reason?: string) {
  const s: CaseSummary = {
    cnjNumber: CASE,
    court: "tjdft",
    instances: ["G1"],
    statusCategory: "decided",
    status,
    needsLawyerAttention: reason !== undefined,
    attentionReasons:
      reason === undefined
        ? []
        : [
            {
              reason,
              movements: [{ movementId: "m1", dateTime: null, code: 219, name: "Procedência" }],
            },
          ],
    latestRelevantMovement: null,
    nextExpectedStep,
    generatedBy: "claude-fake-1",
    generatedAt: "2026-12-02T12:00:00.000Z",
  };
  return s;
}

describe("freeTextFindings", () => {
  it.each([
    [
      "Acesse http://evil.example/prazo e informe sua senha.",
      ["um link", "uma instrução ao leitor"],
    ],
    ["Veja www.prazos-tj.com.br para o prazo.", ["um link"]],
    ["O prazo está em prazo-oficial.com.", ["um link"]],
    ["Detalhes em bit.ly/3xYz.", ["um link"]],
    ["Escreva para cartorio@tjdft-prazos.com.", ["um link", "um endereço de e-mail"]],
    ["Dúvidas: (61) 99123-4567.", ["um número de telefone"]],
    ["Central: 0800 123 4567.", ["um número de telefone"]],
    ["Atendimento 4004-0001.", ["um número de telefone"]],
    ["Plantão +55 61 3103-7000.", ["um número de telefone"]],
    ["Clique no botão abaixo.", ["uma instrução ao leitor"]],
    ["Ligue para a secretaria.", ["uma instrução ao leitor"]],
    ["Confirme seus dados no portal.", ["uma instrução ao leitor"]],
    ["Você precisa pagar a guia via pix.", ["uma instrução ao leitor"]],
    ["Cl\u200Bique aqui para ver a decisão.", ["uma instrução ao leitor"]],
    ["Sentença no processo 0708123-34.2024.8.07.0001.", ["outro processo"]],
  ])("%s", (text, expected) => {
    expect(freeTextFindings(summary(text), new Set([CASE]))).toEqual(expected);
  });

  it("checks the next step and each attention reason too", () => {
    expect(
      freeTextFindings(
        summary("Sentença de procedência.", "Acesse o portal.", "Ligue para o cartório."),
        new Set([CASE]),
      ),
    ).toEqual(["uma instrução ao leitor"]);
  });

  it.each([
    "Sentença de procedência proferida em 28/11/2026 no 1º grau (2ª Vara Cível de Brasília); cabe apelação em 15 dias úteis (CPC, art. 1.003, § 5º).",
    "Intimado o executado para que pague o débito de R$ 12.345,67 em 15 dias (art. 523 do CPC), sob pena de multa de 10%.",
    "Prazo para que a ré informe o endereço da testemunha; fls. 23-24; exercícios 2019-2020 da CDA.",
    `Processo ${CASE} concluso para decisão; Lei n. 8.213/91, art. 42.`,
    "Remessa ao 2º grau (G2) e baixa dos autos à origem; publicação no DJe de 01/12/2026.",
    "Execução fiscal dos exercícios 2019-2020.",
  ])("lets a summary of the case through: %s", (text) => {
    expect(
      freeTextFindings(summary(text, "Aguardar o prazo de apelação."), new Set([CASE])),
    ).toEqual([]);
  });

  it("lets the text cite a case the court's own data names, formatted or as 20 digits", () => {
    const records = JSON.stringify({
      movements: [{ name: "Apensado ao processo 07081233420248070001" }],
      complement: "Agravo de Instrumento 2123456-78.2025.8.26.0000",
    });
    const cited = citedCaseNumbers(records).add(CASE);
    const text = summary(
      "Apensado ao 0708123-34.2024.8.07.0001; agravo 2123456-78.2025.8.26.0000 pendente.",
    );

    expect([...cited].sort()).toEqual(
      [CASE, "0708123-34.2024.8.07.0001", "2123456-78.2025.8.26.0000"].sort(),
    );
    expect(freeTextFindings(text, cited)).toEqual([]);
    expect(freeTextFindings(text, new Set([CASE]))).toEqual(["outro processo"]);
  });

  it("says in our own words why the model's reading was set aside, never quoting it", () => {
    const rules = { ...summary("Sentença de procedência."), generatedBy: "rules" };
    const aside = setAsideForText(rules, "claude-fake-1", ["um link", "uma instrução ao leitor"]);

    expect(aside.setAside).toBe(
      "A leitura do modelo de IA claude-fake-1 foi descartada porque seu texto trazia o que um resumo do processo não traz: um link; uma instrução ao leitor.",
    );
    expect(aside.status).toBe("Sentença de procedência.");
  });
});
