import { describe, expect, it } from "vitest";
import type { InstanceRecord } from "../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import {
  categoryAfter,
  instanceStatus,
  instanceStatusText,
} from "../../../src/summarize/instance-status.js";
import { rulesSummary } from "../../../src/summarize/rules-summary.js";
import { loadRealHits, realHit } from "../../support/real-datajud.js";

/*
 * Real records read per instance: tjal's cumprimento de sentença (a conclusão "para despacho"
 * answered by a mero expediente, then archived provisionally on 25/01/2024), tjdft's improbidade
 * (G1 archived provisionally on 23/01/2024, G2 judged and returned in 2021).
 */

const hits = loadRealHits();
const NOW = new Date("2026-12-02T12:00:00.000Z");
const TJAL = "00016632020118020049";
const TJDFT = "00125906120158070018";

type Raw = Record<string, unknown>;

function record(alias: string, digits: string, grau: string, ...extra: Raw[]): InstanceRecord {
  const hit = realHit(hits, alias, digits, grau);
  (hit._source.movimentos as Raw[]).push(...extra);
  return normalizeInstanceRecord(hit, alias);
}

function tjal(...extra: Raw[]): InstanceRecord {
  const hit = hits.tjal?.find(
    (h) =>
      h._source.numeroProcesso === TJAL && (h._source.classe as { codigo?: number }).codigo === 156,
  );
  if (hit === undefined) throw new Error("fixture: tjal's cumprimento de sentença");
  const copy = structuredClone(hit);
  (copy._source.movimentos as Raw[]).push(...extra);
  return normalizeInstanceRecord(copy, "tjal");
}

const PETITION: Raw = {
  codigo: 85,
  nome: "Petição",
  dataHora: "2026-11-25T10:12:00.000Z",
  complementosTabelados: [
    { codigo: 19, valor: 57, nome: "Petição (outras)", descricao: "tipo_de_peticao" },
  ],
};

function newOnes(r: InstanceRecord, ...dates: string[]) {
  return r.movements.filter((m) => dates.some((d) => m.dateTime?.startsWith(d)));
}

function summarizeTjal(r: InstanceRecord, newOn: string) {
  const newMovements = newOnes(r, newOn);
  return rulesSummary({
    cnjNumber: r.cnjNumber,
    court: "tjal",
    records: [r],
    newMovements,
    now: NOW,
  });
}

describe("an instance's status from its own movements", () => {
  it("reads tjal's cumprimento de sentença as archived provisionally, with CPC art. 921", () => {
    const status = instanceStatus(tjal());

    expect(status.category).toBe("archived_provisionally");
    expect(status.execution).toBe("execution");
    expect(instanceStatusText(status)).toBe(
      "arquivado provisoriamente em 25/01/2024 (execução arquivada por falta de bens ou do executado (CPC, art. 921, § 2º): a prescrição intercorrente corre e pode ser reconhecida de ofício, ouvidas as partes (art. 921, §§ 4º e 5º); desarquiva-se se forem encontrados bens penhoráveis (§ 3º))",
    );
  });

  it("closes the conclusão 'para despacho' of 03/08/2023 with the mero expediente of 16/01/2024", () => {
    const before = tjal();
    before.movements = before.movements.filter((m) => (m.dateTime ?? "") < "2024-01-16T10");

    const concluso = instanceStatus(before);
    const answered = instanceStatus({
      ...before,
      movements: tjal().movements.filter((m) => (m.dateTime ?? "") < "2024-01-17"),
    });

    expect(concluso.category).toBe("awaiting_decision");
    expect(instanceStatusText(concluso)).toBe("concluso para decisão desde 03/08/2023");
    expect(answered.category).toBe("in_progress");
    expect(instanceStatusText(answered)).toBe(
      "em andamento: a conclusão de 03/08/2023 foi respondida (Despacho de mero expediente em 16/01/2024)",
    );
  });

  it("reads a petition after the provisional archive as activity, not 'arquivado'", () => {
    const summary = summarizeTjal(tjal(PETITION), "2026-11-25");

    expect(summary.statusCategory).toBe("in_progress");
    expect(summary.status).toContain(
      "situação: em andamento: Juntada de petição em 25/11/2026, depois do arquivamento provisório de 25/01/2024;",
    );
    expect(summary.attentionReasons.map((a) => a.reason)).toEqual([
      "atividade depois do arquivamento provisório: conferir o ato (pedido de desarquivamento, de prosseguimento ou de reconhecimento da prescrição intercorrente)",
    ]);
    expect(summary.nextExpectedStep).toBe(
      "Despacho ou decisão do juízo sobre o ato praticado depois do arquivamento.",
    );
  });

  it("never says 'Nenhum; arquivado' of a provisionally archived execução", () => {
    const summary = summarizeTjal(tjal(), "2024-03-12");

    expect(summary.statusCategory).toBe("archived_provisionally");
    expect(summary.nextExpectedStep).toMatch(
      /^Acompanhar a prescrição intercorrente e indicar bens penhoráveis para o desarquivamento \(execução arquivada/,
    );
    expect(summary.nextExpectedStep).not.toMatch(/nenhum/i);
  });

  it("lets no archive outrank a later decision", () => {
    const decision: Raw = {
      codigo: 12164,
      nome: "Outras Decisões",
      dataHora: "2026-11-20T15:00:00.000Z",
    };
    const status = instanceStatus(tjal(decision));

    expect(status.category).toBe("in_progress");
    expect(status.afterArchive?.code).toBe(12164);
  });

  it("heads a G2 decision with G2's status, not the first instance's provisional archive", () => {
    const g1 = record("tjdft", TJDFT, "G1");
    const g2 = record(
      "tjdft",
      TJDFT,
      "G2",
      {
        codigo: 51,
        nome: "Conclusão",
        dataHora: "2026-11-18T14:00:00.000Z",
        complementosTabelados: [
          { codigo: 3, valor: 6, nome: "para decisão", descricao: "tipo_de_conclusao" },
        ],
      },
      { codigo: 12164, nome: "Outras Decisões", dataHora: "2026-11-20T15:00:00.000Z" },
    );
    const summary = rulesSummary({
      cnjNumber: g1.cnjNumber,
      court: "tjdft",
      records: [g1, g2],
      newMovements: newOnes(g2, "2026-11-18", "2026-11-20"),
      now: NOW,
    });

    expect(instanceStatus(g1).category).toBe("archived_provisionally");
    expect(summary.statusCategory).toBe("decided");
    expect(summary.status).toContain(
      "1º grau: arquivado provisoriamente em 23/01/2024 (arquivamento provisório: os autos podem ser desarquivados a pedido da parte); 2º grau: decidido: a conclusão de 18/11/2026 foi respondida (Decisão (outras decisões) em 20/11/2026)",
    );
    // A decision in G2 is the relator's own: agravo interno (CPC, arts. 1.021 and 1.070).
    expect(summary.nextExpectedStep).toBe(
      "Cumprir a decisão ou recorrer dela ao colegiado (agravo interno ao colegiado: 15 dias úteis da intimação da decisão (CPC, arts. 1.021 e 1.070; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219)).",
    );
  });
});

describe("categoryAfter", () => {
  it("a distribution is an appeal in an appellate instance, else awaiting citation only at the start", () => {
    expect(categoryAfter("distribution", "decided", true)).toBe("appeal_pending");
    expect(categoryAfter("distribution", null, false)).toBe("awaiting_citation");
    expect(categoryAfter("distribution", "in_progress", false)).toBeNull();
  });

  it("a citation moves only a case not started or awaiting it; a resumption only a suspended one", () => {
    expect(categoryAfter("citation", "awaiting_citation", false)).toBe("in_progress");
    expect(categoryAfter("citation", "decided", false)).toBeNull();
    expect(categoryAfter("resumption", "suspended", false)).toBe("in_progress");
    expect(categoryAfter("resumption", "decided", false)).toBeNull();
  });

  it("judgments decide, appeals and executions and suspensions say so, whatever came before", () => {
    expect(categoryAfter("final_judgment", "awaiting_decision", true)).toBe("decided");
    expect(categoryAfter("appeal", "decided", false)).toBe("appeal_pending");
    expect(categoryAfter("execution", "decided", false)).toBe("executing_judgment");
    expect(categoryAfter("suspension", "in_progress", false)).toBe("suspended");
    expect(categoryAfter("conclusion", "in_progress", false)).toBe("awaiting_decision");
    expect(categoryAfter("intimation", "in_progress", false)).toBeNull();
  });
});
