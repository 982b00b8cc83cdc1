import { describe, expect, it } from "vitest";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import { actAttention, judgmentForm } from "../../../src/summarize/act-reading.js";
import { rulesSummary } from "../../../src/summarize/rules-summary.js";
import { instanceRecordOf } from "../../support/movement.js";

function movement(codigo: number, nome: string, dataHora: string, complemento?: string): Movement {
  const m = normalizeMovement({
    codigo,
    nome,
    dataHora,
    ...(complemento === undefined
      ? {}
      : {
          complementosTabelados: [
            { codigo: 3, valor: 6, nome: complemento, descricao: "tipo_de_conclusao" },
          ],
        }),
  });
  if (m === null) throw new Error("test movement unreadable");
  return m;
}

type Rec = Pick<InstanceRecord, "instance" | "court" | "class" | "movements">;

function rec(instance: string, court: string, className: string, ...movements: Movement[]): Rec {
  return { instance, court, class: { code: null, name: className }, movements };
}

const distributed = movement(26, "Distribuição", "2026-05-18T12:00:00.000Z");
const toDecide = movement(51, "Conclusão", "2026-05-19T13:00:00.000Z", "para decisão");
const toJudge = movement(51, "Conclusão", "2026-05-19T13:00:00.000Z", "para julgamento");
const listed = movement(12104, "Inclusão em pauta", "2026-10-20T12:00:00.000Z");
const notHeard = movement(235, "Não Conhecimento de recurso", "2026-11-10T22:12:00.000Z");
const dismissed = movement(239, "Não-Provimento", "2026-11-10T22:12:00.000Z");

describe("a superior court's judgment: monocratic or collegiate only where the record tells", () => {
  it("reads an STJ judgment after a conclusão 'para decisão' and no session as monocratic", () => {
    const stj = rec("SUP", "stj", "Agravo em Recurso Especial", distributed, toDecide, notHeard);

    expect(judgmentForm(notHeard, stj)).toEqual({
      form: "monocratic",
      basis: "concluso ao relator para decisão em 19/05/2026, sem inclusão em pauta",
    });
    // The class named without its code reads as civil: the agravo interno's 15 dias úteis.
    expect(actAttention(notHeard, stj)).toEqual({
      reason:
        "decisão monocrática do relator (Recurso não conhecido; concluso ao relator para decisão em 19/05/2026, sem inclusão em pauta): prazos que abre: embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219); agravo interno ao colegiado: 15 dias úteis da intimação da decisão (CPC, arts. 1.021 e 1.070; RISTJ, art. 259; RISTF, art. 317; dias úteis, art. 219)",
      next: "Agravo interno contra a decisão monocrática (embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219); agravo interno ao colegiado: 15 dias úteis da intimação da decisão (CPC, arts. 1.021 e 1.070; RISTJ, art. 259; RISTF, art. 317; dias úteis, art. 219)) ou trânsito em julgado.",
    });
  });

  it("keeps 'acórdão proferido' for a judgment after an inclusão em pauta", () => {
    const stj = rec("SUP", "stj", "Recurso Especial", distributed, toJudge, listed, dismissed);

    expect(judgmentForm(dismissed, stj)?.form).toBe("collegiate");
    expect(actAttention(dismissed, stj)).toBeNull();
    const summary = rulesSummary({
      cnjNumber: "0000000-00.2026.3.00.0000",
      court: "stj",
      records: [{ ...realShape(stj), movements: stj.movements }],
      newMovements: [dismissed],
      now: new Date("2026-12-02T12:00:00.000Z"),
    });
    expect(summary.attentionReasons.map((r) => r.reason)).toEqual([
      "acórdão proferido: verificar prazo de recurso",
    ]);
  });

  it("says the record does not tell when nothing does, in a superior court", () => {
    const stj = rec("SUP", "stj", "Recurso Especial", distributed, dismissed);

    expect(judgmentForm(dismissed, stj)).toBeNull();
    expect(actAttention(dismissed, stj)?.reason).toBe(
      "recurso julgado (Recurso não provido): o DataJud não diz se por decisão monocrática ou por acórdão; conferir nos autos e o prazo do recurso cabível",
    );
  });

  it("names the agravo regimental of a criminal case (Lei 8.038/1990, art. 39)", () => {
    const hc = rec("SUP", "stj", "Habeas Corpus Criminal", distributed, toDecide, dismissed);

    expect(actAttention(dismissed, hc)?.next).toBe(
      "Agravo regimental contra a decisão monocrática (embargos de declaração: 2 dias corridos da intimação da decisão (CPP, art. 619; RISTJ, art. 263; no STF, 5 dias: RISTF, art. 337, § 1º; dias corridos, CPP, art. 798); agravo regimental ao colegiado: 5 dias corridos da intimação da decisão (Lei 8.038/1990, art. 39; RISTJ, art. 258; RISTF, art. 317; dias corridos, CPP, art. 798)) ou trânsito em julgado.",
    );
  });
});

describe("a criminal case's acts in criminal words", () => {
  const penal = (m: Movement): Rec => ({
    instance: "G1",
    court: "tjto",
    class: { code: 283, name: "Ação Penal - Procedimento Ordinário" },
    movements: [m],
  });

  it("reads 219 as a condenação, 220 as an absolvição, 391 as the denúncia received", () => {
    const convicted = movement(219, "Procedência", "2026-11-18T16:45:00.000Z");
    const acquitted = movement(220, "Improcedência", "2026-11-18T16:45:00.000Z");
    const received = movement(391, "Recebimento", "2026-03-02T10:00:00.000Z");

    expect(actAttention(convicted, penal(convicted))?.reason).toBe(
      "sentença condenatória: prazo que abre: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798)",
    );
    expect(actAttention(acquitted, penal(acquitted))?.reason).toBe(
      "sentença absolutória: prazo da acusação: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798)",
    );
    expect(actAttention(received, penal(received))?.next).toBe(
      "Citação do acusado e resposta à acusação em 10 dias (CPP, art. 396).",
    );
  });

  it("recognizes a criminal class by its TPU code even when its name is bare (417 Apelação)", () => {
    const convicted = movement(219, "Procedência", "2026-11-18T16:45:00.000Z");
    const appeal: Rec = { ...penal(convicted), class: { code: 417, name: "Apelação" } };
    const civil: Rec = {
      ...penal(convicted),
      class: { code: 7, name: "Procedimento Comum Cível" },
    };

    expect(actAttention(convicted, appeal)?.reason).toMatch(/^sentença condenatória/);
    // The same code in a civil class is a civil sentence: apelação and embargos (CPC).
    expect(actAttention(convicted, civil)?.reason).toBe(
      "sentença proferida: prazos que abre: apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da sentença (CPC, art. 1.023; dias úteis, art. 219)",
    );
  });
});

/** The record of `r` under this file's case number. */
function realShape(r: Rec): InstanceRecord {
  return instanceRecordOf(r, "00000000020263000000");
}
