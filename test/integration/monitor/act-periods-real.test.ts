import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
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
 * instance) edited as a court records the act, with the class the act belongs to. Through the
 * fake DataJud, the sweep (rules summaries), the mail and the signed webhook event: each alert
 * names the periods the act opens, their length, how they count and the article. The expected
 * words are the law's, worked out by hand from the statutes:
 * - civil sentença: apelação 15 dias úteis (CPC art. 1.003 § 5º; art. 219), embargos 5 (art. 1.023);
 * - juizado: recurso inominado 10 (Lei 9.099/1995 art. 42), embargos 5 (art. 49), úteis (art. 12-A);
 * - criminal: apelação 5 dias corridos (CPP arts. 593 and 798);
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

function tjto(klass: { codigo: number; nome: string }, ...extra: RawMovement[]): FixtureDoc {
  const doc = realHit(hits, "tjto", TJTO, "G1");
  doc._source.classe = klass;
  (doc._source.movimentos as RawMovement[]).push(...structuredClone(extra));
  return doc;
}

interface Alert {
  text: string;
  attention: string[];
  next: string | null;
}

/** Two sweeps: the record as it was, then with the act; the last mail and webhook event. */
async function alertFor(klass: { codigo: number; nome: string }, act: RawMovement): Promise<Alert> {
  const ws = workspace("act-periods-", [formatted(TJTO)]);
  const env = baseEnv(ws, datajud, { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET });
  const first = [tjto(klass)];
  stamp(first);
  datajud.setDocuments("tjto", first);
  await runOnce(ws, env);
  const before = receiver.events.length;
  const mailed = new Set(emlFiles(ws));
  const then = [tjto(klass, act)];
  stamp(then);
  datajud.setDocuments("tjto", then);
  const run = await runOnce(ws, env);
  expect(run.code).toBe(0);
  // The mail of the act's sweep (the outbox files' order is not the order they were written).
  const fresh = emlFiles(ws).filter((raw) => !mailed.has(raw));
  expect(fresh).toHaveLength(1);
  const mails = await Promise.all(fresh.map((raw) => simpleParser(raw)));
  const events = receiver.events.slice(before) as Array<{
    type: string;
    data: { status: { attentionReasons: string[]; nextExpectedStep: string | null } };
  }>;
  expect(events.map((e) => e.type)).toEqual(["case.movement"]);
  return {
    text: mails.at(-1)?.text ?? "",
    attention: events[0]?.data.status.attentionReasons ?? [],
    next: events[0]?.data.status.nextExpectedStep ?? null,
  };
}

function act(codigo: number, nome: string): RawMovement {
  return { codigo, nome, dataHora: "2026-11-18T16:45:00.000Z" };
}

const CIVIL = { codigo: 7, nome: "Procedimento Comum Cível" };

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
    expect(alert.text).toContain(`- ${reason} (18/11/2026 16:45`);
    expect(alert.attention).toEqual([reason]);
    expect(alert.next).toBe(
      "Recurso da sentença (apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º; dias úteis, art. 219); embargos de declaração: 5 dias úteis da intimação da sentença (CPC, art. 1.023; dias úteis, art. 219)) ou trânsito em julgado.",
    );
    expect(alert.text).toContain(`Próximo passo: ${alert.next}`);
  });

  it("a juizado's sentence: recurso inominado in 10 dias úteis (Lei 9.099/1995, art. 42)", async () => {
    const alert = await alertFor(
      { codigo: 436, nome: "Procedimento do Juizado Especial Cível" },
      act(219, "Procedência"),
    );
    const reason =
      "sentença do juizado proferida: prazos que abre: recurso inominado: 10 dias úteis da ciência da sentença (Lei 9.099/1995, art. 42; dias úteis, art. 12-A); embargos de declaração: 5 dias úteis da ciência da sentença (Lei 9.099/1995, art. 49; dias úteis, art. 12-A)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason}`);
  });

  it("a criminal sentence: apelação in 5 calendar days (CPP, arts. 593 and 798)", async () => {
    const alert = await alertFor(
      { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" },
      act(219, "Procedência"),
    );
    const reason =
      "sentença condenatória: prazo que abre: apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason}`);
    expect(alert.next).toContain("Prazo: apelação: 5 dias corridos");
  });

  it("embargos de declaração not accepted: the interrupted period runs again in full (CPC, art. 1.026)", async () => {
    const alert = await alertFor(CIVIL, act(200, "Não-Acolhimento de Embargos de Declaração"));
    const reason =
      "embargos de declaração julgados: recurso contra a decisão embargada (o prazo interrompido pelos embargos volta a correr por inteiro): da intimação da decisão dos embargos (CPC, art. 1.026)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason}`);
    expect(alert.next).toBe(
      "Recurso contra a decisão embargada: o prazo interrompido pelos embargos recomeça por inteiro da intimação desta decisão (CPC, art. 1.026).",
    );
    expect(alert.text).not.toContain("Próximo passo: Julgamento do recurso");
  });

  it("a settlement approved is a merits judgment by the parties' terms, no appeal step", async () => {
    const alert = await alertFor(CIVIL, act(466, "Homologação de Transação"));
    expect(alert.attention).toEqual([
      "acordo homologado: sentença de mérito nos termos do acordo (CPC, art. 487, III, b); conferir os prazos e as obrigações ajustados",
    ]);
    expect(alert.next).toBe(
      "Cumprimento do acordo nos prazos ajustados; descumprido, cumprimento de sentença do acordo homologado (CPC, art. 515, II).",
    );
    expect(alert.text).not.toMatch(/Prazo para recurso da sentença/);
  });

  it("a Sisbajud block: impugnação in 5 dias úteis (CPC, art. 854, § 3º)", async () => {
    const alert = await alertFor(CIVIL, act(11382, "Bloqueio/penhora on line"));
    const reason =
      "bloqueio ou penhora de bens: impugnação à indisponibilidade (impenhorabilidade ou excesso): 5 dias úteis da intimação do bloqueio (CPC, art. 854, § 3º; dias úteis, art. 219)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason}`);
    expect(alert.text).not.toContain("fase de cumprimento/execução iniciada");
  });

  it("a block in an execução fiscal: also embargos in 30 days from the penhora (LEF, art. 16)", async () => {
    const alert = await alertFor(
      { codigo: 1116, nome: "Execução Fiscal" },
      act(11382, "Bloqueio/penhora on line"),
    );
    const [reason] = alert.attention;
    expect(reason).toContain("bloqueio ou penhora na execução fiscal: ");
    expect(reason).toContain("5 dias úteis da intimação do bloqueio (CPC, art. 854, § 3º");
    expect(reason).toContain(
      "embargos à execução fiscal: 30 dias corridos da intimação da penhora (Lei 6.830/1980, art. 16, III;",
    );
    expect(alert.text).toContain(`- ${reason}`);
  });

  it("an IRDR suspension reads suspenso, with what ends it (CPC, arts. 313, IV, 980 and 982)", async () => {
    const alert = await alertFor(
      CIVIL,
      act(12098, "Incidente de Resolução de Demandas Repetitivas"),
    );
    const reason =
      "processo suspenso por Incidente de Resolução de Demandas Repetitivas (IRDR): os prazos ficam suspensos (CPC, art. 221); a suspensão termina com o julgamento do IRDR (CPC, arts. 313, IV, e 982, I); a suspensão não passa de 1 ano salvo decisão do relator (CPC, art. 980)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain("situação: suspenso");
    expect(alert.text).not.toContain("situação: em andamento");
  });

  it("the class evolved into cumprimento de sentença: pay in 15 dias úteis (CPC, art. 523)", async () => {
    const alert = await alertFor(
      { codigo: 156, nome: "Cumprimento de sentença" },
      act(14739, "Evolução da Classe Processual"),
    );
    const reason =
      "cumprimento de sentença iniciado: pagamento voluntário (sem ele, multa de 10% e honorários de 10%): 15 dias úteis da intimação para pagar (CPC, art. 523, caput e § 1º; dias úteis, art. 219); impugnação ao cumprimento de sentença, depois do prazo de pagamento: 15 dias úteis do fim do prazo para pagamento (CPC, art. 525; dias úteis, art. 219)";
    expect(alert.attention).toEqual([reason]);
    expect(alert.text).toContain(`- ${reason}`);
  });
});
