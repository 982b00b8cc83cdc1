import { describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import type { CaseSummary, MovementRef } from "../../../src/summarize/case-summary.js";
import { contradictions, setAside, withRulesAttention } from "../../../src/summarize/fact-check.js";

function movement(codigo: number, nome: string, dataHora: string): Movement {
  const m = normalizeMovement({ codigo, nome, dataHora });
  if (m === null) throw new Error("test movement unreadable");
  return m;
}

const sentence = movement(219, "Procedência", "2026-11-28T15:00:00.000Z");
const publication = movement(92, "Publicação", "2026-12-01T09:00:00.000Z");
const suspension = movement(898, "Por decisão judicial", "2026-12-02T09:00:00.000Z");

function ref(m: Movement): MovementRef {
  return { movementId: m.id, dateTime: m.dateTime, code: m.code, name: m.name };
}

function summary(patch: Partial<CaseSummary>): CaseSummary {
  return {
    cnjNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    instances: ["G1"],
    statusCategory: "decided",
    status: "Sentença proferida.",
    needsLawyerAttention: true,
    attentionReasons: [
      { reason: "sentença proferida: verificar prazo de recurso", movements: [ref(sentence)] },
    ],
    latestRelevantMovement: ref(sentence),
    nextExpectedStep: "Prazo para recurso.",
    generatedBy: "rules",
    generatedAt: "2026-12-02T12:00:00.000Z",
    ...patch,
  };
}

const rules = summary({
  attentionReasons: [
    { reason: "sentença proferida: verificar prazo de recurso", movements: [ref(sentence)] },
    { reason: "publicação no Diário da Justiça Eletrônico", movements: [ref(publication)] },
  ],
});

describe("contradictions", () => {
  it("finds a model that denies any need of attention and claims archived with no archiving movement", () => {
    const obeying = summary({
      statusCategory: "archived",
      needsLawyerAttention: false,
      attentionReasons: [],
      generatedBy: "claude-fake-1",
    });

    const found = contradictions(obeying, rules, [sentence, publication]);

    expect(found).toEqual([
      "dizia que nada requer atenção, mas as regras apontam: sentença proferida: verificar prazo de recurso; publicação no Diário da Justiça Eletrônico",
      'dizia "arquivado", mas a instância da novidade, lida pelos seus próprios movimentos, está "decidido"',
    ]);
  });

  it("finds a model that calls suspended what no movement suspends", () => {
    const suspended = summary({ statusCategory: "suspended", generatedBy: "m" });

    expect(contradictions(suspended, rules, [sentence, publication])).toEqual([
      'dizia "suspenso" sem movimentação que o sustente (pelas regras: decidido)',
    ]);
  });

  it("sets aside a model that says concluso or arquivado against the instance's own movements", () => {
    const inProgress = summary({ statusCategory: "in_progress" });
    const provisional = summary({ statusCategory: "archived_provisionally" });
    const concluso = summary({ statusCategory: "awaiting_decision", generatedBy: "m" });
    const definitive = summary({ statusCategory: "archived", generatedBy: "m" });

    expect(contradictions(concluso, inProgress, [])).toEqual([
      'dizia "concluso para decisão", mas a instância da novidade, lida pelos seus próprios movimentos, está "em andamento"',
    ]);
    expect(contradictions(definitive, provisional, [])).toEqual([
      'dizia "arquivado", mas a instância da novidade, lida pelos seus próprios movimentos, está "arquivado provisoriamente"',
    ]);
  });

  it("accepts a status a movement supports, and one that needs none", () => {
    const suspended = summary({ statusCategory: "suspended", generatedBy: "m" });
    const inProgress = summary({ statusCategory: "in_progress", generatedBy: "m" });

    expect(contradictions(suspended, rules, [sentence, publication, suspension])).toEqual([]);
    expect(contradictions(inProgress, rules, [sentence, publication])).toEqual([]);
  });
});

describe("a next step that says nothing is left because the case is archived", () => {
  it("is set aside unless the archive is definitive", () => {
    const model = summary({
      statusCategory: "archived_provisionally",
      nextExpectedStep: "Nenhum; o processo está arquivado.",
      generatedBy: "m",
    });
    const provisional = summary({ statusCategory: "archived_provisionally" });
    const definitive = summary({ statusCategory: "archived" });

    expect(contradictions(model, provisional, [])).toEqual([
      'dizia que não há próximo passo por estar arquivado, mas a instância está "arquivado provisoriamente"',
    ]);
    expect(contradictions({ ...model, statusCategory: "archived" }, definitive, [])).toEqual([]);
  });
});

describe("withRulesAttention", () => {
  it("adds back what the model left out, and keeps what it added", () => {
    const extra = { reason: "conferir o valor da condenação", movements: [ref(sentence)] };
    const model = summary({
      generatedBy: "m",
      attentionReasons: [extra, { reason: "sentença", movements: [ref(sentence)] }],
    });

    const merged = withRulesAttention(model, rules);

    expect(merged.attentionReasons.map((r) => r.reason)).toEqual([
      "conferir o valor da condenação",
      "sentença",
      "publicação no Diário da Justiça Eletrônico",
    ]);
    expect(withRulesAttention(merged, rules)).toBe(merged);
  });
});

describe("setAside", () => {
  it("is the rules' summary saying whose reading was set aside and why", () => {
    const out = setAside(rules, "claude-fake-1", ["motivo a", "motivo b"]);

    expect(out).toEqual({
      ...rules,
      setAside:
        "A leitura do modelo de IA claude-fake-1 foi descartada porque contradizia os fatos: motivo a; motivo b.",
    });
  });
});
