import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { type CaseOutputs, caseOutputs } from "../../support/act-outputs.js";
import { baseEnv, emlFiles, runOnce, workspace } from "../../support/cli-harness.js";
import type { FixtureDoc } from "../../support/fixtures.js";
import {
  formatted,
  loadRealHits,
  type RawMovement,
  realHit,
  updateStamper,
} from "../../support/real-datajud.js";

/*
 * Issue 34: the acts that change what a lawyer must do, each on the real tjto record (its first
 * instance, or its second for a court's acts) edited as a court records the act, with the class
 * the act belongs to. Through the fake DataJud, the sweep (rules summaries), the mail (text and
 * HTML) and the signed webhook event, then `history` (text, JSON, CSV, XLSX), `export` and the
 * MCP's get_case_history and get_case: each alert names the periods the act opens, their length,
 * how they count and the article, and every output names the act as a lawyer does. The expected
 * words are the law's, worked out by hand from the statutes:
 * - civil sentença: apelação 15 dias úteis (CPC art. 1.003 § 5º; art. 219), embargos 5 (art. 1.023);
 * - juizado: recurso inominado 10 (Lei 9.099/1995 art. 42), embargos 5 (art. 49), úteis (art. 12-A);
 * - criminal: apelação 5 dias corridos (CPP arts. 593 and 798);
 * - labour: recurso ordinário 8 dias úteis (CLT arts. 895 I and 775), embargos 5 (art. 897-A); a
 *   TRT's acórdão: recurso de revista 8 (CLT art. 896; Lei 5.584/1970 art. 6º);
 * - a TJ's acórdão: REsp/RE 15 (CPC arts. 1.003 § 5º, 1.029); a decision of its relator: agravo
 *   interno 15 (CPC arts. 1.021, 1.070); a first-instance decision: agravo de instrumento 15 where
 *   CPC art. 1.015 admits it;
 * - citação: contestação 15 dias úteis from the audiência or the juntada (CPC arts. 335, 231);
 *   resposta à acusação 10 days from the citação itself (CPP arts. 396, 798 § 5º a; Súmula 710);
 *   execução: pay in 3 days, embargos 15 from the juntada (CPC arts. 829, 915); execução fiscal:
 *   pay or guarantee in 5 days, embargos 30 from the guarantee (Lei 6.830/1980 arts. 8º, 16);
 * - trânsito em julgado: cumprimento on request (CPC art. 523), ação rescisória 2 anos (art. 975);
 * - baixa definitiva: no period, no attention;
 * - embargos de declaração não acolhidos: the interrupted period runs again in full (CPC 1.026);
 * - transação homologada: a judgment on the merits by the parties' terms (CPC 487, III, b);
 * - Sisbajud: impugnação 5 dias úteis (CPC 854 § 3º); in an execução fiscal also embargos in 30
 *   days from the penhora's intimação (Lei 6.830/1980 art. 16, III), counted in calendar days;
 * - IRDR: suspended until the incident is judged (CPC 313 IV, 982 I, 980);
 * - evolution into cumprimento de sentença: pay in 15 dias úteis (CPC 523), then impugnação (525).
 */

const hits = loadRealHits();
const TJTO = "00034953520178272716";
const SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;

let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;
const stamp = updateStamper("2026-11-12");

type Klass = { codigo: number; nome: string };

/** tjto's G1 (and its G2, for a court's acts), of the class given, with `extra` in `grau`. */
function tjto(klass: Klass, grau: "G1" | "G2", ...extra: RawMovement[]): FixtureDoc[] {
  const docs =
    grau === "G1"
      ? [realHit(hits, "tjto", TJTO, "G1")]
      : [realHit(hits, "tjto", TJTO, "G1"), realHit(hits, "tjto", TJTO, "G2")];
  const edited = docs.find((d) => d._source.grau === grau) as FixtureDoc;
  edited._source.classe = klass;
  (edited._source.movimentos as RawMovement[]).push(...structuredClone(extra));
  return docs;
}

interface Alert {
  text: string;
  html: string;
  attention: string[];
  next: string | null;
  outputs: CaseOutputs;
}

/**
 * Two sweeps: the record as it was (with `before` already in it), then with the act; the act's
 * mail and webhook event, and every other output read afterwards.
 */
async function alertFor(
  klass: Klass,
  act: RawMovement,
  options: { grau?: "G1" | "G2"; before?: RawMovement[] } = {},
): Promise<Alert> {
  const grau = options.grau ?? "G1";
  const before = options.before ?? [];
  const ws = workspace("act-periods-", [formatted(TJTO)]);
  const env = baseEnv(ws, datajud, { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET });
  const first = tjto(klass, grau, ...before);
  stamp(first);
  datajud.setDocuments("tjto", first);
  await runOnce(ws, env);
  const sent = receiver.events.length;
  const mailed = new Set(emlFiles(ws));
  const then = tjto(klass, grau, ...before, act);
  stamp(then);
  datajud.setDocuments("tjto", then);
  const run = await runOnce(ws, env);
  expect(run.code).toBe(0);
  // The mail of the act's sweep (the outbox files' order is not the order they were written).
  const fresh = emlFiles(ws).filter((raw) => !mailed.has(raw));
  expect(fresh).toHaveLength(1);
  const mails = await Promise.all(fresh.map((raw) => simpleParser(raw)));
  const events = receiver.events.slice(sent) as Array<{
    type: string;
    data: { status: { attentionReasons: string[]; nextExpectedStep: string | null } };
  }>;
  expect(events.map((e) => e.type)).toEqual(["case.movement"]);
  return {
    text: mails.at(-1)?.text ?? "",
    html: String(mails.at(-1)?.html ?? ""),
    attention: events[0]?.data.status.attentionReasons ?? [],
    next: events[0]?.data.status.nextExpectedStep ?? null,
    outputs: await caseOutputs(ws, datajud, formatted(TJTO)),
  };
}

function act(codigo: number, nome: string, extra: Partial<RawMovement> = {}): RawMovement {
  return { codigo, nome, dataHora: "2026-11-18T16:45:00.000Z", ...extra };
}

const html = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The act said the same way everywhere: its attention reason (when it asks for one) in the mail's
 * text and HTML, the webhook event, `history --json` and get_case_history; its title beside its
 * code in `history`, its CSV and XLSX, `export` and get_case's latest movement.
 */
function expectEverywhere(
  alert: Alert,
  code: number,
  title: string,
  reason: string | null,
  grau: "G1" | "G2" = "G1",
): void {
  const { outputs } = alert;
  if (reason === null) {
    expect(alert.attention).toEqual([]);
  } else {
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason} (18/11/2026 16:45`);
    expect(alert.html).toContain(html(reason));
    expect(
      outputs.historyJson.cases[0]?.changes[0]?.summary?.content.attentionReasons?.map(
        (r) => r.reason,
      ),
    ).toEqual([reason]);
    expect(outputs.mcpHistory.changes[0]?.summary?.attentionReasons).toEqual([reason]);
    expect(outputs.mcpHistory.changes[0]?.summary?.nextExpectedStep).toBe(alert.next);
  }
  expect(alert.text).toContain(`Próximo passo: ${alert.next}`);
  expect(alert.html).toContain(html(alert.next ?? "-"));
  expect(outputs.historyText).toContain(`18/11/2026 16:45  ${code}  ${title}`);
  const reported = outputs.historyJson.cases[0]?.changes[0]?.movements.find((m) => m.code === code);
  expect(reported?.title).toBe(title);
  expect(outputs.mcpHistory.changes[0]?.newMovements.find((m) => m.code === code)?.title).toBe(
    title,
  );
  for (const [name, rows] of [
    ["history csv", outputs.historyCsv],
    ["export", outputs.exportCsv],
  ] as const) {
    const row = rows.find((l) => l.includes(`,${code},`) && l.includes("2026-11-18"));
    expect(row, name).toContain(`"${title}","listed"`);
  }
  const [header, ...rows] = outputs.historyXlsx;
  const at = (column: string) => header?.indexOf(column) ?? -1;
  const day = (cell: unknown) => (cell instanceof Date ? cell.toISOString() : String(cell));
  const row = rows.find((r) => r[at("code")] === code && day(r[at("date")]).includes("2026-11-18"));
  expect(row?.[at("title")], "history xlsx").toBe(title);
  const record = outputs.mcpCase.records.find((r) => r.instance === grau);
  expect(record?.latestMovement?.code).toBe(code);
  expect(record?.latestMovement?.title).toBe(title);
}

const CIVIL = { codigo: 7, nome: "Procedimento Comum Cível" };
const APPEAL = { codigo: 198, nome: "Apelação Cível" };
const PENAL = { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" };
const LABOUR = { codigo: 985, nome: "Ação Trabalhista - Rito Ordinário" };
const ROT = { codigo: 1009, nome: "Recurso Ordinário Trabalhista" };
const EXECUTION = { codigo: 12154, nome: "Execução de Título Extrajudicial" };
const TAX = { codigo: 1116, nome: "Execução Fiscal" };

/** A court's judgment session before its acórdão: the panel judged, not the relator alone. */
const SESSION = act(12103, "Pauta", { dataHora: "2026-11-10T10:00:00.000Z" });

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "act-periods-key" });
  receiver = await startFakeWebhookReceiver({ secret: SECRET });
});

afterAll(async () => {
  await Promise.all([datajud.close(), receiver.close()]);
});

describe("the periods an act opens, in the mail and the webhook event", () => {
  it("a civil sentence: apelação 15 dias úteis and embargos 5, never a generic '5 dias'", async () => {
    const alert = await alertFor(CIVIL, act(219, "Procedência"));
    const reason =
      "sentença proferida: prazos que abre: apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da sentença (CPC, art. 1.023; dias úteis, art. 219)";
    expect(alert.next).toBe(
      "Recurso da sentença (apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da sentença (CPC, art. 1.023; dias úteis, art. 219)) ou trânsito em julgado.",
    );
    expectEverywhere(alert, 219, "Julgado procedente o pedido", reason);
  });

  it("a juizado's sentence: recurso inominado in 10 dias úteis (Lei 9.099/1995, art. 42)", async () => {
    const alert = await alertFor(
      { codigo: 436, nome: "Procedimento do Juizado Especial Cível" },
      act(219, "Procedência"),
    );
    const reason =
      "sentença do juizado proferida: prazos que abre: recurso inominado: 10 dias úteis da ciência da sentença (Lei 9.099/1995, art. 42; dias úteis, art. 12-A); embargos de declaração: 5 dias úteis da ciência da sentença (Lei 9.099/1995, art. 49; dias úteis, art. 12-A)";
    expectEverywhere(alert, 219, "Julgado procedente o pedido", reason);
  });

  it("a criminal sentence: apelação in 5 calendar days (CPP, arts. 593 and 798)", async () => {
    const alert = await alertFor(PENAL, act(219, "Procedência"));
    const reason =
      "sentença condenatória: prazo que abre: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798)";
    expect(alert.next).toContain(
      "Prazo: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos",
    );
    expectEverywhere(alert, 219, "Sentença condenatória", reason);
  });

  it("embargos de declaração not accepted: the interrupted period runs again in full (CPC, art. 1.026)", async () => {
    const alert = await alertFor(CIVIL, act(200, "Não-Acolhimento de Embargos de Declaração"));
    const reason =
      "embargos de declaração julgados: recurso contra a decisão embargada (o prazo interrompido pelos embargos volta a correr por inteiro): da intimação da decisão dos embargos (CPC, art. 1.026)";
    expect(alert.next).toBe(
      "Recurso contra a decisão embargada: o prazo interrompido pelos embargos recomeça por inteiro da intimação desta decisão (CPC, art. 1.026).",
    );
    expect(alert.text).not.toContain("Próximo passo: Julgamento do recurso");
    expectEverywhere(
      alert,
      200,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      reason,
    );
  });

  it("a settlement approved is a merits judgment by the parties' terms, no appeal step", async () => {
    const alert = await alertFor(CIVIL, act(466, "Homologação de Transação"));
    expect(alert.next).toBe(
      "Cumprimento do acordo nos prazos ajustados; descumprido, cumprimento de sentença do acordo homologado (CPC, art. 515, II).",
    );
    expect(alert.text).not.toMatch(/Prazo para recurso da sentença/);
    expectEverywhere(
      alert,
      466,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      "acordo homologado: sentença de mérito nos termos do acordo (CPC, art. 487, III, b); conferir os prazos e as obrigações ajustados",
    );
  });

  it("a Sisbajud block: impugnação in 5 dias úteis (CPC, art. 854, § 3º)", async () => {
    const alert = await alertFor(CIVIL, act(11382, "Bloqueio/penhora on line"));
    const reason =
      "bloqueio ou penhora de bens: impugnação à indisponibilidade (impenhorabilidade ou excesso): 5 dias úteis da intimação do bloqueio (CPC, art. 854, § 3º; dias úteis, art. 219)";
    expect(alert.text).not.toContain("fase de cumprimento/execução iniciada");
    expectEverywhere(
      alert,
      11382,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      reason,
    );
  });

  it("a block in an execução fiscal: also embargos in 30 days from the penhora (LEF, art. 16)", async () => {
    const alert = await alertFor(TAX, act(11382, "Bloqueio/penhora on line"));
    const [reason] = alert.attention;
    expect(reason).toContain("bloqueio ou penhora na execução fiscal: ");
    expect(reason).toContain("5 dias úteis da intimação do bloqueio (CPC, art. 854, § 3º");
    expect(reason).toContain(
      "embargos à execução fiscal: 30 dias corridos da intimação da penhora (Lei 6.830/1980, art. 16, III;",
    );
    expectEverywhere(
      alert,
      11382,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      reason ?? "",
    );
  });

  it("an IRDR suspension reads suspenso, with what ends it (CPC, arts. 313, IV, 980 and 982)", async () => {
    const alert = await alertFor(
      CIVIL,
      act(12098, "Incidente de Resolução de Demandas Repetitivas"),
    );
    const reason =
      "processo suspenso por Incidente de Resolução de Demandas Repetitivas (IRDR): os prazos ficam suspensos (CPC, art. 221); a suspensão termina com o julgamento do IRDR (CPC, arts. 313, IV, e 982, I); a suspensão não passa de 1 ano salvo decisão do relator (CPC, art. 980)";
    expect(alert.text).toContain("situação: suspenso");
    expect(alert.text).not.toContain("situação: em andamento");
    expectEverywhere(
      alert,
      12098,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      reason,
    );
  });

  it("the class evolved into cumprimento de sentença: pay in 15 dias úteis (CPC, art. 523)", async () => {
    const alert = await alertFor(
      { codigo: 156, nome: "Cumprimento de sentença" },
      act(14739, "Evolução da Classe Processual"),
    );
    const reason =
      "cumprimento de sentença iniciado: pagamento voluntário (sem ele, multa de 10% e honorários de 10%): 15 dias úteis da intimação para pagar (CPC, art. 523, caput e § 1º; dias úteis, art. 219); impugnação ao cumprimento de sentença, depois do prazo de pagamento: 15 dias úteis do fim do prazo para pagamento (CPC, art. 525; dias úteis, art. 219)";
    expectEverywhere(
      alert,
      14739,
      alert.outputs.mcpHistory.changes[0]?.newMovements[0]?.title ?? "",
      reason,
    );
  });
});

describe("labour acts (CLT), agravos and a TJ's acórdão", () => {
  it("a labour sentence: recurso ordinário in 8 dias úteis (CLT, arts. 895, I, and 775), embargos in 5", async () => {
    const alert = await alertFor(LABOUR, act(219, "Procedência"));
    const reason =
      "sentença trabalhista proferida: prazos que abre: recurso ordinário: 8 dias úteis da intimação da sentença (CLT, art. 895, I; dias úteis, art. 775 (Lei 13.467/2017)); embargos de declaração: 5 dias úteis da intimação da sentença (CLT, art. 897-A; dias úteis, art. 775)";
    expect(alert.text).not.toContain("apelação");
    expectEverywhere(alert, 219, "Julgado procedente o pedido", reason);
  });

  it("a labour decision before the sentence cannot be appealed at once (CLT, art. 893, § 1º)", async () => {
    const alert = await alertFor(LABOUR, act(12164, "Outras Decisões"));
    expect(alert.next).toBe(
      "Cumprir a decisão, se exigir providência; a questão se discute no recurso da decisão definitiva (CLT, art. 893, § 1º).",
    );
    expectEverywhere(
      alert,
      12164,
      "Decisão (outras decisões)",
      "decisão interlocutória trabalhista: no processo do trabalho a decisão interlocutória não é recorrível de imediato: a questão se discute no recurso da decisão definitiva (CLT, art. 893, § 1º; exceções na Súmula 214 do TST)",
    );
  });

  it("a TRT's acórdão after its session: recurso de revista in 8 dias úteis (CLT, art. 896)", async () => {
    const alert = await alertFor(ROT, act(237, "Provimento"), { grau: "G2", before: [SESSION] });
    const reason =
      "acórdão do Tribunal Regional do Trabalho proferido: prazos que abre: embargos de declaração: 5 dias úteis da intimação do acórdão (CLT, art. 897-A; dias úteis, art. 775); recurso de revista: 8 dias úteis da intimação do acórdão (CLT, art. 896; 8 dias, Lei 5.584/1970, art. 6º; dias úteis, CLT, art. 775)";
    expect(alert.text).not.toContain("recurso especial");
    expectEverywhere(alert, 237, "Recurso provido", reason, "G2");
  });

  it("a TJ's acórdão: REsp and RE in 15 dias úteis (CPC, arts. 1.003, § 5º, and 1.029)", async () => {
    const alert = await alertFor(APPEAL, act(237, "Provimento"), { grau: "G2", before: [SESSION] });
    const reason =
      "acórdão proferido: prazos que abre: embargos de declaração: 5 dias úteis da intimação do acórdão (CPC, art. 1.023; dias úteis, art. 219); recurso especial ou extraordinário: 15 dias úteis da intimação do acórdão (CPC, arts. 1.003, § 5º, e 1.029; dias úteis, art. 219)";
    expectEverywhere(alert, 237, "Recurso provido", reason, "G2");
  });

  it("a decision of the relator in the TJ: agravo interno in 15 dias úteis (CPC, arts. 1.021 and 1.070)", async () => {
    const alert = await alertFor(APPEAL, act(12164, "Outras Decisões"), { grau: "G2" });
    const reason =
      "decisão monocrática do relator: prazos que abre: agravo interno ao colegiado: 15 dias úteis da intimação da decisão (CPC, arts. 1.021 e 1.070; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219)";
    expectEverywhere(alert, 12164, "Decisão (outras decisões)", reason, "G2");
  });

  it("a first-instance decision granting tutela: agravo de instrumento, if CPC art. 1.015 admits it", async () => {
    const alert = await alertFor(CIVIL, act(332, "Tutela Provisória"));
    const reason =
      "decisão interlocutória: prazos que pode abrir: agravo de instrumento, se cabível (só nas hipóteses do CPC, art. 1.015; fora delas, a questão se impugna na apelação, art. 1.009, § 1º): 15 dias úteis da intimação da decisão (CPC, arts. 1.003, § 5º, e 1.015; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da decisão (CPC, arts. 1.022 e 1.023; dias úteis, art. 219)";
    expectEverywhere(alert, 332, "Tutela provisória concedida", reason);
  });
});

describe("citação, trânsito em julgado and baixa", () => {
  const cited = act(15721, "Citação Realizada");

  it("a citação in a civil case: contestação in 15 dias úteis, counted from the juntada, not the citação (CPC, arts. 335 and 231)", async () => {
    const alert = await alertFor(CIVIL, cited);
    const [reason] = alert.attention;
    expect(reason).toMatch(
      /^citação: prazo que abre: contestação \(procedimento comum; outro procedimento pode fixar outro prazo\): 15 dias úteis da audiência de conciliação/,
    );
    expect(reason).toContain("juntada do aviso de recebimento ou do mandado cumprido");
    expect(reason).toContain("nunca do dia da citação");
    expect(reason).toMatch(/\(CPC, art\. 335; dias úteis, art\. 219\)$/);
    expect(alert.next).toMatch(/^Contestação \(contestação/);
    expectEverywhere(alert, 15721, "Citação Realizada", reason ?? "");
  });

  it("a citação of the accused: resposta à acusação in 10 days from the citação itself (CPP, art. 396; Súmula 710)", async () => {
    const alert = await alertFor(PENAL, cited);
    const reason =
      "citação do acusado: prazo que abre: resposta à acusação: 10 dias corridos da própria citação, não da juntada do mandado (CPP, art. 798, § 5º, a; Súmula 710 do STF); citado por edital, do comparecimento do acusado ou do defensor (art. 396, parágrafo único) (CPP, art. 396; dias corridos, art. 798)";
    expectEverywhere(alert, 15721, "Citação Realizada", reason);
  });

  it("a citação in an execução: 3 days to pay and embargos in 15 from the juntada (CPC, arts. 829 and 915)", async () => {
    const alert = await alertFor(EXECUTION, cited);
    const reason =
      "citação na execução: prazo que abre: pagamento (com os honorários reduzidos à metade, art. 827, § 1º): 3 dias úteis da própria citação (CPC, art. 829) (CPC, art. 829; dias úteis, art. 219); embargos à execução (não dependem de penhora, art. 914): 15 dias úteis da juntada aos autos do comprovante da citação (CPC, arts. 915 e 231), não do dia da citação (CPC, art. 915; dias úteis, art. 219)";
    expectEverywhere(alert, 15721, "Citação Realizada", reason);
  });

  it("a citação in an execução fiscal: pay or guarantee in 5 days (LEF, art. 8º); embargos in 30 from the guarantee (art. 16)", async () => {
    const alert = await alertFor(TAX, act(15726, "Citação Expedida"));
    const [reason] = alert.attention;
    expect(reason).toMatch(
      /^citação na execução fiscal expedida \(ainda não cumprida\): prazo que abrirá, cumprida a citação: /,
    );
    expect(reason).toContain(
      "pagamento ou garantia da execução (depósito, fiança, seguro ou penhora): 5 dias corridos da citação (Lei 6.830/1980, art. 8º;",
    );
    expect(reason).toContain(
      "embargos à execução fiscal, depois da garantia: 30 dias corridos da garantia (depósito, juntada da fiança ou do seguro, intimação da penhora), não da citação (Lei 6.830/1980, art. 16; em dias corridos, a leitura mais cedo)",
    );
    expectEverywhere(alert, 15726, "Citação Expedida", reason ?? "");
  });

  it("a citação not made opens no period (CPC, art. 240, § 2º)", async () => {
    const alert = await alertFor(CIVIL, act(15727, "Citação Não Realizada"));
    expectEverywhere(
      alert,
      15727,
      "Citação Não Realizada",
      "citação não realizada: nenhum prazo de resposta corre contra quem não foi citado; no processo civil cabe ao autor promover nova citação (CPC, art. 240, § 2º)",
    );
  });

  it("trânsito em julgado: no appeal; cumprimento on request (CPC, art. 523); rescisória in 2 anos as information (CPC, art. 975)", async () => {
    const alert = await alertFor(CIVIL, act(848, "Trânsito em julgado"));
    const reason =
      "trânsito em julgado: não cabe mais recurso; o que pode seguir: cumprimento de sentença, a requerimento do credor (intimado, o devedor paga em 15 dias úteis, sem o que incidem multa e honorários de 10%): do requerimento do credor (CPC, arts. 513, § 1º, e 523); ação rescisória (só informação, sem urgência): 2 anos do trânsito em julgado da última decisão do processo (CPC, art. 975)";
    expect(alert.next).toBe(
      "Cumprimento de sentença, a requerimento do credor (CPC, art. 523), se houver o que cumprir; senão, arquivamento.",
    );
    expect(alert.text).not.toContain("URGENTE");
    expectEverywhere(alert, 848, "Trânsito em julgado", reason);
  });

  it("a baixa definitiva asks for no attention: the next step says the case left the court", async () => {
    const alert = await alertFor(APPEAL, act(22, "Baixa Definitiva"), { grau: "G2" });
    expect(alert.next).toBe(
      "Baixa definitiva em 18/11/2026: os autos saíram deste juízo ou tribunal (baixa na distribuição; num tribunal, a volta à origem): este ato não abre prazo, é só informação.",
    );
    expect(alert.text).not.toContain("REQUER ATENÇÃO");
    expectEverywhere(alert, 22, "Baixa Definitiva", null, "G2");
  });
});
