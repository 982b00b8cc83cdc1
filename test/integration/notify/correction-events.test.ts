import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { baseEnv, query, runOnce, type Workspace, workspace } from "../../support/cli-harness.js";
import type { FixtureDoc } from "../../support/fixtures.js";
import {
  cancelledHearing,
  formatted,
  SCHEDULED_HEARING as HEARING,
  loadRealHits,
  type RawMovement,
  realHit,
  updateStamper,
} from "../../support/real-datajud.js";

/*
 * Issue 26's corrections reach the webhooks and chats through queueMessage: a hearing a court
 * cancels in place after it was alerted is one e-mail (the alert's correction section) and one
 * case.correction event per endpoint the case routes to, signed, urgent, saying what it was and
 * what it is now; the alert with nothing but the correction is no case.movement. A real tjto
 * record edited as the court would, through the fake DataJud. Its class changed and acts of 2018
 * first listed now reach the webhook as a case.movement with fieldChanges and lateMovements.
 */

const hits = loadRealHits();
const TJTO = "00034953520178272716";
const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;

let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;
let slack: FakeSlack;
let ws: Workspace;
let env: Record<string, string>;
const stamp = updateStamper("2026-11-21");

function serve(...extra: RawMovement[]): void {
  const doc: FixtureDoc = realHit(hits, "tjto", TJTO, "G1");
  (doc._source.movimentos as RawMovement[]).push(...structuredClone(extra));
  stamp([doc]);
  datajud.setDocuments("tjto", [doc]);
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "correction-events-key" });
  receiver = await startFakeWebhookReceiver({ secret: SECRET });
  slack = await startFakeSlack();
  ws = workspace("correction-events-", [formatted(TJTO)]);
  writeFileSync(
    ws.watchlistPath,
    `defaults:\n  notify: [ana@example.com]\n  channels: [equipe]\ncases:\n  - number: "${formatted(TJTO)}"\n`,
  );
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(
    config,
    "notify:\n  endpoints:\n    equipe: { channel: slack, urlVariable: SLACK_URL, quietHours: false }\n",
  );
  env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: SECRET,
    SLACK_URL: slack.url,
  });
});

afterAll(async () => {
  await Promise.all([receiver.close(), slack.close(), datajud.close()]);
});

describe("a hearing cancelled in place after it was alerted", () => {
  it("is one case.correction event per endpoint, and no empty case.movement", async () => {
    serve();
    await runOnce(ws, env);
    serve(HEARING);
    await runOnce(ws, env);
    const before = receiver.events.length;
    const slackBefore = slack.messages.length;

    serve(cancelledHearing(HEARING));
    const run = await runOnce(ws, env);
    await runOnce(ws, env);

    expect(run.code).toBe(0);
    const events = receiver.events.slice(before) as Array<{
      type: string;
      data: {
        urgent: boolean;
        correction: string;
        summary: string;
        was: { complements: string[] };
        now: { complements: string[] };
      };
    }>;
    expect(events.map((e) => e.type)).toEqual(["case.correction"]);
    const [event] = events;
    expect(event?.data.correction).toBe("amended");
    expect(event?.data.urgent).toBe(true);
    expect(event?.data.summary).toContain("cancelada");
    expect(event?.data.was.complements.join(" ")).toContain("designada");
    expect(event?.data.now.complements.join(" ")).toContain("cancelada");
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    const chat = slack.messages.slice(slackBefore);
    expect(chat).toHaveLength(1);
    expect(chat[0]?.text).toContain("Correção");
    expect(chat[0]?.text).toContain("cancelada");
    const rows = query<{ channel: string; status: string }>(
      ws,
      "SELECT channel, status FROM outbox WHERE dedupe_key LIKE 'correction:%' ORDER BY id",
    );
    expect(rows).toEqual([
      { channel: "webhook", status: "sent" },
      { channel: "slack", status: "sent" },
    ]);
  });
});

describe("a class change and a late record of the real tjto record", () => {
  it("reach the webhook with before and after, in the instance, and the late record's own date", async () => {
    const own = workspace("late-field-events-", [formatted(TJTO)]);
    const ownEnv = baseEnv(own, datajud, { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET });
    serve();
    await runOnce(own, ownEnv);
    const before = receiver.events.length;
    // A petition and an intimação of 2018 first listed now, and the case turned into a
    // cumprimento de sentença.
    const doc: FixtureDoc = realHit(hits, "tjto", TJTO, "G1");
    (doc._source.movimentos as RawMovement[]).push(
      { codigo: 12266, nome: "Confirmada", dataHora: "2018-03-02T08:00:00.000Z" },
      {
        codigo: 118,
        nome: "Protocolo de Petição",
        dataHora: "2018-03-01T10:00:00.000Z",
        complementosTabelados: [
          { codigo: 19, valor: 57, nome: "Petição (outras)", descricao: "tipo_de_peticao" },
        ],
      },
    );
    doc._source.classe = { codigo: 156, nome: "Cumprimento de sentença" };
    doc._source.dataHoraUltimaAtualizacao = "2026-11-30T10:00:00.000Z";
    datajud.setDocuments("tjto", [doc]);

    const run = await runOnce(own, ownEnv);

    expect(run.code).toBe(0);
    const events = receiver.events.slice(before) as Array<{
      type: string;
      data: {
        urgent: boolean;
        movements: unknown[];
        lateMovements?: Array<Record<string, unknown>>;
        fieldChanges?: Array<Record<string, unknown>>;
      };
    }>;
    expect(events.map((e) => e.type)).toEqual(["case.movement"]);
    const data = events[0]?.data;
    expect(data?.movements).toEqual([]);
    expect(data?.urgent).toBe(false);
    expect(data?.lateMovements).toEqual([
      expect.objectContaining({
        instance: "G1",
        code: 118,
        title: "Protocolo de Petição",
        dateTime: "2018-03-01T10:00:00",
        complements: ["tipo de petição: Petição (outras)"],
        late: true,
      }),
      expect.objectContaining({
        code: 12266,
        name: "Confirmada",
        title: "Intimação eletrônica confirmada",
        dateTime: "2018-03-02T08:00:00",
        late: true,
      }),
    ]);
    expect(data?.lateMovements?.[0]?.daysLate).toBeGreaterThan(90);
    // DataJud's values (codes and names) and the words mail reads, in the instance.
    const classChange = data?.fieldChanges?.map((f) => [
      f.instance,
      f.field,
      f.before,
      f.afterText,
    ]);
    expect(classChange).toEqual([
      [
        "G1",
        "class",
        { code: 7, name: "Procedimento Comum Cível" },
        "Cumprimento de sentença (código 156)",
      ],
    ]);
  });
});
