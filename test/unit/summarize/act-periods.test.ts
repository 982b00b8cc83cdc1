import { describe, expect, it } from "vitest";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import {
  ACT_KEYS,
  actPeriods,
  actReadingOf,
  periodsText,
  periodText,
} from "../../../src/summarize/act-periods.js";
import { actAttention } from "../../../src/summarize/act-reading.js";
import { rulesSummary } from "../../../src/summarize/rules-summary.js";
import { instanceRecordOf } from "../../support/movement.js";

/*
 * Which act a movement records, by its place in CNJ's tree and the case's class, and the periods
 * it opens. Every expected value is the statute's, read by hand (Planalto's texts):
 * - CLT art. 895, I: recurso ordinário in 8 days; art. 775 (Lei 13.467/2017): dias úteis;
 *   art. 897-A: embargos de declaração in 5 days, § 3º they interrupt the period;
 *   art. 896 and Lei 5.584/1970 art. 6º: recurso de revista in 8 days.
 * - CPC art. 1.015 (agravo de instrumento where the list admits it; every interlocutory decision
 *   in execução and cumprimento, parágrafo único), arts. 1.021 and 1.070 (agravo interno, 15),
 *   1.003 § 5º (15 dias úteis), 1.029 (REsp and RE).
 * - citação: CPC art. 335 (contestação, 15, from the audiência or the art. 231 date: the juntada,
 *   never the citação's own day); CPP art. 396 (10 days, from the citação itself: art. 798 § 5º a,
 *   STF Súmula 710); CPC arts. 829 and 915 (3 days to pay, 15 for embargos); LEF arts. 8º and 16
 *   (5 days to pay or guarantee, 30 for embargos from the guarantee); CLT arts. 847, 880, 884.
 * - trânsito em julgado: CPC arts. 523 and 975 (ação rescisória in 2 years); CPP art. 622;
 *   Lei 9.099/1995 art. 59 (no rescisória in a juizado).
 */

function movement(codigo: number, nome: string, extra: Record<string, unknown> = {}): Movement {
  const m = normalizeMovement({ codigo, nome, dataHora: "2026-11-18T16:45:00.000Z", ...extra });
  if (m === null) throw new Error("test movement unreadable");
  return m;
}

type Rec = Pick<InstanceRecord, "instance" | "court" | "class" | "movements">;

function rec(instance: string, court: string, code: number, name: string, ...ms: Movement[]): Rec {
  return { instance, court, class: { code, name }, movements: ms };
}

const COMMON = [7, "Procedimento Comum Cível"] as const;
const LABOUR = [985, "Ação Trabalhista - Rito Ordinário"] as const;
const ROT = [1009, "Recurso Ordinário Trabalhista"] as const;
const PENAL = [283, "Ação Penal - Procedimento Ordinário"] as const;
const JEC = [436, "Procedimento do Juizado Especial Cível"] as const;
const EXTRA = [12154, "Execução de Título Extrajudicial"] as const;
const FISCAL = [1116, "Execução Fiscal"] as const;
const LABOUR_EXEC = [990, "Execução de Título Extrajudicial"] as const;
const ENFORCE = [156, "Cumprimento de sentença"] as const;

function keyOf(m: Movement, r: Rec): string | null {
  return actPeriods(m, r)?.key ?? null;
}

function lengths(m: Movement, r: Rec): string[] {
  return (actPeriods(m, r)?.periods ?? []).map(
    (p) => `${p.name.split(" (")[0]}: ${p.days ?? p.term ?? "-"} ${p.counting}`,
  );
}

const sentence = movement(219, "Procedência");
const acordao = movement(237, "Provimento");
const notAccepted = movement(200, "Não-Acolhimento de Embargos de Declaração");

describe("labour acts (CLT)", () => {
  it("a labour sentence opens the recurso ordinário in 8 dias úteis and embargos in 5", () => {
    const r = rec("G1", "trt2", ...LABOUR, sentence);
    expect(keyOf(sentence, r)).toBe("labour_sentence");
    expect(lengths(sentence, r)).toEqual([
      "recurso ordinário: 8 business",
      "embargos de declaração: 5 business",
    ]);
    const [ro] = actPeriods(sentence, r)?.periods ?? [];
    expect(ro?.article).toBe("CLT, art. 895, I; dias úteis, art. 775 (Lei 13.467/2017)");
    expect(actAttention(sentence, r)?.reason).toBe(
      "sentença trabalhista proferida: prazos que abre: recurso ordinário: 8 dias úteis da intimação da sentença (CLT, art. 895, I; dias úteis, art. 775 (Lei 13.467/2017)); embargos de declaração: 5 dias úteis da intimação da sentença (CLT, art. 897-A; dias úteis, art. 775)",
    );
  });

  it("a TRT's acórdão opens the recurso de revista in 8 (CLT 896; Lei 5.584/1970 art. 6º), not the REsp", () => {
    const toJudge = movement(51, "Conclusão", {
      dataHora: "2026-10-01T10:00:00.000Z",
      complementosTabelados: [
        { codigo: 3, valor: 1, nome: "para julgamento", descricao: "tipo_de_conclusao" },
      ],
    });
    const listed = movement(12103, "Pauta", { dataHora: "2026-10-20T10:00:00.000Z" });
    const r = rec("G2", "trt2", ...ROT, toJudge, listed, acordao);
    expect(keyOf(acordao, r)).toBe("labour_judgment");
    expect(lengths(acordao, r)).toEqual([
      "embargos de declaração: 5 business",
      "recurso de revista: 8 business",
    ]);
    const attention = actAttention(acordao, r);
    expect(attention?.reason).toContain(
      "recurso de revista: 8 dias úteis da intimação do acórdão (CLT, art. 896; 8 dias, Lei 5.584/1970, art. 6º; dias úteis, CLT, art. 775)",
    );
    expect(attention?.reason).not.toContain("recurso especial");
    // The TST's own judgments are not a TRT's: no recurso de revista there.
    expect(keyOf(acordao, rec("SUP", "tst", ...ROT, acordao))).toBeNull();
  });

  it("embargos decided in a labour case: the interrupted period runs again (CLT 897-A § 3º)", () => {
    const r = rec("G1", "trt2", ...LABOUR, notAccepted);
    expect(keyOf(notAccepted, r)).toBe("labour_embargos_decided");
    expect(actAttention(notAccepted, r)?.next).toContain("(CLT, art. 897-A, § 3º)");
  });
  it("a labour decision: no appeal at once (CLT 893 § 1º); in a labour execução, agravo de petição in 8 (CLT 897, a)", () => {
    const decided = movement(12164, "Outras Decisões");
    const r = rec("G1", "trt2", ...LABOUR, decided);
    expect(keyOf(decided, r)).toBe("labour_interlocutory");
    expect(actAttention(decided, r)).toEqual({
      reason:
        "decisão interlocutória trabalhista: no processo do trabalho a decisão interlocutória não é recorrível de imediato: a questão se discute no recurso da decisão definitiva (CLT, art. 893, § 1º; exceções na Súmula 214 do TST)",
      next: "Cumprir a decisão, se exigir providência; a questão se discute no recurso da decisão definitiva (CLT, art. 893, § 1º).",
    });
    const exec = rec("G1", "trt2", ...LABOUR_EXEC, decided);
    expect(keyOf(decided, exec)).toBe("labour_execution_decision");
    expect(lengths(decided, exec)).toEqual([
      "agravo de petição, se cabível: 8 business",
      "embargos de declaração: 5 business",
    ]);
    expect(actPeriods(decided, exec)?.periods[0]?.article).toBe(
      "CLT, art. 897, a; dias úteis, art. 775",
    );
  });
});

describe("saneamento e organização (CPC, art. 357)", () => {
  it("opens the 5 days to ask for clarifications or adjustments before it is stable (§ 1º), beside embargos and the agravo where CPC 1.015 admits it", () => {
    const saneamento = movement(12387, "Decisão de Saneamento e Organização");
    const r = rec("G1", "tjsp", ...COMMON, saneamento);
    expect(keyOf(saneamento, r)).toBe("civil_organization");
    expect(lengths(saneamento, r)).toEqual([
      "pedido de esclarecimentos ou ajustes: 5 business",
      "embargos de declaração: 5 business",
      "agravo de instrumento, se cabível: 15 business",
    ]);
    expect(actPeriods(saneamento, r)?.periods[0]?.article).toBe(
      "CPC, art. 357, § 1º; dias úteis, art. 219",
    );
  });
});

describe("agravos (CPC)", () => {
  const saneamento = movement(12387, "Decisão de Saneamento e Organização");
  const tutela = movement(332, "Tutela Provisória");

  it("a first-instance decision: agravo de instrumento only if CPC 1.015 admits it", () => {
    expect(keyOf(tutela, rec("G1", "tjsp", ...COMMON, tutela))).toBe("civil_interlocutory");
    const r = rec("G1", "tjsp", ...COMMON, tutela);
    expect(lengths(tutela, r)).toEqual([
      "agravo de instrumento, se cabível: 15 business",
      "embargos de declaração: 5 business",
    ]);
    expect(actAttention(tutela, r)?.reason).toContain(
      "agravo de instrumento, se cabível (só nas hipóteses do CPC, art. 1.015",
    );
  });

  it("in an execução or cumprimento every interlocutory decision is agravável (CPC 1.015, parágrafo único)", () => {
    for (const klass of [EXTRA, FISCAL, ENFORCE]) {
      const r = rec("G1", "tjto", klass[0], klass[1], saneamento);
      expect(keyOf(saneamento, r), klass[1]).toBe("execution_interlocutory");
    }
    const r = rec("G1", "tjto", ...FISCAL, saneamento);
    expect(periodText(actPeriods(saneamento, r)?.periods[0] ?? never())).toBe(
      "agravo de instrumento: 15 dias úteis da intimação da decisão (CPC, art. 1.015, parágrafo único, e art. 1.003, § 5º; dias úteis, art. 219)",
    );
  });

  it("a decision in a TJ's second instance is the relator's: agravo interno in 15 dias úteis (CPC 1.021, 1.070)", () => {
    const decided = movement(12164, "Outras Decisões");
    const r = rec("G2", "tjdft", 198, "Apelação Cível", decided);
    expect(keyOf(decided, r)).toBe("civil_monocratic");
    expect(lengths(decided, r)[0]).toBe("agravo interno ao colegiado: 15 business");
    // A panel's deliberation is not the relator's decision; a criminal case in a TJ is not read so
    // (its agravo is the court's regimento's); a labour one has its own (labour_monocratic).
    expect(keyOf(movement(12198, "Deliberado em Sessão"), r)).toBeNull();
    expect(keyOf(decided, rec("G2", "tjto", 417, "Apelação Criminal", decided))).toBeNull();
  });

  it("a monocratic judgment in a TJ names the agravo interno's 15 dias úteis; in the STJ only the appeal", () => {
    const toDecide = movement(51, "Conclusão", {
      dataHora: "2026-10-01T10:00:00.000Z",
      complementosTabelados: [
        { codigo: 3, valor: 6, nome: "para decisão", descricao: "tipo_de_conclusao" },
      ],
    });
    const denied = movement(901, "Negação Monocrática de Provimento");
    const tj = rec("G2", "tjsp", 198, "Apelação Cível", toDecide, denied);
    expect(actAttention(denied, tj)?.next).toBe(
      "Agravo interno contra a decisão monocrática (agravo interno ao colegiado: 15 dias úteis da intimação da decisão (CPC, arts. 1.021 e 1.070; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219)) ou trânsito em julgado.",
    );
    // An AREsp's class serves both matters (class-branches.json: superior): both are named.
    const stj = rec("SUP", "stj", 11881, "Agravo em Recurso Especial", toDecide, denied);
    expect(actAttention(denied, stj)?.next).toBe(
      "Agravo regimental (matéria penal) ou interno (cível) contra a decisão monocrática (conforme a matéria, que a classe do recurso não diz: penal, embargos de declaração em 2 e agravo regimental em 5 dias corridos (CPP, arts. 619 e 798; Lei 8.038/1990, art. 39); cível, embargos de declaração em 5 e agravo interno em 15 dias úteis (CPC, arts. 1.023, 1.021 e 1.070), todos da intimação da decisão) ou trânsito em julgado.",
    );
  });

  it("a TJ's acórdão names the REsp and RE with CPC 1.029", () => {
    const listed = movement(12103, "Pauta", { dataHora: "2026-10-20T10:00:00.000Z" });
    const r = rec("G2", "tjsp", 198, "Apelação Cível", listed, acordao);
    expect(actAttention(acordao, r)?.reason).toContain(
      "recurso especial ou extraordinário: 15 dias úteis da intimação do acórdão (CPC, arts. 1.003, § 5º, e 1.029; dias úteis, art. 219)",
    );
  });
});

describe("citação, by the class", () => {
  const done = movement(15721, "Citação Realizada");
  const confirmed = movement(12288, "Confirmada");
  const sent = movement(15726, "Citação Expedida");
  const failed = movement(15727, "Citação Não Realizada");

  it("every code under 12284 Citação is read as one, by the tree", () => {
    const r = rec("G1", "tjsp", ...COMMON);
    for (const m of [
      done,
      confirmed,
      sent,
      movement(12285, "Em Secretaria/Comparecimento Espontâneo"),
    ]) {
      expect(keyOf(m, r), String(m.code)).toBe("civil_citation");
    }
    for (const m of [
      failed,
      movement(15548, "Erro/Falha na Citação"),
      movement(15246, "Não Confirmada"),
    ]) {
      expect(keyOf(m, r), String(m.code)).toBe("citation_failed");
    }
  });

  it("civil: contestação in 15 dias úteis (CPC 335), from the audiência or the juntada, never the citação's day", () => {
    const r = rec("G1", "tjsp", ...COMMON, done);
    const [contestação] = actPeriods(done, r)?.periods ?? [];
    expect(contestação?.days).toBe(15);
    expect(contestação?.counting).toBe("business");
    expect(contestação?.article).toBe("CPC, art. 335; dias úteis, art. 219");
    expect(contestação?.from).toContain("juntada do aviso de recebimento ou do mandado cumprido");
    expect(contestação?.from).toContain("nunca do dia da citação");
    expect(actAttention(done, r)?.next).toMatch(/^Contestação \(contestação \(procedimento comum/);
    // Only sent: the period will open once the citação is made.
    expect(actAttention(sent, r)?.reason).toMatch(
      /^citação expedida \(ainda não cumprida\): prazo que abrirá, cumprida a citação: /,
    );
    expect(actAttention(sent, r)?.next).toMatch(/^Contestação, depois de cumprida a citação \(/);
  });

  it("criminal: resposta à acusação in 10 calendar days from the citação itself (CPP 396, 798 § 5º a; Súmula 710)", () => {
    const r = rec("G1", "tjto", ...PENAL, done);
    expect(keyOf(done, r)).toBe("criminal_citation");
    expect(lengths(done, r)).toEqual(["resposta à acusação: 10 calendar"]);
    expect(actAttention(done, r)?.reason).toContain(
      "resposta à acusação: 10 dias corridos da própria citação, não da juntada do mandado (CPP, art. 798, § 5º, a; Súmula 710 do STF)",
    );
  });

  it("execução: 3 dias to pay (CPC 829) and embargos in 15 dias úteis from the juntada (CPC 915, 231)", () => {
    const r = rec("G1", "tjsp", ...EXTRA, done);
    expect(keyOf(done, r)).toBe("execution_citation");
    expect(lengths(done, r)).toEqual(["pagamento: 3 business", "embargos à execução: 15 business"]);
    expect(actPeriods(done, r)?.periods[1]?.from).toBe(
      "da juntada aos autos do comprovante da citação (CPC, arts. 915 e 231), não do dia da citação",
    );
  });

  it("execução fiscal: 5 days to pay or guarantee (LEF 8º), embargos in 30 from the guarantee (LEF 16), not the citação", () => {
    const r = rec("G1", "tjto", ...FISCAL, done);
    expect(keyOf(done, r)).toBe("tax_execution_citation");
    expect(lengths(done, r)).toEqual([
      "pagamento ou garantia da execução: 5 calendar",
      "embargos à execução fiscal, depois da garantia: 30 calendar",
    ]);
    expect(actPeriods(done, r)?.periods[1]?.from).toContain("não da citação");
  });

  it("labour: the defence at the hearing (CLT 847); a labour execução: 48 horas (CLT 880), embargos 5 (CLT 884)", () => {
    expect(lengths(done, rec("G1", "trt2", ...LABOUR, done))).toEqual([
      "defesa na audiência: - business",
    ]);
    expect(lengths(done, rec("G1", "trt2", ...LABOUR_EXEC, done))).toEqual([
      "pagamento ou garantia da execução, sob pena de penhora: 48 horas calendar",
      "embargos à execução, depois de garantida a execução ou penhorados os bens: 5 business",
    ]);
    expect(keyOf(done, rec("G1", "tjdft", ...JEC, done))).toBe("juizado_citation");
  });

  it("a citação not made opens nothing; a court's 'Expedição de documento' of a mandado de citação is a citação sent", () => {
    const r = rec("G1", "tjsp", ...COMMON, failed);
    expect(actAttention(failed, r)?.reason).toBe(
      "citação não realizada: nenhum prazo de resposta corre contra quem não foi citado; no processo civil cabe ao autor promover nova citação (CPC, art. 240, § 2º)",
    );
    const paper = movement(60, "Expedição de documento", {
      complementosTabelados: [
        { codigo: 4, valor: 78, nome: "Mandado de Citação", descricao: "tipo_de_documento" },
      ],
    });
    expect(keyOf(paper, r)).toBe("civil_citation");
    expect(actAttention(paper, r)?.reason).toMatch(/^citação expedida \(ainda não cumprida\)/);
    // A mandado that is not a citação stays a routine expedição.
    const other = movement(60, "Expedição de documento", {
      complementosTabelados: [
        { codigo: 4, valor: 78, nome: "Mandado", descricao: "tipo_de_documento" },
      ],
    });
    expect(keyOf(other, r)).toBeNull();
    // In a cumprimento de sentença the debtor is intimated, not cited (CPC 513 § 2º): generic.
    expect(keyOf(done, rec("G1", "tjsp", ...ENFORCE, done))).toBeNull();
  });
});

describe("trânsito em julgado and baixa", () => {
  const final = movement(848, "Trânsito em julgado");

  it("no appeal any more; cumprimento on request (CPC 523); rescisória in 2 anos (CPC 975) as information", () => {
    const r = rec("G1", "tjsc", ...COMMON, final);
    expect(lengths(final, r)).toEqual([
      "cumprimento de sentença, a requerimento do credor: - business",
      "ação rescisória: 2 anos calendar",
    ]);
    const attention = actAttention(final, r);
    expect(attention?.reason).toMatch(
      /^trânsito em julgado: não cabe mais recurso; o que pode seguir: /,
    );
    expect(attention?.reason).toContain(
      "ação rescisória (só informação, sem urgência): 2 anos do trânsito em julgado da última decisão do processo (CPC, art. 975)",
    );
    expect(attention?.next).toBe(
      "Cumprimento de sentença, a requerimento do credor (CPC, art. 523), se houver o que cumprir; senão, arquivamento.",
    );
  });

  it("by the branch: criminal (execução da pena, revisão criminal), labour (CLT 878, 836), juizado (no rescisória)", () => {
    expect(keyOf(final, rec("G1", "tjto", ...PENAL))).toBe("criminal_final_judgment");
    expect(keyOf(final, rec("G1", "trt2", ...LABOUR))).toBe("labour_final_judgment");
    expect(actAttention(final, rec("G1", "tjdft", ...JEC))?.reason).toContain(
      "no juizado não cabe ação rescisória (Lei 9.099/1995, art. 59)",
    );
  });

  it("a baixa definitiva asks for no attention: the next step says the case left the court", () => {
    const baixa = movement(22, "Baixa Definitiva");
    const r = rec("G2", "tjsp", 198, "Apelação Cível", baixa);
    expect(actAttention(baixa, r)).toBeNull();
    const summary = rulesSummary({
      cnjNumber: "0000000-00.2026.8.26.0000",
      court: "tjsp",
      records: [realShape(r)],
      newMovements: [baixa],
      now: new Date("2026-12-02T15:00:00.000Z"),
    });
    expect(summary.needsLawyerAttention).toBe(false);
    expect(summary.nextExpectedStep).toBe(
      "Baixa definitiva em 18/11/2026: os autos saíram deste juízo ou tribunal (baixa na distribuição; num tribunal, a volta à origem): este ato não abre prazo, é só informação.",
    );
  });
});

/** The record of `r` under this file's case number. */
function realShape(r: Rec): InstanceRecord {
  return instanceRecordOf(r, "00000000020268260000");
}

function never(): never {
  throw new Error("no period");
}

describe("the table itself", () => {
  it("marks every period that does not run from the act's intimação, so no publication dates it", () => {
    const undatable = ACT_KEYS.flatMap((key) =>
      actReadingOf(key)
        .periods.filter((p) => p.notFromPublication === true)
        .map((p) => `${key}: ${p.name.split(" (")[0]}`),
    );
    // The citação's answer runs from the juntada, the audiência or the citação itself (CPC 231,
    // 335; CPP 798 § 5º a), the embargos from the guarantee (LEF 16), what follows the trânsito
    // from a request: never from a publication of the act.
    expect(undatable).toEqual([
      "civil_citation: contestação",
      "criminal_citation: resposta à acusação",
      "labour_citation: defesa na audiência",
      "juizado_citation: contestação, oral ou escrita, na audiência",
      "execution_citation: pagamento",
      "execution_citation: embargos à execução",
      "tax_execution_citation: pagamento ou garantia da execução",
      "tax_execution_citation: embargos à execução fiscal, depois da garantia",
      "labour_execution_citation: pagamento ou garantia da execução, sob pena de penhora",
      "labour_execution_citation: embargos à execução, depois de garantida a execução ou penhorados os bens",
      "final_judgment: cumprimento de sentença, a requerimento do credor",
      "final_judgment: ação rescisória",
      "criminal_final_judgment: execução da pena, se houve condenação",
      "criminal_final_judgment: revisão criminal da condenação",
      "labour_final_judgment: execução, promovida pela parte",
      "labour_final_judgment: ação rescisória",
      "juizado_final_judgment: execução da sentença, a pedido do interessado",
    ]);
    // What runs from the intimação of a decision keeps no mark: a publication may date it.
    expect(actReadingOf("civil_sentence").periods.some((p) => p.notFromPublication)).toBe(false);
  });

  it("every act's periods fit the 500 characters an attention reason keeps, with the longest lead", () => {
    // "citação na execução fiscal expedida (ainda não cumprida): prazo que abrirá, cumprida a
    // citação: " is the longest lead (98 characters); a reason longer than 500 is cut with "…"
    // (text.ts oneLine), which would drop the article at its end.
    for (const key of ACT_KEYS) {
      const r = actReadingOf(key);
      const length = periodsText(r).length + (r.note === undefined ? 0 : r.note.length + 2);
      expect(length, key).toBeLessThanOrEqual(400);
    }
  });
});
