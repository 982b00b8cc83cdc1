import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ackToken } from "../../../src/ack/ack-token.js";
import type { HttpServer } from "../../../src/http/server.js";
import { createLogger } from "../../../src/log.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import type { EndpointPolicy } from "../../../src/policy/alert-rules.js";
import { type MailPolicy, mailPolicy } from "../../../src/policy/mail-policy.js";
import { acknowledgementById } from "../../../src/store/acknowledgements.js";
import { type OutboxRow, outboxRowById } from "../../../src/store/outbox.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import {
  ACK_BASE,
  ACK_SECRET,
  acknowledgedOf,
  ackPathOf,
  callServer,
  drainMailCapture,
  startAckServer,
} from "../../support/ack-http.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * Acknowledging an urgent alert by its link (issue 40), through the one HTTP server with its Host
 * and Origin rules: the page a GET opens records nothing (mail gateways prefetch links), its
 * button's POST records who and when once, and queues alert.acknowledged for the firm's webhook;
 * a link reused, expired, made for another alert's row, or reached under a foreign Host or from
 * a foreign page acknowledges nothing.
 */

const SECRET = ACK_SECRET;
const BASE = ACK_BASE;
const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const HOUR = 3_600_000;
const _silent = createLogger({ level: "silent" });

const FIRM: EndpointPolicy = {
  name: "webhook",
  channel: "webhook",
  events: ["case.movement", "alert.acknowledged"],
  delivery: "instant",
  digestSchedule: null,
  quietHours: false,
};

function policy(acknowledgement = true): MailPolicy {
  return mailPolicy(
    { cases: [], watchers: [] },
    {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
      endpoints: [FIRM],
      ...(acknowledgement ? { acknowledgement: { validHours: 24 } } : {}),
    },
  );
}

let store: TempStore;
let clock: FakeClock;
let server: HttpServer;
let port: number;

beforeEach(async () => {
  store = tempStore("ack-");
  clock = new FakeClock({ now: NOW });
  ({ server, port } = await startAckServer({ db: store.db, clock, policy: () => policy() }));
});

afterEach(async () => {
  await server.close();
  store.dispose();
});

/** An urgent alert queued to two watchers (and the firm's webhook) at `at`. */
function queueUrgent(at = NOW, label = "Silva x Estado", on = true): void {
  const content = sampleAlert({ label, urgent: true });
  const iso = new Date(at).toISOString();
  const { caseId, changeId } = queueChange(store.db, content, [], iso);
  queueMessage(
    { db: store.db, domain: DOMAIN, at: new Date(at), policy: policy(on) },
    movementAlert({ changeId, caseId, detectedAt: iso, content }),
    emailEndpoints(["ana@example.com", "rui@example.com"]),
  );
}

function rowOf(recipient: string, label = "Silva x Estado"): OutboxRow {
  const row = store.db
    .prepare<[string, string], { id: number }>(
      "SELECT id FROM outbox WHERE recipient = ? AND subject LIKE '%' || ? || '%' AND kind = 'alert'",
    )
    .get(recipient, label);
  const found = row === undefined ? undefined : outboxRowById(store.db, row.id);
  if (found === undefined) throw new Error(`no row for ${recipient}`);
  return found;
}

const pathOf = ackPathOf;

function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return callServer(port, method, path, headers);
}

function acknowledged(row: OutboxRow) {
  return acknowledgedOf(store.db, row);
}

function ackEvents(): number {
  return (
    store.db
      .prepare<[], { n: number }>(
        "SELECT COUNT(*) AS n FROM outbox WHERE message_type = 'acknowledgement' AND channel = 'webhook'",
      )
      .get()?.n ?? 0
  );
}

describe("an urgent alert's acknowledgement link", () => {
  it("is on each watcher's row of the alert, never on the webhook's, and nowhere without the setting", () => {
    queueUrgent();
    queueUrgent(NOW, "Outro x Estado", false);

    const ana = rowOf("ana@example.com");
    const rui = rowOf("rui@example.com");
    const webhook = store.db
      .prepare<[], { ackId: number | null }>(
        "SELECT ack_id AS ackId FROM outbox WHERE channel = 'webhook' AND subject LIKE '%Silva%'",
      )
      .get();
    expect(ana.ackId).not.toBeNull();
    expect(rui.ackId).toBe(ana.ackId);
    expect(webhook?.ackId).toBeNull();
    expect(rowOf("ana@example.com", "Outro x Estado").ackId).toBeNull();
    // One acknowledgement per alert, valid validHours (24) from when it was queued.
    expect(acknowledgementById(store.db, ana.ackId ?? -1)).toMatchObject({
      expiresAt: "2026-03-03T13:00:00.000Z",
      acknowledgedAt: null,
    });
  });

  it("opens a page with a button on GET (a link scanner's prefetch) and records nothing", async () => {
    queueUrgent();
    const ana = rowOf("ana@example.com");

    const get = await call("GET", pathOf(ana));
    const head = await call("HEAD", pathOf(ana));

    expect(get.status).toBe(200);
    expect(get.body).toContain('<form method="post">');
    expect(get.body).toContain("Confirmar ciência");
    expect(head.status).toBe(200);
    expect(acknowledged(ana)).toEqual({ at: null, by: null });
    expect(ackEvents()).toBe(0);
  });

  it("records who and when on the button's POST, once, and queues alert.acknowledged", async () => {
    queueUrgent();
    const ana = rowOf("ana@example.com");
    const rui = rowOf("rui@example.com");
    clock.advance(2 * HOUR);

    const first = await call("POST", pathOf(ana), { origin: BASE });
    clock.advance(HOUR);
    const again = await call("POST", pathOf(ana), { origin: BASE });
    const other = await call("POST", pathOf(rui), { origin: BASE });

    expect(first.status).toBe(200);
    expect(first.body).toContain("Ciência registrada");
    expect(acknowledged(ana)).toEqual({ at: "2026-03-02T15:00:00.000Z", by: "ana@example.com" });
    // Reused, or another watcher's link of the same alert: nothing changes, the page says so.
    expect(again.status).toBe(409);
    expect(other.status).toBe(409);
    expect(other.body).toContain("já foi confirmado");
    expect(other.body).toContain("ana@example.com");
    expect(acknowledged(rui)).toEqual({ at: "2026-03-02T15:00:00.000Z", by: "ana@example.com" });
    expect(ackEvents()).toBe(1);
  });

  it("refuses an expired link without recording it", async () => {
    queueUrgent();
    const ana = rowOf("ana@example.com");
    clock.advance(24 * HOUR);

    const get = await call("GET", pathOf(ana));
    const post = await call("POST", pathOf(ana), { origin: BASE });

    expect(get.status).toBe(410);
    expect(post.status).toBe(410);
    expect(post.body).toContain("Link expirado");
    expect(acknowledged(ana)).toEqual({ at: null, by: null });
  });

  it("refuses a token moved to another alert's row, or altered, with the same 404", async () => {
    queueUrgent();
    queueUrgent(NOW, "Outro x Estado");
    const mine = rowOf("ana@example.com");
    const other = rowOf("ana@example.com", "Outro x Estado");
    const [, mac] = pathOf(mine).slice("/ack/".length).split(".");
    const ownMac = ackToken(SECRET, {
      rowId: other.id,
      ackId: mine.ackId ?? -1,
      dedupeKey: mine.dedupeKey,
    }).split(".")[1];

    const moved = await call("POST", `/ack/${other.id}.${mac}`, { origin: BASE });
    const mixed = await call("POST", `/ack/${other.id}.${ownMac}`, { origin: BASE });
    const garbage = await call("GET", "/ack/not-a-token");

    for (const answer of [moved, mixed, garbage]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toContain("Link inválido");
    }
    expect(acknowledged(mine)).toEqual({ at: null, by: null });
    expect(acknowledged(other)).toEqual({ at: null, by: null });
  });

  it("answers nothing under a foreign Host, and takes no POST from a foreign page", async () => {
    queueUrgent();
    const ana = rowOf("ana@example.com");

    const host = await call("POST", pathOf(ana), { host: "monitor.evil.example" });
    const origin = await call("POST", pathOf(ana), { origin: "https://evil.example" });

    expect(host.status).toBe(421);
    expect(origin.status).toBe(403);
    expect(acknowledged(ana)).toEqual({ at: null, by: null });
  });
});

describe("the e-mail of an urgent alert", () => {
  it("ends with its own watcher's link; a digest-free alert without the setting has none", async () => {
    queueUrgent();
    queueUrgent(NOW, "Outro x Estado", false);
    const sent = await drainMailCapture(store.db, clock);

    const ana = sent.find((m) => m.to === "ana@example.com" && m.subject.includes("Silva"));
    const other = sent.find((m) => m.to === "ana@example.com" && m.subject.includes("Outro"));
    expect(ana?.text).toContain(`${BASE}${pathOf(rowOf("ana@example.com"))}`);
    expect(ana?.html).toContain(`${BASE}${pathOf(rowOf("ana@example.com"))}`);
    expect(other?.text).not.toContain("/ack/");
  });
});
