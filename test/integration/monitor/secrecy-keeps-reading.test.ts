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
 * Issue 34: hidden is not undone. The real tjto first instance as an ação penal gets a
 * conviction (TPU 219, 18/11/2026), mailed; then the court raises its secrecy to 3 and DataJud's
 * public API stops listing its last 18 movements, the conviction among them. The alert of that
 * change keeps the case decided (never "decidido → em andamento"), keeps the apelação's attention
 * (5 dias corridos, CPP arts. 593 and 798, still running) and says how many movements stopped
 * being public and from when; the signed webhook event carries the same.
 */

const hits = loadRealHits();
const TJTO = "00034953520178272716";
const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const PENAL = { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" };
const CONVICTION: RawMovement = {
  codigo: 219,
  nome: "Procedência",
  dataHora: "2026-11-18T16:45:00.000Z",
};

let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;
const stamp = updateStamper("2026-11-12");

function serve(edit: (doc: FixtureDoc) => void): void {
  const doc = realHit(hits, "tjto", TJTO, "G1");
  doc._source.classe = PENAL;
  edit(doc);
  stamp([doc]);
  datajud.setDocuments("tjto", [doc]);
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "secrecy-reading-key" });
  receiver = await startFakeWebhookReceiver({ secret: SECRET });
});

afterAll(async () => {
  await Promise.all([datajud.close(), receiver.close()]);
});

describe("movements a secrecy change hid", () => {
  it("keep the conviction's reading and its appeal attention, and the alert counts them", async () => {
    const ws = workspace("secrecy-reading-", [formatted(TJTO)]);
    const env = baseEnv(ws, datajud, { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET });
    serve(() => {});
    await runOnce(ws, env);
    const withConviction = (doc: FixtureDoc) => {
      (doc._source.movimentos as RawMovement[]).push(structuredClone(CONVICTION));
    };
    serve(withConviction);
    await runOnce(ws, env);
    const listed =
      (realHit(hits, "tjto", TJTO, "G1")._source.movimentos as RawMovement[]).length + 1;
    const before = receiver.events.length;
    const mailed = new Set(emlFiles(ws).map((raw) => raw.toString()));

    // Secrecy 3: DataJud lists only the oldest movements; the newest 18, the conviction among
    // them, are no longer public.
    serve((doc) => {
      withConviction(doc);
      doc._source.nivelSigilo = 3;
      const all = (doc._source.movimentos as RawMovement[]).sort((a, b) =>
        String(a.dataHora).localeCompare(String(b.dataHora)),
      );
      doc._source.movimentos = all.slice(0, listed - 18);
    });
    const run = await runOnce(ws, env);
    expect(run.code).toBe(0);

    // The mail of this change (the files' order is not the order they were written).
    const fresh = emlFiles(ws).filter((raw) => !mailed.has(raw.toString()));
    expect(fresh).toHaveLength(1);
    const text = (await simpleParser(fresh[0] ?? "")).text ?? "";
    const conviction =
      "sentença condenatória: prazo que abre: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798) (ato agora oculto pelo sigilo: continua valendo)";
    expect(text).toContain("Nível de sigilo alterado no 1º grau (G1)");
    expect(text).toContain("situação: decidido (Sentença condenatória em 18/11/2026)");
    expect(text).not.toMatch(/situação: em andamento/);
    expect(text).toContain(`- ${conviction}`);
    expect(text).toMatch(
      /; 18 movimentações deixaram de ser públicas com o sigilo \(registradas de \d{2}\/\d{2}\/\d{4} a 18\/11\/2026; ocultas desde \d{2}\/\d{2}\/\d{4}\): a leitura do processo as mantém/,
    );

    const events = receiver.events.slice(before) as Array<{
      type: string;
      data: {
        status: { category: string; attentionReasons: string[]; text: string };
      };
    }>;
    const event = events.find((e) => e.type === "case.movement");
    expect(event?.data.status.category).toBe("decided");
    expect(event?.data.status.attentionReasons).toContain(conviction);
    expect(event?.data.status.text).toContain("18 movimentações deixaram de ser públicas");
  });
});
