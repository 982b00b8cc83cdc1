import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ackLinks, ackToken } from "../../../src/ack/ack-token.js";
import type { HttpServer } from "../../../src/http/server.js";
import { createLogger } from "../../../src/log.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import type { AlertContent } from "../../../src/notify/render/alert-content.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import type { OutgoingMessage } from "../../../src/notify/transport/mail-transport.js";
import type { EndpointPolicy } from "../../../src/policy/alert-rules.js";
import type { MailPolicy } from "../../../src/policy/mail-policy.js";
import { type OutboxRow, outboxRowById } from "../../../src/store/outbox.js";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import {
  ACK_BASE,
  ACK_SECRET,
  acknowledgedOf,
  ackPathOf,
  callServer,
  drainMailCapture,
  startAckServer,
  watchersPolicy,
} from "../../support/ack-http.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * An urgent alert that reaches its reader inside a digest (issue 40) carries its own
 * acknowledgement link there, bound to that alert and that reader as the link of an alert sent
 * alone: in the e-mail digest (text and HTML), under its line in a chat digest, and on WhatsApp,
 * whose template holds one link, as a message of its own at the digest's time. The links work on
 * the one page, first wins; a digest asks nothing when acknowledgement is off.
 */

const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const silent = createLogger({ level: "silent" });
const WA_TOKEN = "EAAGdigestWHATSAPPtoken0123456789";

const SLACK: EndpointPolicy = {
  name: "equipe",
  channel: "slack",
  events: ["case.movement"],
  delivery: "digest",
  digestSchedule: null,
  quietHours: false,
};
const ZAP: EndpointPolicy = {
  name: "zap",
  channel: "whatsapp",
  events: ["case.movement"],
  delivery: "digest",
  digestSchedule: null,
  quietHours: false,
  perWatcher: true,
};

function policy(acknowledgement = true): MailPolicy {
  return watchersPolicy(
    [
      ["ana@example.com", "+5561987654321"],
      ["rui@example.com", null],
    ],
    { endpoints: [SLACK, ZAP], defaultDelivery: "digest", acknowledgement },
  );
}

let store: TempStore;
let clock: FakeClock;
let server: HttpServer;
let port: number;
let slack: FakeSlack;
let whatsapp: FakeWhatsApp;

beforeAll(async () => {
  slack = await startFakeSlack();
  whatsapp = await startFakeWhatsApp({ token: WA_TOKEN });
});
afterAll(async () => {
  await slack.close();
  await whatsapp.close();
});

beforeEach(async () => {
  store = tempStore("ack-digest-");
  clock = new FakeClock({ now: NOW });
  ({ server, port } = await startAckServer({ db: store.db, clock, policy: () => policy() }));
});

afterEach(async () => {
  await server.close();
  store.dispose();
  slack.messages.length = 0;
  whatsapp.messages.length = 0;
});

const CASES = {
  silva: { caseNumber: "0713383-43.2025.8.07.0006", label: "Silva x Estado", urgent: true },
  souza: {
    caseNumber: "1035289-48.2022.8.26.0602",
    court: "tjsp",
    label: "Souza x União",
    urgent: true,
  },
  lima: { caseNumber: "0000002-00.2025.8.07.0001", label: "Lima x Banco", urgent: false },
} satisfies Record<string, Partial<AlertContent>>;

/** Each case's alert queued to Ana and Rui as the sweep queues it, under `policy`. */
function queueAll(on = true): void {
  for (const overrides of Object.values(CASES)) {
    const content = sampleAlert(overrides);
    const iso = new Date(NOW).toISOString();
    const { caseId, changeId } = queueChange(store.db, content, [], iso);
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(NOW), policy: policy(on) },
      movementAlert({ changeId, caseId, detectedAt: iso, content, channels: ["equipe"] }),
      emailEndpoints(["ana@example.com", "rui@example.com"]),
    );
  }
}

function rowOf(recipient: string, label: string, target: string | null = null): OutboxRow {
  const found = store.db
    .prepare<[string, string, string | null], { id: number }>(
      "SELECT id FROM outbox WHERE recipient = ? AND subject LIKE '%' || ? || '%' AND target IS ?",
    )
    .get(recipient, label, target);
  const row = found === undefined ? undefined : outboxRowById(store.db, found.id);
  if (row === undefined) throw new Error(`no row for ${recipient} ${label}`);
  return row;
}

const link = (row: OutboxRow): string => `${ACK_BASE}${ackPathOf(row)}`;

function drainMail(): Promise<OutgoingMessage[]> {
  return drainMailCapture(store.db, clock);
}

function endpoints(): Endpoint[] {
  return [
    { name: "equipe", channel: "slack", url: slack.url },
    {
      name: "zap",
      channel: "whatsapp",
      apiBase: whatsapp.apiBase,
      token: WA_TOKEN,
      phoneNumberId: whatsapp.phoneNumberId,
      to: null,
      template: { name: "alerta_processo", language: "pt_BR" },
    },
  ];
}

function drainChats() {
  return drainEndpoints({
    db: store.db,
    endpoints: endpoints(),
    limits: { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 },
    clock,
    maxAttempts: 3,
    logger: silent,
    claimant: { holder: "me@host", holderIsDead: () => false },
    ackLink: ackLinks(ACK_BASE, ACK_SECRET),
  });
}

function acknowledged(row: OutboxRow) {
  return acknowledgedOf(store.db, row);
}

describe("an e-mail digest", () => {
  it("carries each urgent item's own link, bound to it and its watcher, in text and HTML", async () => {
    queueAll();

    const sent = await drainMail();

    const ana = sent.find((m) => m.to === "ana@example.com");
    const rui = sent.find((m) => m.to === "rui@example.com");
    expect(sent).toHaveLength(2);
    for (const label of ["Silva", "Souza"]) {
      expect(ana?.text).toContain(link(rowOf("ana@example.com", label)));
      expect(ana?.html).toContain(link(rowOf("ana@example.com", label)));
      expect(rui?.text).toContain(link(rowOf("rui@example.com", label)));
      expect(ana?.text).not.toContain(link(rowOf("rui@example.com", label)));
    }
    // The two urgent alerts ask; the third, not urgent, carries none.
    expect(rowOf("ana@example.com", "Lima").ackId).toBeNull();
    expect(ana?.text.match(/\/ack\//g)).toHaveLength(2);
    expect(ana?.text).toContain(
      "Alerta urgente: confirme que o viu em https://monitor.example.com/ack/",
    );
  });

  it("links that acknowledge their own alert once: valid, reused, another watcher's, moved", async () => {
    queueAll();
    await drainMail();
    const anaSilva = rowOf("ana@example.com", "Silva");
    const anaSouza = rowOf("ana@example.com", "Souza");
    const ruiSilva = rowOf("rui@example.com", "Silva");
    const origin = { origin: ACK_BASE };

    const first = await callServer(port, "POST", ackPathOf(anaSilva), origin);
    const reused = await callServer(port, "POST", ackPathOf(anaSilva), origin);
    const others = await callServer(port, "POST", ackPathOf(ruiSilva), origin);
    const [, mac] = ackPathOf(anaSilva).slice("/ack/".length).split(".");
    const moved = await callServer(port, "POST", `/ack/${anaSouza.id}.${mac}`, origin);
    const forged = ackToken("another-secret-0123456789abcdef-xyz", {
      rowId: anaSouza.id,
      ackId: anaSouza.ackId ?? -1,
      dedupeKey: anaSouza.dedupeKey,
    });
    const wrongKey = await callServer(port, "POST", `/ack/${forged}`, origin);

    expect(first.status).toBe(200);
    expect(acknowledged(anaSilva)).toEqual({
      at: "2026-03-02T13:00:00.000Z",
      by: "ana@example.com",
    });
    expect(reused.status).toBe(409);
    expect(others.status).toBe(409);
    expect(moved.status).toBe(404);
    expect(wrongKey.status).toBe(404);
    // Souza's alert is its own: nothing of Silva's acknowledged it.
    expect(acknowledged(anaSouza)).toEqual({ at: null, by: null });
  });

  it("carries no link when acknowledgement is off", async () => {
    queueAll(false);

    const sent = await drainMail();

    expect(sent).toHaveLength(2);
    for (const m of sent) {
      expect(m.text).not.toContain("/ack/");
      expect(m.html).not.toContain("/ack/");
    }
    const asked = store.db.prepare("SELECT COUNT(*) AS n FROM acknowledgements").get();
    expect(asked).toEqual({ n: 0 });
  });
});

describe("a chat digest", () => {
  it("puts each urgent alert first, its own link under it (Slack), the rest without", async () => {
    queueAll();

    await drainChats();

    expect(slack.messages).toHaveLength(1);
    const text = slack.messages[0]?.text ?? "";
    const ackLinks_ = slack.messages[0]?.links.filter((l) => l.url.includes("/ack/")) ?? [];
    expect(ackLinks_.map((l) => l.url).sort()).toEqual(
      [link(rowOf("equipe", "Silva")), link(rowOf("equipe", "Souza"))].sort(),
    );
    expect(ackLinks_.every((l) => l.label === "Confirmar ciência")).toBe(true);
    const lines = text.split("\n");
    expect(lines[1]).toMatch(/Silva x Estado|Souza x União/u);
    expect(lines[2]).toMatch(/^↳ alerta urgente: confirme que o viu · </u);
    expect(lines.at(-1)).toMatch(/Lima x Banco/u);
  });

  it("sends on WhatsApp each urgent alert alone at the digest's time, its link in {{3}}", async () => {
    queueAll();

    await drainChats();

    // Ana's number: Silva's and Souza's alerts one message each, Lima's (asking nothing) alone
    // too since it is the only one left for the digest.
    const shown = whatsapp.messages.map((m) => m.parameters);
    expect(whatsapp.messages).toHaveLength(3);
    const silva = link(rowOf("zap", "Silva", "+5561987654321"));
    const souza = link(rowOf("zap", "Souza", "+5561987654321"));
    expect(
      shown
        .map((p) => p[2])
        .filter((l) => l?.includes("/ack/"))
        .sort(),
    ).toEqual([silva, souza].sort());
    expect(shown.find((p) => p[0]?.includes("Lima"))?.[2]).not.toContain("/ack/");
  });
});
